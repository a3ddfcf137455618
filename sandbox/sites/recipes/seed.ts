/** The recipe site's tables and seeded recipes, reviews, collections, meal plan and shopping list. @module */
import type { Faker } from '@faker-js/faker';
import type { SeedInput, SeedResult } from '../../template';
import { slugify } from '../../values';
import { CHEESES, DISHES, FRUITS, HERBS, PROTEINS, VEGETABLES, VEG_PROTEINS, type DishType, type Item, type Slot, type SlotKind } from './dishes';
import { scaleQuantity } from './queries';
import { THEMES, type RecipeTheme } from './themes';

/**
 * The recipe site's tables. Recipes carry a `title`; ingredients, shopping items, cuisines and collections a `name`;
 * steps, reviews, saved recipes and meal-plan entries a `title` (the recipe's or the review's), so change lines name
 * their item.
 */
export const RECIPES_SCHEMA = `
CREATE TABLE cuisines (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, slug TEXT NOT NULL UNIQUE);
CREATE TABLE recipes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, cuisine_id INTEGER NOT NULL REFERENCES cuisines(id), course TEXT NOT NULL,
  difficulty TEXT NOT NULL, prep_minutes INTEGER NOT NULL, cook_minutes INTEGER NOT NULL, servings INTEGER NOT NULL,
  vegetarian INTEGER NOT NULL, vegan INTEGER NOT NULL, gluten_free INTEGER NOT NULL, dairy_free INTEGER NOT NULL,
  calories INTEGER NOT NULL, protein INTEGER NOT NULL, carbs INTEGER NOT NULL, fat INTEGER NOT NULL,
  description TEXT NOT NULL, author TEXT NOT NULL, mine INTEGER NOT NULL DEFAULT 0, created TEXT NOT NULL);
CREATE TABLE ingredients (id INTEGER PRIMARY KEY, recipe_id INTEGER NOT NULL REFERENCES recipes(id), recipe TEXT NOT NULL,
  position INTEGER NOT NULL, quantity REAL, unit TEXT NOT NULL, name TEXT NOT NULL);
CREATE TABLE steps (id INTEGER PRIMARY KEY, recipe_id INTEGER NOT NULL REFERENCES recipes(id), title TEXT NOT NULL, position INTEGER NOT NULL, text TEXT NOT NULL);
CREATE TABLE reviews (id INTEGER PRIMARY KEY, recipe_id INTEGER NOT NULL REFERENCES recipes(id), title TEXT NOT NULL, author TEXT NOT NULL,
  rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5), body TEXT NOT NULL, created TEXT NOT NULL, mine INTEGER NOT NULL DEFAULT 0);
CREATE TABLE collections (id INTEGER PRIMARY KEY, name TEXT NOT NULL COLLATE NOCASE UNIQUE, created TEXT NOT NULL);
CREATE TABLE collection_recipes (id INTEGER PRIMARY KEY, collection_id INTEGER NOT NULL REFERENCES collections(id),
  recipe_id INTEGER NOT NULL REFERENCES recipes(id), title TEXT NOT NULL, added TEXT NOT NULL, UNIQUE (collection_id, recipe_id));
CREATE TABLE meal_plan (id INTEGER PRIMARY KEY, day TEXT NOT NULL, meal TEXT NOT NULL, recipe_id INTEGER NOT NULL REFERENCES recipes(id),
  title TEXT NOT NULL, UNIQUE (day, meal));
CREATE TABLE shopping_items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, quantity REAL, unit TEXT NOT NULL DEFAULT '',
  bought INTEGER NOT NULL DEFAULT 0, source TEXT NOT NULL);
CREATE TABLE profile (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL);
`;

const OPENERS = ['A bright, easy', 'A cozy', 'A crowd-pleasing', 'A no-fuss', 'A weekend-worthy', 'A family-favorite', 'A light and fresh', 'A rich, comforting'];
const CLOSERS = ['that comes together with very little washing up.', 'that tastes even better the next day.', 'that our readers make again and again.',
  'with a few clever shortcuts.', 'that is easy to double for a crowd.', 'that works for a relaxed weekend too.'];
