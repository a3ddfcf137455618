/** The forum's data variants: one community per variant (name, categories, boards, what people talk about). @module */

/**
 * How a board's threads read: questions about things, questions about topics and skills, show-and-tell of builds,
 * stories and photos, buying and selling, or chat.
 */
export type BoardKind = 'question' | 'topic' | 'showcase' | 'story' | 'market' | 'chat';

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
        board('Vegetables', 'topic', 'From seed trays to harvest.', ['tomatoes', 'raised beds', 'zucchini', 'pepper seedlings', 'seed potatoes', 'lettuce'], ['vegetables', 'pests', 'watering', 'seeds']),
        board('Fruit Trees', 'topic', 'Orchards, bushes and potted citrus.', ['apple trees', 'fig trees', 'potted lemon trees', 'cherry trees', 'blueberry bushes'], ['pruning', 'fruit', 'grafting', 'disease']),
        board('Houseplants', 'topic', 'Green friends that live indoors.', ['monsteras', 'fiddle leaf figs', 'snake plants', 'orchids', 'pothos', 'peace lilies'], ['indoor', 'repotting', 'light', 'watering']),
      ] },
      { name: 'Techniques', boards: [
        board('Soil and Compost', 'topic', 'Feed the soil, not the plant.', ['composting', 'worm farms', 'clay soil', 'leaf mold', 'mulching'], ['compost', 'soil', 'organic', 'mulch']),
        board('Pests and Diseases', 'topic', 'Identify it, then deal with it.', ['aphids', 'powdery mildew', 'slugs', 'tomato blight', 'vine weevils'], ['pests', 'disease', 'organic', 'identification']),
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
        board('Trip Reports', 'story', 'Where did you go? Tell us everything.', ['ridge traverse', 'alpine lake loop', 'desert canyon hike', 'coastal trail', 'winter summit'], ['trip-report', 'photos', 'alpine', 'desert']),
        board('Trip Planning', 'topic', 'Permits, logistics and routes.', ['permit applications', 'thru-hike resupply', 'first overnight trips', 'finding water sources', 'trailhead shuttles'], ['planning', 'permits', 'resupply', 'weather']),
        board('Safety and Skills', 'topic', 'Stay safe out there.', ['bear safety', 'first aid kits', 'river crossings', 'lightning storms', 'altitude sickness'], ['safety', 'first-aid', 'wildlife', 'skills']),
      ] },
      { name: 'Community', boards: [
        board('Gear Swap', 'market', 'Buy and sell used gear.', ['down quilt', 'rain shell', 'trekking pole set', 'water filter', 'stove kit'], ['for-sale', 'wanted', 'trade', 'gear']),
        board('Campfire', 'chat', 'Pull up a log.', ['trail snack', 'hiking playlist', 'trail', 'camp chair', 'trail journal'], ['chat', 'food', 'stories', 'meta']),
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
        board('Technique', 'topic', 'Get better, one lick at a time.', ['barre chords', 'fingerpicking patterns', 'alternate picking', 'vibrato', 'sweep picking'], ['technique', 'practice', 'theory', 'speed']),
        board('Song Covers', 'story', 'Share your recordings.', ['blues solo', 'acoustic cover', 'riff medley', 'fingerstyle arrangement', 'live recording'], ['cover', 'recording', 'blues', 'feedback']),
        board('Music Theory', 'topic', 'Scales, modes and why chords work.', ['the Dorian mode', 'the circle of fifths', 'pentatonic scales', 'chord progressions', 'ear training'], ['theory', 'scales', 'chords', 'learning']),
      ] },
      { name: 'Community', boards: [
        board('Classifieds', 'market', 'Buy, sell and trade gear.', ['used Telecaster', 'fuzz pedal', 'gig bag', 'tube amp head', 'capo'], ['for-sale', 'wanted', 'trade', 'local-pickup']),
        board('The Green Room', 'chat', 'Off-stage chat.', ['practice routine', 'album', 'first guitar', 'concert', 'guitar strap'], ['chat', 'music', 'gigs', 'meta']),
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
        board('Critique Corner', 'story', 'Honest feedback on your photos.', ['street portrait', 'landscape shot', 'night skyline', 'macro photo', 'wildlife photo'], ['critique', 'landscape', 'street', 'wildlife']),
        board('Editing', 'topic', 'Workflows, presets and color.', ['RAW workflows', 'color grading', 'presets', 'monitor calibration', 'noise reduction'], ['editing', 'color', 'software', 'workflow']),
        board('Techniques', 'topic', 'How was that shot made?', ['long exposures', 'focus stacking', 'golden hour light', 'astrophotography', 'panning shots'], ['technique', 'night', 'exposure', 'composition']),
      ] },
      { name: 'Community', boards: [
        board('Buy and Sell', 'market', 'Used gear marketplace.', ['used lens', 'camera body', 'carbon tripod', 'flash trigger', 'camera bag'], ['for-sale', 'wanted', 'trade', 'local-pickup']),
        board('Lounge', 'chat', 'Everything else.', ['photo walk', 'photographer', 'photo book', 'editing desk', 'photo contest'], ['chat', 'events', 'books', 'meta']),
      ] },
    ],
  },
  {
    title: 'Byte Club',
    categories: [
      { name: 'Languages', boards: [
        board('Python', 'topic', 'Scripts, data and packaging.', ['virtual environments', 'pandas dataframes', 'asyncio', 'type hints', 'packaging'], ['python', 'packaging', 'data', 'async']),
        board('JavaScript', 'topic', 'Browsers, Node and TypeScript.', ['React hooks', 'Node streams', 'bundler configs', 'CORS errors', 'TypeScript generics'], ['javascript', 'react', 'node', 'typescript']),
        board('Rust', 'topic', 'Fearless concurrency, fearful compile times.', ['the borrow checker', 'async runtimes', 'cargo workspaces', 'lifetime errors', 'trait objects'], ['rust', 'async', 'cargo', 'lifetimes']),
      ] },
      { name: 'Practice', boards: [
        board('Code Review', 'showcase', 'Post code, get feedback.', ['CLI tool', 'web scraper', 'budget app', 'chess engine', 'chat bot'], ['review', 'refactoring', 'testing', 'style']),
        board('Careers', 'topic', 'Jobs, interviews and growth.', ['landing a first developer job', 'tech interviews', 'developer resumes', 'remote work', 'coding bootcamps'], ['career', 'interviews', 'remote', 'learning']),
        board('DevOps', 'topic', 'Build, ship and run.', ['Docker images', 'CI pipelines', 'Kubernetes', 'nginx configs', 'backup scripts'], ['docker', 'ci', 'linux', 'cloud']),
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
        board('All-Grain', 'question', 'Mash, sparge, repeat.', ['mash tun', 'grain mill', 'sparge arm', 'pH meter', 'wort chiller'], ['all-grain', 'mash', 'water', 'efficiency']),
        board('Fermentation', 'topic', 'Yeast does the work.', ['yeast starters', 'fermentation temperature', 'lager yeast', 'stuck fermentations', 'dry hopping'], ['yeast', 'temperature', 'lager', 'hops']),
      ] },
      { name: 'Recipes', boards: [
        board('Recipe Feedback', 'story', 'Share recipes and tasting notes.', ['pale ale recipe', 'oatmeal stout', 'hazy IPA', 'farmhouse saison', 'cider batch'], ['recipe', 'ale', 'stout', 'ipa']),
        board('Cider and Mead', 'topic', 'Apples, honey and fruit.', ['mead', 'apple cider', 'fruit wine', 'back-sweetening', 'wild yeast'], ['cider', 'mead', 'fruit', 'wine']),
        board('Kegging', 'question', 'Kegs, gas and taps.', ['keg setup', 'CO2 regulator', 'kegerator', 'beer line', 'tap handle'], ['kegging', 'carbonation', 'co2', 'draft']),
      ] },
      { name: 'Community', boards: [
        board('Equipment Swap', 'market', 'Sell what you outgrew.', ['brew kettle', 'corny keg', 'conical fermenter', 'roller mill', 'chest freezer'], ['for-sale', 'wanted', 'trade', 'local-pickup']),
        board('Tasting Room', 'chat', 'Pour one and chat.', ['brewery', 'brew day', 'beer glass', 'homebrew club', 'label design'], ['chat', 'events', 'tasting', 'meta']),
      ] },
    ],
  },
  {
    title: 'Paws & Claws',
    categories: [
      { name: 'Dogs', boards: [
        board('Dog Training', 'topic', 'Sit, stay and everything after.', ['recall training', 'leash pulling', 'crate training', 'clicker training', 'separation anxiety'], ['training', 'puppies', 'behavior', 'leash']),
        board('Dog Health', 'topic', 'Food, vets and wellbeing.', ['choosing dog food', 'vet visits', 'flea treatment', 'joint supplements', 'dental care'], ['health', 'food', 'vet', 'seniors']),
      ] },
      { name: 'Cats', boards: [
        board('Cat Care', 'question', 'Litter, food and grooming.', ['litter box', 'scratching post', 'cat tree', 'automatic feeder', 'cat fountain'], ['care', 'litter', 'grooming', 'food']),
        board('Cat Behavior', 'topic', 'Why does my cat do that?', ['night zoomies', 'introducing a new kitten', 'carrier training', 'feeding schedules', 'cat flaps'], ['behavior', 'kittens', 'introductions', 'play']),
      ] },
      { name: 'Community', boards: [
        board('Adoption Stories', 'story', 'Rescues, fosters and happy endings.', ['rescue dog', 'senior cat', 'foster kitten', 'shelter puppy', 'bonded pair'], ['adoption', 'rescue', 'foster', 'seniors']),
        board('Pet Photos', 'story', 'Cute pictures only.', ['sleeping cat', 'beach day', 'birthday party', 'pet costume', 'new collar'], ['photos', 'dogs', 'cats', 'funny']),
        board('Supplies Swap', 'market', 'Pass on what your pets outgrew.', ['dog crate', 'cat condo', 'pet stroller', 'aquarium', 'dog ramp'], ['for-sale', 'wanted', 'free', 'local-pickup']),
        board('Water Bowl', 'chat', 'General chat.', ['pet name', 'pet camera', 'dog toy', 'pet insurance plan', 'dog park'], ['chat', 'names', 'insurance', 'meta']),
      ] },
    ],
  },
];
