/**
 * The recipe site's kitchen: pantry items (with what they mean for diets) and dish types that make a recipe's title,
 * ingredients and steps from a protein, a vegetable, a fruit, a cheese or a herb.
 * @module
 */

/** What an ingredient means for diets: m meat, f fish, d dairy, e egg, g gluten, h honey; s a pantry staple. */
export type Flags = string;

/** An ingredient for four servings: name, quantity (`null` for "to taste"), unit (`''` for a count), flags. */
export type Item = readonly [name: string, qty: number | null, unit: string, flags: Flags];

/** A word for titles (and its plural, `{Vs}`) and the ingredient it stands for. */
export interface Slot {
  readonly word: string;
  readonly item: Item;
  readonly plural?: string;
}

/** The courses, in menu order. */
export const COURSES = ['Breakfast', 'Starter', 'Main', 'Side', 'Dessert', 'Drink'] as const;
/** A course. */
export type Course = (typeof COURSES)[number];

/** Every cuisine a theme can draw on. */
export const CUISINES = ['Italian', 'Indian', 'Thai', 'Chinese', 'Japanese', 'Korean', 'Mexican', 'American', 'British', 'French', 'Greek', 'Spanish', 'Middle Eastern'] as const;

const s = (name: string, qty: number | null, unit: string, flags = ''): Item => [name, qty, unit, flags];

/** Proteins; the second list is vegetarian. */
export const PROTEINS: readonly Slot[] = [
  { word: 'Chicken', item: s('chicken thighs', 600, 'g', 'm') }, { word: 'Beef', item: s('beef sirloin', 500, 'g', 'm') },
  { word: 'Pork', item: s('pork tenderloin', 500, 'g', 'm') }, { word: 'Shrimp', item: s('raw shrimp', 400, 'g', 'f') },
  { word: 'Salmon', item: s('salmon fillets', 4, '', 'f') }, { word: 'Turkey', item: s('turkey breast', 500, 'g', 'm') },
];
/** Vegetarian proteins. */
export const VEG_PROTEINS: readonly Slot[] = [
  { word: 'Tofu', item: s('firm tofu', 400, 'g') }, { word: 'Chickpea', plural: 'Chickpeas', item: s('canned chickpeas', 2, 'can') },
  { word: 'Lentil', plural: 'Lentils', item: s('red lentils', 250, 'g') }, { word: 'Halloumi', item: s('halloumi', 250, 'g', 'd') },
  { word: 'Paneer', item: s('paneer', 300, 'g', 'd') }, { word: 'Black Bean', plural: 'Black Beans', item: s('canned black beans', 2, 'can') },
];
/** Vegetables. */
export const VEGETABLES: readonly Slot[] = [
  { word: 'Broccoli', item: s('broccoli', 300, 'g') }, { word: 'Spinach', item: s('baby spinach', 200, 'g') },
  { word: 'Sweet Potato', plural: 'Sweet Potatoes', item: s('sweet potatoes', 500, 'g') }, { word: 'Zucchini', item: s('zucchini', 2, '') },
  { word: 'Red Pepper', plural: 'Red Peppers', item: s('red bell peppers', 2, '') }, { word: 'Cauliflower', item: s('cauliflower', 1, 'head') },
  { word: 'Eggplant', item: s('eggplant', 1, '') }, { word: 'Butternut Squash', item: s('butternut squash', 800, 'g') },
  { word: 'Green Bean', plural: 'Green Beans', item: s('green beans', 250, 'g') }, { word: 'Carrot', plural: 'Carrots', item: s('carrots', 4, '') },
  { word: 'Mushroom', plural: 'Mushrooms', item: s('chestnut mushrooms', 300, 'g') }, { word: 'Kale', item: s('kale', 200, 'g') },
  { word: 'Tomato', plural: 'Tomatoes', item: s('cherry tomatoes', 400, 'g') }, { word: 'Pea', plural: 'Peas', item: s('frozen peas', 200, 'g') },
  { word: 'Asparagus', item: s('asparagus', 250, 'g') }, { word: 'Leek', plural: 'Leeks', item: s('leeks', 2, '') },
];
/** Fruits. */
export const FRUITS: readonly Slot[] = [
  { word: 'Apple', item: s('apples', 4, '') }, { word: 'Blueberry', item: s('blueberries', 250, 'g') },
  { word: 'Strawberry', item: s('strawberries', 300, 'g') }, { word: 'Banana', item: s('ripe bananas', 3, '') },
  { word: 'Lemon', item: s('lemons', 2, '') }, { word: 'Mango', item: s('mangoes', 2, '') },
  { word: 'Peach', item: s('peaches', 4, '') }, { word: 'Raspberry', item: s('raspberries', 250, 'g') },
  { word: 'Cherry', item: s('pitted cherries', 300, 'g') }, { word: 'Pear', item: s('pears', 4, '') },
  { word: 'Rhubarb', item: s('rhubarb', 400, 'g') }, { word: 'Plum', item: s('plums', 6, '') },
];
/** Cheeses. */
export const CHEESES: readonly Slot[] = [
  { word: 'Feta', item: s('feta', 150, 'g', 'd') }, { word: 'Parmesan', item: s('parmesan', 60, 'g', 'd') },
  { word: 'Goat Cheese', item: s('goat cheese', 120, 'g', 'd') }, { word: 'Mozzarella', item: s('mozzarella', 125, 'g', 'd') },
  { word: 'Cheddar', item: s('mature cheddar', 100, 'g', 'd') }, { word: 'Ricotta', item: s('ricotta', 200, 'g', 'd') },
];
/** Herbs. */
export const HERBS: readonly Slot[] = [
  { word: 'Basil', item: s('fresh basil', 20, 'g') }, { word: 'Cilantro', item: s('fresh cilantro', 20, 'g') },
  { word: 'Parsley', item: s('flat-leaf parsley', 20, 'g') }, { word: 'Mint', item: s('fresh mint', 15, 'g') },
  { word: 'Thyme', item: s('fresh thyme', 2, 'tsp') }, { word: 'Dill', item: s('fresh dill', 15, 'g') },
];

