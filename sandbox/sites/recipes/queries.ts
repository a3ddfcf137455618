/** The recipe site's reads and quantity arithmetic, shared by its pages, its seed and its task generators. @module */
import type { Database } from 'better-sqlite3';
import { STAPLES } from './dishes';

/** Recipes per list page. */
export const PAGE_SIZE = 12;

/** A quantity for `to` servings from one for `from`, rounded the way a cook measures (grams to 5, spoons to ¼, counts to ½). */
export function scaleQuantity(qty: number, unit: string, from: number, to: number): number {
  const x = (qty * to) / from;
  if (unit === 'g' || unit === 'ml') return x >= 20 ? Math.round(x / 5) * 5 : Math.max(1, Math.round(x));
  if (unit === 'tsp' || unit === 'tbsp' || unit === 'cup') return Math.max(0.25, Math.round(x * 4) / 4);
  if (unit === 'l' || unit === 'kg') return Math.round(x * 100) / 100;
  return Math.max(0.5, Math.round(x * 2) / 2);
}

/** `400`, `1.5`, `0.25`. */
export function formatQuantity(qty: number): string {
  return String(Math.round(qty * 100) / 100);
}

/** `400 g chicken thighs`, `2 carrots`, `salt (to taste)`. */
export function ingredientText(i: { quantity: number | null; unit: string; name: string }): string {
  if (i.quantity === null) return `${i.name} (to taste)`;
  return `${formatQuantity(i.quantity)}${i.unit ? ` ${i.unit}` : ''} ${i.name}`;
}

/** Diets a recipe can be filtered by: value, label, column. */
export const DIETS = [
  { value: 'vegetarian', text: 'Vegetarian', column: 'vegetarian' },
  { value: 'vegan', text: 'Vegan', column: 'vegan' },
  { value: 'gluten-free', text: 'Gluten-free', column: 'gluten_free' },
  { value: 'dairy-free', text: 'Dairy-free', column: 'dairy_free' },
] as const;

/** Sort orders of recipe lists: value, label, SQL. */
export const SORTS = [
  { value: 'featured', text: 'Featured', sql: 'r.id' },
  { value: 'rating', text: 'Top rated', sql: 'rating IS NULL, rating DESC, reviews DESC, r.id' },
  { value: 'quickest', text: 'Quickest first', sql: 'total_minutes, r.id' },
  { value: 'newest', text: 'Newest', sql: 'r.created DESC, r.id DESC' },
  { value: 'calories', text: 'Fewest calories', sql: 'r.calories, r.id' },
  { value: 'name', text: 'Name A to Z', sql: 'r.title COLLATE NOCASE, r.id' },
] as const;

/** A recipe with its cuisine and review figures. */
export interface RecipeRow {
  id: number;
  title: string;
  cuisine_id: number;
  cuisine: string;
  cuisine_slug: string;
  course: string;
  difficulty: string;
  prep_minutes: number;
  cook_minutes: number;
  total_minutes: number;
  servings: number;
  vegetarian: number;
  vegan: number;
  gluten_free: number;
  dairy_free: number;
  calories: number;
  protein: number;
  carbs: number;
  fat: number;
  description: string;
  author: string;
  mine: number;
  created: string;
  rating: number | null;
  reviews: number;
}

const RECIPE_SELECT = `SELECT r.*, c.name AS cuisine, c.slug AS cuisine_slug, r.prep_minutes + r.cook_minutes AS total_minutes,
  (SELECT ROUND(AVG(v.rating), 1) FROM reviews v WHERE v.recipe_id = r.id) AS rating,
  (SELECT COUNT(*) FROM reviews v WHERE v.recipe_id = r.id) AS reviews
  FROM recipes r JOIN cuisines c ON c.id = r.cuisine_id`;

/** The filters of recipe lists. */
export interface RecipeFilter {
  q?: string;
  cuisine?: string;
  course?: string;
  diet?: string;
  difficulty?: string;
  maxTime?: number;
  sort?: string;
}

