/** The recipe site's data variants: one site per variant (name, cuisines, the dishes it favors, tagline). @module */

/** A recipe site's theme. */
export interface RecipeTheme {
  readonly title: string;
  readonly tagline: string;
  /** The cuisines its recipes come from. */
  readonly cuisines: readonly string[];
  /** Dish type keys and how often each is picked (missing keys: 1). */
  readonly weights: Readonly<Record<string, number>>;
  /** Only vegetarian proteins. */
  readonly vegetarian?: boolean;
  /** Times are multiplied by this (quick-cooking sites). */
  readonly pace?: number;
}

/** Eight themes: variant `n` uses theme `n - 1`. */
export const THEMES: readonly RecipeTheme[] = [
  { title: 'Weeknight Kitchen', tagline: 'Dinner sorted, every night of the week.', cuisines: ['Italian', 'Indian', 'Thai', 'Chinese', 'Mexican', 'American', 'British', 'Greek'], weights: { curry: 2, stirfry: 2, pasta: 2, tacos: 2, traybake: 2 } },
  { title: 'The Green Plate', tagline: 'Vegetarian cooking that everyone loves.', cuisines: ['Italian', 'Indian', 'Thai', 'Mexican', 'Middle Eastern', 'Greek', 'Japanese', 'British'], weights: { salad: 2, soup: 2, curry: 2 }, vegetarian: true },
  { title: 'Spice Route Kitchen', tagline: 'Big flavors from across Asia.', cuisines: ['Indian', 'Thai', 'Chinese', 'Japanese', 'Korean', 'Middle Eastern'], weights: { curry: 3, stirfry: 3, soup: 2 } },
  { title: "Nonna's Table", tagline: 'Mediterranean home cooking, the slow way.', cuisines: ['Italian', 'Greek', 'Spanish', 'French', 'Middle Eastern'], weights: { pasta: 3, risotto: 2, traybake: 2, eggs: 2 } },
  { title: 'Sweet Crumb', tagline: 'Bakes, breakfasts and treats.', cuisines: ['British', 'French', 'American', 'Italian'], weights: { bake: 4, chilled: 3, pancakes: 3, oats: 2, drink: 2 } },
  { title: 'Fresh & Fast', tagline: 'Good food in 30 minutes or less (mostly).', cuisines: ['Italian', 'Thai', 'Chinese', 'Mexican', 'American', 'Japanese', 'Korean', 'Greek'], weights: { stirfry: 3, salad: 2, tacos: 2, eggs: 2 }, pace: 0.6 },
  { title: 'Harvest Table', tagline: 'Seasonal comfort food from the farm.', cuisines: ['American', 'British', 'French', 'Italian', 'Spanish'], weights: { traybake: 3, soup: 3, bake: 2, side: 2 } },
  { title: 'Global Pantry', tagline: 'A world of recipes from one pantry.', cuisines: ['Italian', 'Indian', 'Thai', 'Chinese', 'Japanese', 'Korean', 'Mexican', 'French', 'Greek', 'Spanish', 'Middle Eastern'], weights: {} },
];