/** What a dish type needs filled. */
export type SlotKind = 'protein' | 'veg' | 'fruit' | 'cheese' | 'herb';

/** A kind of dish: course, cuisines, title patterns (optionally per cuisine), base ingredients, steps, times, calories. */
export interface DishType {
  readonly key: string;
  readonly course: Course;
  readonly cuisines: readonly string[];
  readonly slots: readonly SlotKind[];
  /** `[cuisines or null, pattern]`: `{P}` protein, `{V}` vegetable, `{F}` fruit, `{C}` cheese, `{H}` herb (title words), `{Vs}` and `{Ps}` the vegetable's and the protein's plural. */
  readonly titles: ReadonlyArray<readonly [readonly string[] | null, string]>;
  readonly base: readonly Item[];
  /** Steps: `{p}`, `{v}`, `{f}`, `{c}`, `{h}` are ingredient names, `{cook}` minutes of cooking. */
  readonly steps: readonly string[];
  readonly prep: readonly [number, number];
  readonly cook: readonly [number, number];
  readonly calories: readonly [number, number];
  readonly servings: readonly number[];
}

const SALT = s('salt', null, '', 's');
const PEPPER = s('black pepper', null, '', 's');
const OIL = s('olive oil', 2, 'tbsp', 's');

/** Ingredients most kitchens already have (left off shopping lists on request). */
export const STAPLES = ['salt', 'black pepper', 'olive oil', 'vegetable oil', 'cold water'] as const;