/** Recipes matching a filter, sorted; `q` matches titles, descriptions and ingredients. */
export function findRecipes(db: Database, f: RecipeFilter): RecipeRow[] {
  const where: string[] = [];
  const args: Array<string | number> = [];
  if (f.q) {
    const like = `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push("(r.title LIKE ? ESCAPE '\\' OR r.description LIKE ? ESCAPE '\\' OR EXISTS (SELECT 1 FROM ingredients i WHERE i.recipe_id = r.id AND i.name LIKE ? ESCAPE '\\'))");
    args.push(like, like, like);
  }
  if (f.cuisine) {
    where.push('c.slug = ?');
    args.push(f.cuisine);
  }
  if (f.course) {
    where.push('r.course = ?');
    args.push(f.course);
  }
  const diet = DIETS.find((d) => d.value === f.diet);
  if (diet) where.push(`r.${diet.column} = 1`);
  if (f.difficulty) {
    where.push('r.difficulty = ?');
    args.push(f.difficulty);
  }
  if (f.maxTime !== undefined) {
    where.push('r.prep_minutes + r.cook_minutes <= ?');
    args.push(f.maxTime);
  }
  const sort = SORTS.find((s) => s.value === f.sort) ?? SORTS[0];
  return db.prepare(`${RECIPE_SELECT}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${sort.sql}`).all(...args) as RecipeRow[];
}

/** One recipe, or `undefined`. */
export function getRecipe(db: Database, id: number): RecipeRow | undefined {
  return db.prepare(`${RECIPE_SELECT} WHERE r.id = ?`).get(id) as RecipeRow | undefined;
}

/** An ingredient line. */
export interface IngredientRow {
  id: number;
  position: number;
  quantity: number | null;
  unit: string;
  name: string;
}

/** A recipe's ingredients, in order. */
export function ingredientsOf(db: Database, recipeId: number): IngredientRow[] {
  return db.prepare('SELECT id, position, quantity, unit, name FROM ingredients WHERE recipe_id = ? ORDER BY position, id').all(recipeId) as IngredientRow[];
}

/** A recipe's steps, in order. */
export function stepsOf(db: Database, recipeId: number): string[] {
  return (db.prepare('SELECT text FROM steps WHERE recipe_id = ? ORDER BY position, id').all(recipeId) as Array<{ text: string }>).map((r) => r.text);
}

/** A review. */
export interface ReviewRow {
  id: number;
  recipe_id: number;
  title: string;
  author: string;
  rating: number;
  body: string;
  created: string;
  mine: number;
}

/** A recipe's reviews, newest first. */
export function reviewsOf(db: Database, recipeId: number): ReviewRow[] {
  return db.prepare('SELECT * FROM reviews WHERE recipe_id = ? ORDER BY created DESC, id DESC').all(recipeId) as ReviewRow[];
}

/** A cuisine with its recipe count. */
export interface CuisineRow {
  id: number;
  name: string;
  slug: string;
  recipes: number;
}

/** Every cuisine, by name. */
export function cuisines(db: Database): CuisineRow[] {
  return db.prepare('SELECT c.*, (SELECT COUNT(*) FROM recipes r WHERE r.cuisine_id = c.id) AS recipes FROM cuisines c ORDER BY c.name').all() as CuisineRow[];
}

/** A collection with its size. */
export interface CollectionRow {
  id: number;
  name: string;
  created: string;
  recipes: number;
}

/** The user's collections, by name. */
export function collections(db: Database): CollectionRow[] {
  return db.prepare('SELECT k.*, (SELECT COUNT(*) FROM collection_recipes s WHERE s.collection_id = k.id) AS recipes FROM collections k ORDER BY k.name COLLATE NOCASE').all() as CollectionRow[];
}

/** The recipes saved in a collection, newest first. */
export function collectionRecipes(db: Database, collectionId: number): Array<{ recipe_id: number; title: string; added: string }> {
  return db.prepare('SELECT s.recipe_id, r.title, s.added FROM collection_recipes s JOIN recipes r ON r.id = s.recipe_id WHERE s.collection_id = ? ORDER BY s.added DESC, s.id DESC')
    .all(collectionId) as Array<{ recipe_id: number; title: string; added: string }>;
}

/** A meal-plan entry. */
export interface PlanRow {
  id: number;
  day: string;
  meal: string;
  recipe_id: number;
  title: string;
}

/** The meal plan (in no particular order; pages order it by day and meal). */
export function mealPlan(db: Database): PlanRow[] {
  return db.prepare('SELECT p.id, p.day, p.meal, p.recipe_id, r.title FROM meal_plan p JOIN recipes r ON r.id = p.recipe_id ORDER BY p.id').all() as PlanRow[];
}

/** A shopping-list line. */
export interface ShoppingRow {
  id: number;
  name: string;
  quantity: number | null;
  unit: string;
  bought: number;
  source: string;
}

/** The shopping list, in the order items were added. */
export function shoppingList(db: Database): ShoppingRow[] {
  return db.prepare('SELECT * FROM shopping_items ORDER BY id').all() as ShoppingRow[];
}

/** An ingredient total over several recipes. */
export interface NeedRow {
  name: string;
  unit: string;
  quantity: number | null;
}

/** What the chosen meal-plan entries need, summed by ingredient and unit (pantry staples left out on request). */
export function planNeeds(db: Database, planIds: readonly number[], skipStaples: boolean): NeedRow[] {
  const out = new Map<string, NeedRow>();
  const recipeOf = db.prepare('SELECT recipe_id FROM meal_plan WHERE id = ?');
  for (const id of planIds) {
    const entry = recipeOf.get(id) as { recipe_id: number } | undefined;
    for (const i of entry ? ingredientsOf(db, entry.recipe_id) : []) {
      if (skipStaples && (STAPLES as readonly string[]).includes(i.name)) continue;
      const key = `${i.name}\u0000${i.unit}`;
      const had = out.get(key);
      const sum = had?.quantity === null || i.quantity === null ? (had?.quantity ?? i.quantity) : (had?.quantity ?? 0) + i.quantity;
      out.set(key, { name: i.name, unit: i.unit, quantity: sum === null ? null : Math.round(sum * 100) / 100 });
    }
  }
  return [...out.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The user's profile. */
export function profile(db: Database): { name: string; email: string } {
  return db.prepare('SELECT name, email FROM profile WHERE id = 1').get() as { name: string; email: string };
}