const REVIEW_TITLES: Record<number, readonly string[]> = {
  5: ['Absolutely delicious', 'A new family favorite', 'Made it twice this week', 'Restaurant quality', 'Perfect every time'],
  4: ['Really good', 'Tasty and easy', 'Will make again', 'Great weeknight option', 'Lovely flavors'],
  3: ['Pretty good', 'Nice but needed more seasoning', 'Decent', 'Took longer than stated'],
  2: ['Not for us', 'Bland', 'Too much liquid'],
  1: ['Did not work for me', 'Disappointing'],
};
const REVIEW_BODIES: Record<number, readonly string[]> = {
  5: ['Followed it exactly and it was perfect.', 'Everyone asked for seconds.', 'Clear steps and great results.'],
  4: ['Added a bit more garlic and loved it.', 'Good flavor, I would cut the sugar slightly.', 'Easy to follow and quick.'],
  3: ['Fine, but I would add more spice next time.', 'Okay for a weeknight.', 'The timings were a little off for my oven.'],
  2: ['It came out watery for me.', 'Lacked flavor even after extra salt.'],
  1: ['Something went wrong and it did not set.', 'Far too sweet for our taste.'],
};

/** The days of the meal planner. */
export const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
/** The meals of a day. */
export const MEALS = ['Breakfast', 'Lunch', 'Dinner'] as const;
/** Difficulty levels, easiest first. */
export const DIFFICULTIES = ['Easy', 'Medium', 'Hard'] as const;

function pickSlot(faker: Faker, kind: SlotKind, theme: RecipeTheme): Slot {
  const pools: Record<SlotKind, readonly Slot[]> = {
    protein: theme.vegetarian ? VEG_PROTEINS : [...PROTEINS, ...VEG_PROTEINS], veg: VEGETABLES, fruit: FRUITS, cheese: CHEESES, herb: HERBS,
  };
  return faker.helpers.arrayElement(pools[kind]);
}

interface Made {
  title: string;
  items: Item[];
  steps: string[];
}

function makeDish(faker: Faker, dish: DishType, cuisine: string, theme: RecipeTheme): Made {
  const slots = Object.fromEntries(dish.slots.map((k) => [k, pickSlot(faker, k, theme)])) as Partial<Record<SlotKind, Slot>>;
  const pattern = faker.helpers.arrayElement(dish.titles.filter(([c]) => !c || c.includes(cuisine)))[1];
  const word = (k: SlotKind): string => slots[k]?.word ?? '';
  const title = pattern.replace('{Ps}', slots.protein?.plural ?? word('protein')).replace('{P}', word('protein')).replace('{Vs}', slots.veg?.plural ?? word('veg')).replace('{V}', word('veg'))
    .replace('{F}', word('fruit')).replace('{C}', word('cheese')).replace('{H}', word('herb'));
  const name = (k: SlotKind): string => slots[k]?.item[0] ?? '';
  const steps = dish.steps.map((st) => st.replaceAll('{p}', name('protein')).replaceAll('{v}', name('veg')).replaceAll('{f}', name('fruit'))
    .replaceAll('{c}', name('cheese')).replaceAll('{h}', name('herb')));
  return { title, steps, items: [...dish.slots.map((k) => slots[k]?.item as Item), ...dish.base] };
}

