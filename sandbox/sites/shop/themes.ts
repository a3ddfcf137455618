/** The shop's data variants: one store theme per variant (name, order prefix, categories and their goods). @module */

/** A category of a theme and the kinds of product it sells, with a typical price range. */
export interface ThemeCategory {
  readonly name: string;
  readonly goods: readonly string[];
  readonly price: readonly [number, number];
}

/** A store theme. */
export interface ShopTheme {
  readonly title: string;
  /** Order numbers look like `<prefix>-10231`. */
  readonly prefix: string;
  readonly categories: readonly ThemeCategory[];
}

/** Eight themes: variant `n` uses theme `n - 1`. */
export const THEMES: readonly ShopTheme[] = [
  {
    title: 'Hearth & Home',
    prefix: 'HH',
    categories: [
      { name: 'Kitchen', goods: ['Chef Knife', 'Cutting Board', 'Saucepan', 'Mixing Bowl Set', 'Kettle', 'French Press', 'Skillet', 'Spice Rack'], price: [12, 140] },
      { name: 'Lighting', goods: ['Desk Lamp', 'Floor Lamp', 'Pendant Light', 'String Lights', 'Table Lamp', 'Wall Sconce', 'Reading Light'], price: [18, 220] },
      { name: 'Bedding', goods: ['Duvet Cover', 'Pillow Set', 'Throw Blanket', 'Sheet Set', 'Quilt', 'Mattress Topper'], price: [25, 190] },
      { name: 'Bath', goods: ['Bath Towel Set', 'Shower Curtain', 'Bath Mat', 'Soap Dispenser', 'Robe', 'Towel Rack'], price: [9, 95] },
      { name: 'Decor', goods: ['Wall Clock', 'Vase', 'Picture Frame', 'Candle Holder', 'Mirror', 'Planter', 'Throw Pillow'], price: [11, 160] },
      { name: 'Storage', goods: ['Storage Basket', 'Shoe Rack', 'Bookshelf', 'Drawer Organizer', 'Coat Rack', 'Laundry Hamper'], price: [14, 230] },
    ],
  },
  {
    title: 'Trailhead Outfitters',
    prefix: 'TO',
    categories: [
      { name: 'Tents', goods: ['Backpacking Tent', 'Family Tent', 'Bivy Shelter', 'Tarp Shelter', 'Dome Tent', 'Ultralight Tent'], price: [60, 480] },
      { name: 'Backpacks', goods: ['Daypack', 'Hiking Pack', 'Hydration Pack', 'Travel Pack', 'Summit Pack', 'Hip Pack'], price: [30, 260] },
      { name: 'Footwear', goods: ['Hiking Boots', 'Trail Runners', 'Camp Sandals', 'Approach Shoes', 'Gaiters', 'Wool Socks'], price: [15, 210] },
      { name: 'Clothing', goods: ['Rain Jacket', 'Fleece Pullover', 'Down Vest', 'Hiking Pants', 'Base Layer', 'Sun Hoodie', 'Beanie'], price: [20, 320] },
      { name: 'Camp Kitchen', goods: ['Camp Stove', 'Cook Set', 'Water Filter', 'Insulated Mug', 'Spork Set', 'Cooler'], price: [9, 280] },
      { name: 'Climbing', goods: ['Climbing Harness', 'Chalk Bag', 'Carabiner Set', 'Belay Device', 'Climbing Rope', 'Helmet'], price: [12, 260] },
    ],
  },
  {
    title: 'Voltage Electronics',
    prefix: 'VE',
    categories: [
      { name: 'Laptops', goods: ['Ultrabook', 'Gaming Laptop', 'Chromebook', 'Convertible Laptop', 'Workstation Laptop'], price: [299, 2400] },
      { name: 'Phones', goods: ['Smartphone', 'Phone Case', 'Wireless Charger', 'Screen Protector', 'Car Mount', 'Power Bank'], price: [12, 1100] },
      { name: 'Audio', goods: ['Wireless Earbuds', 'Over-Ear Headphones', 'Bluetooth Speaker', 'Soundbar', 'Turntable', 'Microphone'], price: [25, 600] },
      { name: 'Cameras', goods: ['Mirrorless Camera', 'Action Camera', 'Camera Lens', 'Tripod', 'Camera Bag', 'Memory Card'], price: [15, 1800] },
      { name: 'Accessories', goods: ['USB-C Hub', 'Mechanical Keyboard', 'Wireless Mouse', 'Monitor Stand', 'HDMI Cable', 'Laptop Sleeve', 'Webcam'], price: [9, 180] },
      { name: 'Smart Home', goods: ['Smart Plug', 'Video Doorbell', 'Smart Thermostat', 'Security Camera', 'Smart Bulb', 'Mesh Router'], price: [15, 320] },
    ],
  },
  {
    title: 'Paper Lantern Books',
    prefix: 'PL',
    categories: [
      { name: 'Notebooks', goods: ['Dotted Notebook', 'Lined Journal', 'Sketchbook', 'Pocket Notebook', 'Travel Journal', 'Spiral Notebook'], price: [6, 45] },
      { name: 'Pens', goods: ['Fountain Pen', 'Gel Pen Set', 'Fineliner Set', 'Ballpoint Pen', 'Brush Pen', 'Mechanical Pencil'], price: [3, 160] },
      { name: 'Art Supplies', goods: ['Watercolor Set', 'Acrylic Paint Set', 'Colored Pencils', 'Canvas Panel', 'Easel', 'Brush Set'], price: [8, 140] },
      { name: 'Planners', goods: ['Weekly Planner', 'Desk Calendar', 'Daily Planner', 'Wall Planner', 'Habit Tracker'], price: [9, 48] },
      { name: 'Cookbooks', goods: ['Baking Cookbook', 'Vegetarian Cookbook', 'Grilling Cookbook', 'Pasta Cookbook', 'Soup Cookbook'], price: [14, 45] },
      { name: 'Gifts', goods: ['Bookmark Set', 'Book Light', 'Reading Pillow', 'Book Stand', 'Gift Card Box', 'Literary Mug'], price: [5, 60] },
    ],
  },
  {
    title: 'Happy Tails Pet Supply',
    prefix: 'HT',
    categories: [
      { name: 'Dog Food', goods: ['Dry Dog Food', 'Grain-Free Kibble', 'Puppy Food', 'Dog Treats', 'Dental Chews', 'Wet Dog Food'], price: [6, 90] },
      { name: 'Cat Food', goods: ['Dry Cat Food', 'Wet Cat Food', 'Cat Treats', 'Kitten Food', 'Hairball Formula'], price: [5, 70] },
      { name: 'Toys', goods: ['Rope Toy', 'Squeaky Ball', 'Feather Wand', 'Puzzle Feeder', 'Chew Bone', 'Laser Pointer'], price: [4, 35] },
      { name: 'Beds', goods: ['Orthopedic Dog Bed', 'Cat Cave', 'Donut Bed', 'Elevated Cot', 'Heated Pad'], price: [22, 160] },
      { name: 'Grooming', goods: ['Slicker Brush', 'Nail Clipper', 'Pet Shampoo', 'Deshedding Tool', 'Grooming Wipes'], price: [6, 55] },
      { name: 'Walking', goods: ['Leash', 'Harness', 'Collar', 'Poop Bag Holder', 'Reflective Vest', 'Car Seat Cover'], price: [8, 75] },
    ],
  },
  {
    title: 'Peak Performance Sports',
    prefix: 'PP',
    categories: [
      { name: 'Running', goods: ['Running Shoes', 'Running Shorts', 'GPS Watch', 'Running Belt', 'Compression Socks', 'Headlamp'], price: [12, 420] },
      { name: 'Yoga', goods: ['Yoga Mat', 'Yoga Block', 'Yoga Strap', 'Meditation Cushion', 'Yoga Towel'], price: [8, 120] },
      { name: 'Cycling', goods: ['Bike Helmet', 'Cycling Jersey', 'Bike Light Set', 'Water Bottle Cage', 'Bike Lock', 'Cycling Gloves'], price: [9, 230] },
      { name: 'Fitness', goods: ['Dumbbell Set', 'Kettlebell', 'Resistance Bands', 'Jump Rope', 'Foam Roller', 'Pull-Up Bar'], price: [8, 260] },
      { name: 'Team Sports', goods: ['Soccer Ball', 'Basketball', 'Shin Guards', 'Goalkeeper Gloves', 'Volleyball', 'Sports Bag'], price: [10, 90] },
      { name: 'Swimming', goods: ['Swim Goggles', 'Swim Cap', 'Kickboard', 'Swimsuit', 'Pull Buoy', 'Swim Fins'], price: [6, 85] },
    ],
  },
  {
    title: 'Little Wonders Toys',
    prefix: 'LW',
    categories: [
      { name: 'Building Sets', goods: ['Brick Set', 'Magnetic Tiles', 'Marble Run', 'Wooden Blocks', 'Gear Set'], price: [15, 150] },
      { name: 'Puzzles', goods: ['Jigsaw Puzzle', 'Floor Puzzle', '3D Puzzle', 'Puzzle Cube', 'Brain Teaser Set'], price: [7, 45] },
      { name: 'Board Games', goods: ['Strategy Game', 'Card Game', 'Trivia Game', 'Cooperative Game', 'Word Game', 'Chess Set'], price: [9, 70] },
      { name: 'Outdoor Play', goods: ['Kite', 'Bubble Machine', 'Scooter', 'Sand Toy Set', 'Water Blaster', 'Jump Rope Set'], price: [8, 130] },
      { name: 'Arts & Crafts', goods: ['Clay Kit', 'Bead Kit', 'Paint Set', 'Sticker Book', 'Origami Kit'], price: [6, 40] },
      { name: 'Plush', goods: ['Teddy Bear', 'Plush Dinosaur', 'Plush Bunny', 'Plush Whale', 'Plush Fox'], price: [9, 55] },
    ],
  },
  {
    title: 'Green Thumb Garden Supply',
    prefix: 'GT',
    categories: [
      { name: 'Seeds', goods: ['Tomato Seeds', 'Herb Seed Kit', 'Wildflower Seeds', 'Lettuce Seeds', 'Sunflower Seeds', 'Pepper Seeds'], price: [3, 25] },
      { name: 'Tools', goods: ['Pruning Shears', 'Garden Trowel', 'Hand Rake', 'Hori Hori Knife', 'Garden Fork', 'Loppers'], price: [9, 85] },
      { name: 'Planters', goods: ['Ceramic Planter', 'Raised Bed', 'Hanging Basket', 'Window Box', 'Grow Bag Set'], price: [12, 260] },
      { name: 'Watering', goods: ['Watering Can', 'Garden Hose', 'Hose Nozzle', 'Drip Kit', 'Sprinkler', 'Rain Barrel'], price: [8, 150] },
      { name: 'Soil', goods: ['Potting Mix', 'Compost', 'Mulch', 'Seed Starting Mix', 'Plant Food'], price: [6, 40] },
      { name: 'Outdoor Decor', goods: ['Solar Lantern', 'Bird Feeder', 'Garden Gnome', 'Wind Chime', 'Stepping Stone', 'Bird Bath'], price: [10, 140] },
    ],
  },
];
