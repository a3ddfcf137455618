/** The forum's data variants: one community per variant (name, categories, boards, what people talk about). @module */

/** How a board's threads read: questions, show-and-tell, buying and selling, or chat. */
export type BoardKind = 'question' | 'showcase' | 'market' | 'chat';

/** A board of a theme: its name, kind, description, the things its threads are about, and its tags. */
export interface ThemeBoard {
  readonly name: string;
  readonly kind: BoardKind;
  readonly description: string;
  readonly things: readonly string[];
  readonly tags: readonly string[];
}

/** A category of boards. */
export interface ThemeCategory {
  readonly name: string;
  readonly boards: readonly ThemeBoard[];
}

/** A forum community. */
export interface ForumTheme {
  readonly title: string;
  readonly categories: readonly ThemeCategory[];
}

function board(name: string, kind: BoardKind, description: string, things: string[], tags: string[]): ThemeBoard {
  return { name, kind, description, things, tags };
}

/** Eight themes: variant `n` uses theme `n - 1`. */
export const THEMES: readonly ForumTheme[] = [
  {
    title: 'Solder & Sketch',
    categories: [
      { name: 'Getting Started', boards: [
        board('Introductions', 'chat', 'New here? Say hello and tell us what you build.', ['first soldering kit', 'breadboard', 'multimeter', 'starter kit', 'bench power supply'], ['introduction', 'beginner', 'tools', 'learning']),
        board('Beginner Questions', 'question', 'No question is too basic.', ['resistor', 'LED strip', 'voltage regulator', 'jumper wire', 'capacitor', 'USB power bank'], ['beginner', 'wiring', 'components', 'power']),
      ] },
      { name: 'Projects', boards: [
        board('Arduino', 'question', 'Sketches, shields and sensors.', ['Arduino Nano', 'servo motor', 'OLED display', 'stepper driver', 'rotary encoder', 'temperature sensor'], ['arduino', 'sensors', 'motors', 'code']),
        board('Raspberry Pi', 'question', 'Single-board computers and everything you run on them.', ['Raspberry Pi 5', 'Pi camera module', 'GPIO header', 'Pi Zero', 'NVMe hat', 'touchscreen'], ['raspberry-pi', 'linux', 'camera', 'networking']),
        board('3D Printing', 'question', 'Printers, filament, slicers and enclosures.', ['PLA filament', 'print bed', 'hotend', 'Bowden tube', 'resin printer', 'printer enclosure'], ['3d-printing', 'filament', 'calibration', 'slicer']),
      ] },
      { name: 'Community', boards: [
        board('Show and Tell', 'showcase', 'Finished something? Show it off.', ['weather station', 'robot arm', 'LED matrix', 'home automation hub', 'synth module'], ['showcase', 'build-log', 'robotics', 'audio']),
        board('Marketplace', 'market', 'Buy, sell and trade parts and tools.', ['oscilloscope', 'soldering station', 'component kit', 'logic analyzer', 'hot air station'], ['for-sale', 'wanted', 'tools', 'trade']),
        board('Off-Topic', 'chat', 'Anything that is not electronics.', ['workbench', 'maker podcast', 'YouTube channel', 'desk lamp', 'maker magazine'], ['chat', 'meta', 'workspace', 'news']),
      ] },
    ],
  },
  {
    title: 'Green Fingers Forum',
    categories: [
      { name: 'Growing', boards: [
        board('Vegetables', 'question', 'From seed trays to harvest.', ['tomato plant', 'raised bed', 'zucchini', 'pepper seedling', 'potato crop', 'lettuce patch'], ['vegetables', 'pests', 'watering', 'seeds']),
        board('Fruit Trees', 'question', 'Orchards, bushes and potted citrus.', ['apple tree', 'fig tree', 'lemon tree', 'cherry tree', 'blueberry bush'], ['pruning', 'fruit', 'grafting', 'disease']),
        board('Houseplants', 'question', 'Green friends that live indoors.', ['monstera', 'fiddle leaf fig', 'snake plant', 'orchid', 'pothos', 'peace lily'], ['indoor', 'repotting', 'light', 'watering']),
      ] },
      { name: 'Techniques', boards: [
        board('Soil and Compost', 'question', 'Feed the soil, not the plant.', ['compost bin', 'worm farm', 'clay soil', 'leaf mold', 'mulch layer'], ['compost', 'soil', 'organic', 'mulch']),
        board('Pests and Diseases', 'question', 'Identify it, then deal with it.', ['aphid problem', 'powdery mildew', 'slug damage', 'tomato blight', 'vine weevil'], ['pests', 'disease', 'organic', 'identification']),
        board('Garden Design', 'showcase', 'Borders, ponds and layouts.', ['cottage border', 'wildlife pond', 'gravel garden', 'herb spiral', 'shade bed'], ['design', 'showcase', 'pond', 'planting']),
      ] },
      { name: 'Community', boards: [
        board('Seed Swap', 'market', 'Swap, sell and share seeds and plants.', ['heirloom tomato seeds', 'dahlia tubers', 'rhubarb crowns', 'sweet pea seeds', 'garlic bulbs'], ['swap', 'seeds', 'wanted', 'for-sale']),
        board('The Potting Shed', 'chat', 'Tea, chat and the weather.', ['garden shed', 'rain barrel', 'favorite trowel', 'allotment', 'greenhouse'], ['chat', 'allotment', 'tools', 'weather']),
      ] },
    ],
  },
  {
    title: 'Trail Talk',
    categories: [
      { name: 'Gear', boards: [
        board('Packs and Shelters', 'question', 'Tents, tarps, packs and sleep systems.', ['ultralight tent', '50L backpack', 'sleeping pad', 'hammock setup', 'trekking poles'], ['ultralight', 'tents', 'packs', 'sleep-system']),
        board('Footwear', 'question', 'Boots, trail runners and happy feet.', ['trail runner', 'leather boot', 'gaiters', 'hiking sock', 'insole'], ['boots', 'blisters', 'sizing', 'waterproof']),
        board('Navigation', 'question', 'Maps, compasses, GPS and apps.', ['GPS watch', 'paper map', 'baseplate compass', 'satellite messenger', 'trail app'], ['gps', 'maps', 'safety', 'apps']),
      ] },
      { name: 'Trips', boards: [
        board('Trip Reports', 'showcase', 'Where did you go? Tell us everything.', ['ridge traverse', 'alpine lake loop', 'desert canyon hike', 'coastal trail', 'winter summit'], ['trip-report', 'photos', 'alpine', 'desert']),
        board('Trip Planning', 'question', 'Permits, logistics and routes.', ['permit application', 'thru-hike resupply', 'first overnight trip', 'water source', 'trailhead shuttle'], ['planning', 'permits', 'resupply', 'weather']),
        board('Safety and Skills', 'question', 'Stay safe out there.', ['bear canister', 'first aid kit', 'river crossing', 'lightning storm', 'altitude sickness'], ['safety', 'first-aid', 'wildlife', 'skills']),
      ] },
      { name: 'Community', boards: [
        board('Gear Swap', 'market', 'Buy and sell used gear.', ['down quilt', 'rain shell', 'trekking pole set', 'water filter', 'stove kit'], ['for-sale', 'wanted', 'trade', 'gear']),
        board('Campfire', 'chat', 'Pull up a log.', ['trail snack', 'hiking playlist', 'favorite trail', 'camp chair', 'trail journal'], ['chat', 'food', 'stories', 'meta']),
      ] },
    ],
  },
  {
    title: 'Fretboard Forum',
    categories: [
      { name: 'Instruments', boards: [
        board('Electric Guitars', 'question', 'Solid bodies, hollow bodies and mods.', ['Stratocaster', 'Les Paul', 'humbucker pickup', 'tremolo bridge', 'locking tuner'], ['electric', 'pickups', 'setup', 'vintage']),
        board('Acoustic Guitars', 'question', 'Steel, nylon and everything wooden.', ['dreadnought', 'parlor guitar', 'acoustic pickup', 'nylon string guitar', 'bridge pin'], ['acoustic', 'strings', 'humidity', 'setup']),
        board('Amps and Pedals', 'question', 'Tone chasers welcome.', ['tube amp', 'overdrive pedal', 'delay pedal', 'pedalboard', 'modeling amp'], ['amps', 'pedals', 'tone', 'power']),
      ] },
      { name: 'Playing', boards: [
        board('Technique', 'question', 'Get better, one lick at a time.', ['barre chord', 'fingerpicking pattern', 'alternate picking', 'vibrato', 'sweep picking'], ['technique', 'practice', 'theory', 'speed']),
        board('Song Covers', 'showcase', 'Share your recordings.', ['blues solo', 'acoustic cover', 'riff medley', 'fingerstyle arrangement', 'live recording'], ['cover', 'recording', 'blues', 'feedback']),
        board('Music Theory', 'question', 'Scales, modes and why chords work.', ['Dorian mode', 'circle of fifths', 'pentatonic scale', 'chord progression', 'ear training'], ['theory', 'scales', 'chords', 'learning']),
      ] },
      { name: 'Community', boards: [
        board('Classifieds', 'market', 'Buy, sell and trade gear.', ['used Telecaster', 'fuzz pedal', 'gig bag', 'tube amp head', 'capo'], ['for-sale', 'wanted', 'trade', 'local-pickup']),
        board('The Green Room', 'chat', 'Off-stage chat.', ['practice routine', 'favorite album', 'first guitar', 'concert', 'guitar teacher'], ['chat', 'music', 'gigs', 'meta']),
      ] },
    ],
  },
  {
    title: 'Shutter Society',
    categories: [
      { name: 'Gear', boards: [
        board('Cameras', 'question', 'Bodies old and new.', ['mirrorless body', 'full-frame camera', 'film camera', 'camera strap', 'battery grip'], ['mirrorless', 'film', 'sensors', 'upgrades']),
        board('Lenses', 'question', 'Primes, zooms and adapters.', ['50mm prime', 'wide-angle lens', 'macro lens', 'telephoto zoom', 'lens filter'], ['primes', 'zooms', 'adapters', 'sharpness']),
        board('Lighting', 'question', 'Flash, strobes and continuous light.', ['speedlight', 'softbox', 'reflector', 'LED panel', 'light stand'], ['flash', 'studio', 'portrait', 'diy']),
      ] },
      { name: 'Craft', boards: [
        board('Critique Corner', 'showcase', 'Honest feedback on your photos.', ['street portrait', 'landscape shot', 'night skyline', 'macro photo', 'wildlife photo'], ['critique', 'landscape', 'street', 'wildlife']),
        board('Editing', 'question', 'Workflows, presets and color.', ['RAW workflow', 'color grade', 'preset pack', 'monitor calibration', 'noise reduction'], ['editing', 'color', 'software', 'workflow']),
        board('Techniques', 'question', 'How was that shot made?', ['long exposure', 'focus stacking', 'golden hour', 'astrophotography', 'panning shot'], ['technique', 'night', 'exposure', 'composition']),
      ] },
      { name: 'Community', boards: [
        board('Buy and Sell', 'market', 'Used gear marketplace.', ['used lens', 'camera body', 'carbon tripod', 'flash trigger', 'camera bag'], ['for-sale', 'wanted', 'trade', 'local-pickup']),
        board('Lounge', 'chat', 'Everything else.', ['photo walk', 'favorite photographer', 'photo book', 'editing desk', 'photo contest'], ['chat', 'events', 'books', 'meta']),
      ] },
    ],
  },
  {
    title: 'Byte Club',
    categories: [
      { name: 'Languages', boards: [
        board('Python', 'question', 'Scripts, data and packaging.', ['virtual environment', 'pandas dataframe', 'async loop', 'type hint', 'pip package'], ['python', 'packaging', 'data', 'async']),
        board('JavaScript', 'question', 'Browsers, Node and TypeScript.', ['React hook', 'Node server', 'bundler config', 'fetch request', 'TypeScript type'], ['javascript', 'react', 'node', 'typescript']),
        board('Rust', 'question', 'Fearless concurrency, fearful compile times.', ['borrow checker', 'async runtime', 'cargo workspace', 'lifetime error', 'trait object'], ['rust', 'async', 'cargo', 'lifetimes']),
      ] },
      { name: 'Practice', boards: [
        board('Code Review', 'showcase', 'Post code, get feedback.', ['CLI tool', 'web scraper', 'budget app', 'chess engine', 'chat bot'], ['review', 'refactoring', 'testing', 'style']),
        board('Careers', 'question', 'Jobs, interviews and growth.', ['first developer job', 'tech interview', 'developer resume', 'remote job', 'coding bootcamp'], ['career', 'interviews', 'remote', 'learning']),
        board('DevOps', 'question', 'Build, ship and run.', ['Docker image', 'CI pipeline', 'Kubernetes cluster', 'nginx config', 'backup script'], ['docker', 'ci', 'linux', 'cloud']),
      ] },
      { name: 'Community', boards: [
        board('Side Projects', 'showcase', 'What are you building on weekends?', ['habit tracker', 'static site', 'home server', 'game jam entry', 'browser extension'], ['side-project', 'web', 'self-hosting', 'games']),
        board('Off-Topic', 'chat', 'Keyboards, coffee and everything else.', ['mechanical keyboard', 'desk setup', 'coffee routine', 'tech podcast', 'programming book'], ['chat', 'hardware', 'books', 'meta']),
      ] },
    ],
  },
  {
    title: 'Home Brew Hub',
    categories: [
      { name: 'Brewing', boards: [
        board('Beginners', 'question', 'Your first batches.', ['starter kit', 'plastic fermenter', 'hydrometer', 'airlock', 'bottling wand'], ['beginner', 'extract', 'sanitation', 'bottling']),
        board('All-Grain', 'question', 'Mash, sparge, repeat.', ['mash tun', 'grain mill', 'sparge setup', 'water profile', 'wort chiller'], ['all-grain', 'mash', 'water', 'efficiency']),
        board('Fermentation', 'question', 'Yeast does the work.', ['yeast starter', 'fermentation chamber', 'lager yeast', 'stuck fermentation', 'dry hop schedule'], ['yeast', 'temperature', 'lager', 'hops']),
      ] },
      { name: 'Recipes', boards: [
        board('Recipe Feedback', 'showcase', 'Share recipes and tasting notes.', ['pale ale recipe', 'oatmeal stout', 'hazy IPA', 'farmhouse saison', 'cider batch'], ['recipe', 'ale', 'stout', 'ipa']),
        board('Cider and Mead', 'question', 'Apples, honey and fruit.', ['mead batch', 'apple cider', 'fruit wine', 'wildflower honey', 'back-sweetening'], ['cider', 'mead', 'fruit', 'wine']),
        board('Kegging', 'question', 'Kegs, gas and taps.', ['keg setup', 'CO2 regulator', 'kegerator', 'beer line', 'tap handle'], ['kegging', 'carbonation', 'co2', 'draft']),
      ] },
      { name: 'Community', boards: [
        board('Equipment Swap', 'market', 'Sell what you outgrew.', ['brew kettle', 'corny keg', 'conical fermenter', 'roller mill', 'chest freezer'], ['for-sale', 'wanted', 'trade', 'local-pickup']),
        board('Tasting Room', 'chat', 'Pour one and chat.', ['favorite brewery', 'brew day', 'beer glass', 'homebrew club', 'label design'], ['chat', 'events', 'tasting', 'meta']),
      ] },
    ],
  },
  {
    title: 'Paws & Claws',
    categories: [
      { name: 'Dogs', boards: [
        board('Dog Training', 'question', 'Sit, stay and everything after.', ['puppy crate', 'recall training', 'leash pulling', 'clicker', 'separation anxiety'], ['training', 'puppies', 'behavior', 'leash']),
        board('Dog Health', 'question', 'Food, vets and wellbeing.', ['dog food brand', 'vet visit', 'flea treatment', 'joint supplement', 'dental chew'], ['health', 'food', 'vet', 'seniors']),
      ] },
      { name: 'Cats', boards: [
        board('Cat Care', 'question', 'Litter, food and grooming.', ['litter box', 'scratching post', 'cat tree', 'hairball remedy', 'indoor cat'], ['care', 'litter', 'grooming', 'food']),
        board('Cat Behavior', 'question', 'Why does my cat do that?', ['night zoomies', 'new kitten', 'cat carrier', 'feeding schedule', 'cat flap'], ['behavior', 'kittens', 'introductions', 'play']),
      ] },
      { name: 'Community', boards: [
        board('Adoption Stories', 'showcase', 'Rescues, fosters and happy endings.', ['rescue dog', 'senior cat', 'foster kitten', 'shelter puppy', 'bonded pair'], ['adoption', 'rescue', 'foster', 'seniors']),
        board('Pet Photos', 'showcase', 'Cute pictures only.', ['sleeping cat', 'beach day', 'birthday party', 'pet costume', 'new collar'], ['photos', 'dogs', 'cats', 'funny']),
        board('Supplies Swap', 'market', 'Pass on what your pets outgrew.', ['dog crate', 'cat condo', 'pet stroller', 'aquarium', 'dog ramp'], ['for-sale', 'wanted', 'free', 'local-pickup']),
        board('Water Bowl', 'chat', 'General chat.', ['pet name', 'pet camera', 'favorite toy', 'pet insurance', 'dog park'], ['chat', 'names', 'insurance', 'meta']),
      ] },
    ],
  },
];