/** Fills a recipe site: theme by variant, about 72 recipes with reviews, the user's collections, meal plan and shopping list. */
export function seedRecipes({ db, faker, variant, today }: SeedInput): SeedResult {
  const theme = THEMES[(variant - 1) % THEMES.length] ?? (THEMES[0] as RecipeTheme);
  const ref = new Date(`${today}T12:00:00Z`).getTime();
  const day = (daysAgo: number): string => new Date(ref - daysAgo * 86400_000).toISOString().slice(0, 10);
  const person = (): string => `${faker.person.firstName()} ${faker.person.lastName()}`;
  const me = person();
  db.prepare('INSERT INTO profile (id, name, email) VALUES (1, ?, ?)').run(me, `${me.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`);
  const cuisineId = new Map<string, number>();
  const addCuisine = db.prepare('INSERT INTO cuisines (name, slug) VALUES (?, ?)');
  for (const c of theme.cuisines) cuisineId.set(c, Number(addCuisine.run(c, slugify(c)).lastInsertRowid));
  const dishes = DISHES.filter((d) => d.cuisines.some((c) => cuisineId.has(c)));
  const chefs = Array.from({ length: 10 }, person);

  const addRecipe = db.prepare(`INSERT INTO recipes (title, cuisine_id, course, difficulty, prep_minutes, cook_minutes, servings, vegetarian, vegan,
    gluten_free, dairy_free, calories, protein, carbs, fat, description, author, mine, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const addIngredient = db.prepare('INSERT INTO ingredients (recipe_id, recipe, position, quantity, unit, name) VALUES (?, ?, ?, ?, ?, ?)');
  const addStep = db.prepare('INSERT INTO steps (recipe_id, title, position, text) VALUES (?, ?, ?, ?)');
  const addReview = db.prepare('INSERT INTO reviews (recipe_id, title, author, rating, body, created, mine) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const titles = new Set<string>();
  const made: Array<{ id: number; title: string; course: string }> = [];
  const plan = [
    ...[...cuisineId.keys()].flatMap((c) => Array.from({ length: 2 }, () => ({ cuisine: c, dish: faker.helpers.arrayElement(dishes.filter((d) => d.cuisines.includes(c))) }))),
  ];
  while (plan.length < 74) {
    const dish = faker.helpers.weightedArrayElement(dishes.map((d) => ({ value: d, weight: theme.weights[d.key] ?? 1 })));
    plan.push({ dish, cuisine: faker.helpers.arrayElement(dish.cuisines.filter((c) => cuisineId.has(c))) });
  }
  for (const [i, { dish, cuisine }] of plan.entries()) {
    let dishMade = makeDish(faker, dish, cuisine, theme);
    for (let tries = 0; tries < 20 && titles.has(dishMade.title); tries++) dishMade = makeDish(faker, dish, cuisine, theme);
    if (titles.has(dishMade.title)) continue;
    titles.add(dishMade.title);
    const pace = theme.pace ?? 1;
    const round5 = (n: number): number => Math.round((n * pace) / 5) * 5;
    const prep = Math.max(5, round5(faker.number.int({ min: dish.prep[0], max: dish.prep[1] })));
    const cook = dish.cook[1] ? Math.max(5, round5(faker.number.int({ min: dish.cook[0], max: dish.cook[1] }))) : 0;
    const total = prep + cook;
    const bump = total >= 45 && faker.number.int({ min: 0, max: 4 }) === 0 ? 1 : 0;
    const level = Math.min(2, (total <= 30 ? 0 : total >= 70 ? 2 : 1) + (['risotto', 'bake'].includes(dish.key) ? 1 : 0) + bump);
    const servings = faker.helpers.arrayElement(dish.servings);
    const flags = dishMade.items.map((it) => it[3]).join('');
    const vegetarian = !/[mf]/.test(flags);
    const meaty = /[mf]/.test(flags);
    const hearty = dish.slots.includes('protein');
    const calories = Math.round(faker.number.int({ min: dish.calories[0], max: dish.calories[1] }) / 5) * 5;
    const protein = faker.number.int(meaty ? { min: 25, max: 45 } : hearty ? { min: 14, max: 26 } : { min: 4, max: 14 });
    const fat = faker.number.int({ min: Math.round(calories / 40), max: Math.round(calories / 22) });
    const carbs = Math.max(5, Math.round((calories - protein * 4 - fat * 9) / 4));
    const mine = i === 5 || i === 17 ? 1 : 0;
    const description = `${faker.helpers.arrayElement(OPENERS)} ${cuisine} ${dish.course.toLowerCase()} ${faker.helpers.arrayElement(CLOSERS)}`;
    const id = Number(addRecipe.run(dishMade.title, cuisineId.get(cuisine), dish.course, ['Easy', 'Medium', 'Hard'][level], prep, cook, servings,
      vegetarian ? 1 : 0, vegetarian && !/[deh]/.test(flags) ? 1 : 0, /g/.test(flags) ? 0 : 1, /d/.test(flags) ? 0 : 1,
      calories, protein, carbs, fat, description, mine ? me : faker.helpers.arrayElement(chefs), mine, day(faker.number.int({ min: 3, max: 420 }))).lastInsertRowid);
    dishMade.items.forEach(([name, qty, unit], k) => addIngredient.run(id, dishMade.title, k + 1, qty === null ? null : scaleQuantity(qty, unit, 4, servings), unit, name));
    dishMade.steps.forEach((text, k) => addStep.run(id, dishMade.title, k + 1, text.replace('{cook}', String(Math.max(5, cook - 5)))));
    const nReviews = mine ? 0 : faker.helpers.weightedArrayElement([{ weight: 1, value: 0 }, { weight: 6, value: faker.number.int({ min: 1, max: 9 }) }]);
    for (let r = 0; r < nReviews; r++) {
      const rating = faker.helpers.weightedArrayElement([{ weight: 6, value: 5 }, { weight: 5, value: 4 }, { weight: 2, value: 3 }, { weight: 1, value: 2 }, { weight: 1, value: 1 }]);
      addReview.run(id, faker.helpers.arrayElement(REVIEW_TITLES[rating] ?? []), person(), rating, faker.helpers.arrayElement(REVIEW_BODIES[rating] ?? []), day(faker.number.int({ min: 1, max: 300 })), 0);
    }
    made.push({ id, title: dishMade.title, course: dish.course });
  }

  const others = made.filter((r) => !(db.prepare('SELECT mine FROM recipes WHERE id = ?').get(r.id) as { mine: number }).mine);
  for (const r of faker.helpers.arrayElements(others, 3)) {
    const rating = faker.helpers.arrayElement([3, 4, 5]);
    addReview.run(r.id, faker.helpers.arrayElement(REVIEW_TITLES[rating] ?? []), me, rating, faker.helpers.arrayElement(REVIEW_BODIES[rating] ?? []), day(faker.number.int({ min: 5, max: 90 })), 1);
  }
  const addCollection = db.prepare('INSERT INTO collections (name, created) VALUES (?, ?)');
  const addSaved = db.prepare('INSERT INTO collection_recipes (collection_id, recipe_id, title, added) VALUES (?, ?, ?, ?)');
  const shuffled = faker.helpers.shuffle([...others]);
  [['Weeknight favorites', 5], ['Special occasions', 3], ['Try soon', 4]].forEach(([name, n], k) => {
    const cid = Number(addCollection.run(name, day(200 - k * 40)).lastInsertRowid);
    for (const r of shuffled.splice(0, n as number)) addSaved.run(cid, r.id, r.title, day(faker.number.int({ min: 1, max: 120 })));
  });
  const addPlan = db.prepare('INSERT INTO meal_plan (day, meal, recipe_id, title) VALUES (?, ?, ?, ?)');
  const slots: Array<[string, string, string[]]> = [['Monday', 'Dinner', ['Main']], ['Tuesday', 'Dinner', ['Main']], ['Wednesday', 'Lunch', ['Starter', 'Side', 'Main']],
    ['Thursday', 'Dinner', ['Main']], ['Saturday', 'Breakfast', ['Breakfast', 'Dessert']]];
  const used = new Set<number>();
  for (const [d, meal, courses] of slots) {
    const pool = made.filter((r) => courses.includes(r.course) && !used.has(r.id));
    const r = faker.helpers.arrayElement(pool.length ? pool : made.filter((x) => !used.has(x.id)));
    used.add(r.id);
    addPlan.run(d, meal, r.id, r.title);
  }
  const addItem = db.prepare("INSERT INTO shopping_items (name, quantity, unit, bought, source) VALUES (?, ?, ?, ?, 'manual')");
  addItem.run('coffee beans', 250, 'g', 0);
  addItem.run('sourdough loaf', 1, '', 1);
  addItem.run('sparkling water', 6, 'bottles', 0);
  return { title: theme.title };
}