/** Every dish type. */
export const DISHES: readonly DishType[] = [
  { key: 'curry', course: 'Main', cuisines: ['Indian', 'Thai'], slots: ['protein', 'veg'],
    titles: [[null, '{P} and {V} Curry'], [['Indian'], '{P} Tikka Masala'], [['Indian'], '{P} and {V} Korma'], [['Thai'], 'Thai Green {P} Curry'], [['Thai'], 'Red {P} Curry with {Vs}']],
    base: [s('onion', 1, ''), s('garlic', 3, 'clove'), s('fresh ginger', 1, 'tbsp'), s('curry paste', 3, 'tbsp'), s('coconut milk', 400, 'ml'), s('basmati rice', 300, 'g'), s('vegetable oil', 2, 'tbsp', 's'), SALT],
    steps: ['Heat the oil in a large pan and soften the onion for 5 minutes.', 'Stir in the garlic, ginger and curry paste and cook for 1 minute until fragrant.',
      'Add the {p} and cook until lightly browned.', 'Pour in the coconut milk, add the {v} and simmer for {cook} minutes.',
      'Meanwhile cook the rice according to the packet instructions.', 'Season with salt and serve the curry over the rice.'],
    prep: [10, 20], cook: [20, 40], calories: [480, 720], servings: [4, 4, 6] },
  { key: 'stirfry', course: 'Main', cuisines: ['Chinese', 'Thai', 'Korean', 'Japanese'], slots: ['protein', 'veg'],
    titles: [[null, '{P} and {V} Stir-Fry'], [['Chinese'], 'Sesame {Ps} with {Vs}'], [['Chinese', 'Thai'], 'Garlic {P} Noodles with {Vs}'], [['Korean'], 'Gochujang {P} Bowl'], [['Japanese'], 'Teriyaki {Ps} with {Vs}']],
    base: [s('soy sauce', 3, 'tbsp', 'g'), s('garlic', 2, 'clove'), s('fresh ginger', 1, 'tbsp'), s('sesame oil', 1, 'tbsp'), s('spring onions', 3, ''), s('jasmine rice', 300, 'g'), s('vegetable oil', 2, 'tbsp', 's')],
    steps: ['Cook the rice and keep it warm.', 'Heat the vegetable oil in a wok over high heat and stir-fry the {p} for 4 minutes.',
      'Add the {v}, garlic and ginger and stir-fry for {cook} minutes more.', 'Splash in the soy sauce and sesame oil and toss well.', 'Scatter over the spring onions and serve with the rice.'],
    prep: [10, 20], cook: [8, 15], calories: [420, 650], servings: [2, 4, 4] },
  { key: 'pasta', course: 'Main', cuisines: ['Italian'], slots: ['veg', 'cheese'],
    titles: [[null, '{V} and {C} Pasta'], [null, 'Creamy {V} Penne'], [null, 'Spaghetti with {Vs} and {C}'], [null, 'Baked {V} Rigatoni']],
    base: [s('dried pasta', 400, 'g', 'g'), s('garlic', 2, 'clove'), s('chili flakes', 0.5, 'tsp'), OIL, SALT, PEPPER],
    steps: ['Cook the pasta in well-salted boiling water until al dente.', 'Meanwhile warm the oil in a pan and gently fry the garlic and chili flakes.',
      'Add the {v} and cook for {cook} minutes until tender.', 'Toss the drained pasta with the {v}, a splash of pasta water and the {c}.', 'Season with pepper and serve straight away.'],
    prep: [5, 15], cook: [12, 25], calories: [520, 780], servings: [2, 4, 4] },
  { key: 'risotto', course: 'Main', cuisines: ['Italian'], slots: ['veg', 'herb'],
    titles: [[null, '{V} Risotto'], [null, '{V} and {H} Risotto']],
    base: [s('arborio rice', 300, 'g'), s('vegetable stock', 1, 'l'), s('onion', 1, ''), s('dry white wine', 125, 'ml'), s('butter', 30, 'g', 'd'), s('parmesan', 50, 'g', 'd'), SALT],
    steps: ['Keep the stock at a gentle simmer.', 'Melt the butter and soften the onion, then stir in the rice for 1 minute.', 'Add the wine and let it bubble away.',
      'Add the stock a ladle at a time, stirring, for about {cook} minutes, adding the {v} halfway.', 'Stir in the parmesan and {h}, rest for 2 minutes and serve.'],
    prep: [10, 15], cook: [25, 35], calories: [450, 620], servings: [4] },
  { key: 'tacos', course: 'Main', cuisines: ['Mexican'], slots: ['protein', 'veg'],
    titles: [[null, '{P} Tacos with {V} Salsa'], [null, '{P} and {V} Fajitas'], [null, '{P} Burrito Bowl'], [null, '{V} and {P} Quesadillas']],
    base: [s('corn tortillas', 8, ''), s('limes', 2, ''), s('red onion', 1, ''), s('smoked paprika', 2, 'tsp'), s('ground cumin', 1, 'tsp'), s('sour cream', 150, 'ml', 'd'), OIL, SALT],
    steps: ['Toss the {p} with the paprika, cumin, a pinch of salt and half the oil.', 'Cook in a hot pan for {cook} minutes until charred at the edges.',
      'Fry the {v} and red onion in the remaining oil until just soft.', 'Warm the tortillas in a dry pan.', 'Fill the tortillas, top with sour cream and squeeze over the limes.'],
    prep: [15, 25], cook: [10, 20], calories: [450, 690], servings: [4, 4, 6] },
  { key: 'traybake', course: 'Main', cuisines: ['American', 'British', 'French', 'Greek', 'Spanish'], slots: ['protein', 'veg', 'herb'],
    titles: [[null, 'Lemon {H} {P} Traybake'], [null, 'Roast {Ps} with {Vs}'], [null, 'One-Pan {P} and {V}'], [['Greek'], 'Greek {Ps} with {Vs}'], [['Spanish'], 'Smoky {P} and {V} Bake']],
    base: [s('baby potatoes', 600, 'g'), s('lemon', 1, ''), s('garlic', 4, 'clove'), OIL, SALT, PEPPER],
    steps: ['Heat the oven to 200°C (400°F).', 'Toss the potatoes and {v} with the oil, garlic, salt and pepper in a large roasting tin.',
      'Nestle in the {p}, squeeze over the lemon and scatter with the {h}.', 'Roast for {cook} minutes until golden and cooked through.', 'Rest for 5 minutes before serving.'],
    prep: [10, 20], cook: [35, 55], calories: [480, 700], servings: [4, 4, 6] },
  { key: 'soup', course: 'Starter', cuisines: ['French', 'British', 'Italian', 'Thai', 'Mexican', 'Japanese', 'Middle Eastern'], slots: ['veg', 'herb'],
    titles: [[null, '{V} Soup'], [null, 'Creamy {V} and {H} Soup'], [null, 'Roasted {V} Soup'], [['Thai'], 'Thai {V} Soup with Lemongrass'], [['Italian'], '{V} Minestrone'], [['Middle Eastern'], 'Spiced {V} Soup']],
    base: [s('onion', 1, ''), s('garlic', 2, 'clove'), s('vegetable stock', 1, 'l'), s('crusty bread', 1, 'loaf', 'g'), OIL, SALT],
    steps: ['Soften the onion and garlic in the oil for 5 minutes.', 'Add the {v} and the stock and bring to a boil.', 'Simmer for {cook} minutes until everything is tender.',
      'Blend until smooth, stir in the {h} and season with salt.', 'Serve hot with the crusty bread.'],
    prep: [10, 15], cook: [20, 40], calories: [180, 340], servings: [4, 6] },
  { key: 'salad', course: 'Side', cuisines: ['Greek', 'Middle Eastern', 'American', 'Italian', 'French'], slots: ['veg', 'cheese'],
    titles: [[null, '{V} and {C} Salad'], [null, 'Warm {V} Salad with {C}'], [['Greek'], 'Greek {V} Salad'], [['Middle Eastern'], '{V} and Herb Tabbouleh']],
    base: [s('mixed salad leaves', 100, 'g'), s('lemon juice', 2, 'tbsp'), s('honey', 1, 'tsp', 'h'), s('walnuts', 50, 'g'), OIL, SALT],
    steps: ['Prepare the {v} and, if you like, roast it for {cook} minutes.', 'Whisk the oil, lemon juice, honey and a pinch of salt into a dressing.',
      'Toss the leaves and {v} with the dressing.', 'Crumble over the {c} and scatter with the walnuts.'],
    prep: [10, 20], cook: [10, 20], calories: [180, 380], servings: [2, 4] },
  { key: 'bake', course: 'Dessert', cuisines: ['British', 'French', 'American', 'Italian'], slots: ['fruit'],
    titles: [[null, '{F} Crumble'], [null, '{F} Tart'], [null, '{F} Cheesecake'], [null, '{F} Muffins'], [null, '{F} Galette'], [['American'], '{F} Cobbler'], [['Italian'], '{F} Crostata']],
    base: [s('plain flour', 200, 'g', 'g'), s('butter', 100, 'g', 'd'), s('caster sugar', 100, 'g'), s('eggs', 2, '', 'e'), s('vanilla extract', 1, 'tsp')],
    steps: ['Heat the oven to 180°C (350°F) and butter a baking dish.', 'Prepare the {f} and toss with half the sugar.',
      'Rub the butter into the flour and remaining sugar, then bring together with the eggs and vanilla.', 'Assemble with the fruit and bake for {cook} minutes until golden.', 'Cool for 15 minutes before serving.'],
    prep: [20, 35], cook: [25, 50], calories: [280, 460], servings: [8, 8, 12] },
  { key: 'chilled', course: 'Dessert', cuisines: ['Italian', 'French', 'British'], slots: ['fruit'],
    titles: [[null, '{F} Panna Cotta'], [null, '{F} Fool'], [null, '{F} Mousse'], [['Italian'], '{F} Semifreddo']],
    base: [s('heavy cream', 300, 'ml', 'd'), s('caster sugar', 80, 'g'), s('gelatin sheets', 3, ''), s('vanilla extract', 1, 'tsp')],
    steps: ['Cook the {f} with half the sugar for {cook} minutes, then cool.', 'Warm the cream with the rest of the sugar and the vanilla; stir in the soaked gelatin.',
      'Fold together with the fruit and pour into glasses.', 'Chill for at least 4 hours before serving.'],
    prep: [20, 30], cook: [5, 15], calories: [260, 420], servings: [4, 6] },
  { key: 'pancakes', course: 'Breakfast', cuisines: ['American', 'British', 'French'], slots: ['fruit'],
    titles: [[null, '{F} Pancakes'], [null, '{F} French Toast'], [null, '{F} Waffles'], [['French'], '{F} Crêpes']],
    base: [s('plain flour', 150, 'g', 'g'), s('milk', 300, 'ml', 'd'), s('eggs', 2, '', 'e'), s('baking powder', 2, 'tsp'), s('maple syrup', 4, 'tbsp'), s('butter', 25, 'g', 'd')],
    steps: ['Whisk the flour, baking powder, milk and eggs into a smooth batter.', 'Heat a little butter in a non-stick pan.', 'Cook ladlefuls of batter for {cook} minutes in total, turning once.',
      'Serve stacked with the {f} and a drizzle of maple syrup.'],
    prep: [10, 15], cook: [10, 20], calories: [320, 480], servings: [2, 4] },
  { key: 'oats', course: 'Breakfast', cuisines: ['American', 'British'], slots: ['fruit'],
    titles: [[null, '{F} Overnight Oats'], [null, '{F} Porridge'], [null, '{F} Granola Parfait'], [null, '{F} Smoothie Bowl']],
    base: [s('rolled oats', 160, 'g'), s('milk', 400, 'ml', 'd'), s('Greek yogurt', 150, 'g', 'd'), s('honey', 2, 'tbsp', 'h'), s('chia seeds', 2, 'tbsp')],
    steps: ['Stir together the oats, milk, yogurt and chia seeds.', 'Leave to soak (overnight, or cook for {cook} minutes for porridge).', 'Top with the {f} and drizzle with honey.'],
    prep: [5, 10], cook: [5, 10], calories: [280, 420], servings: [2, 4] },
  { key: 'eggs', course: 'Breakfast', cuisines: ['Spanish', 'Middle Eastern', 'Italian', 'French'], slots: ['veg', 'cheese'],
    titles: [[null, '{V} and {C} Frittata'], [['Middle Eastern'], 'Shakshuka with {Vs}'], [['French'], '{V} and {C} Omelette'], [['Spanish'], 'Spanish {V} Tortilla']],
    base: [s('eggs', 6, '', 'e'), s('onion', 1, ''), OIL, SALT, PEPPER],
    steps: ['Soften the onion and {v} in the oil for 8 minutes.', 'Beat the eggs with salt and pepper and pour them over the vegetables.',
      'Scatter over the {c} and cook gently for {cook} minutes until just set.', 'Slide onto a board and cut into wedges.'],
    prep: [10, 15], cook: [10, 20], calories: [260, 420], servings: [2, 4] },
  { key: 'side', course: 'Side', cuisines: ['American', 'British', 'French', 'Chinese', 'Indian'], slots: ['veg'],
    titles: [[null, 'Garlic Roasted {Vs}'], [null, 'Honey-Glazed {Vs}'], [['French'], '{V} Gratin'], [['Chinese'], 'Sesame {Vs}'], [['Indian'], 'Cumin-Spiced {Vs}']],
    base: [s('garlic', 2, 'clove'), s('honey', 1, 'tbsp', 'h'), OIL, SALT, PEPPER],
    steps: ['Heat the oven to 200°C (400°F).', 'Toss the {v} with the oil, garlic, honey, salt and pepper.', 'Roast for {cook} minutes, turning halfway, until caramelised.'],
    prep: [5, 10], cook: [20, 35], calories: [110, 220], servings: [4, 6] },
  { key: 'drink', course: 'Drink', cuisines: ['American', 'Indian', 'Mexican', 'Thai', 'British'], slots: ['fruit', 'herb'],
    titles: [[null, '{F} Smoothie'], [null, '{F} and {H} Lemonade'], [null, 'Iced {F} Tea'], [['Indian'], '{F} Lassi'], [['Mexican'], '{F} Agua Fresca'], [['Thai'], '{F} and {H} Cooler']],
    base: [s('caster sugar', 2, 'tbsp'), s('ice cubes', 12, ''), s('cold water', 500, 'ml', 's')],
    steps: ['Blend the {f} with the sugar and water until smooth.', 'Strain if you like, then stir in the {h}.', 'Serve over the ice.'],
    prep: [5, 10], cook: [0, 0], calories: [90, 220], servings: [2, 4] },
];
