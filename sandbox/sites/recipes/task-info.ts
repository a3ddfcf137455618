/** The recipe site's info tasks (times, amounts, nutrition, ratings, counts, plan) and the data tasks share. @module */
import type { Database } from 'better-sqlite3';
import type { Faker } from '@faker-js/faker';
import type { OracleStep } from '../../oracle';
import { answer, step } from '../../task-kit';
import type { TaskSpec } from '../../template';
import { COURSES, STAPLES } from './dishes';
import {
  DIETS, collectionRecipes, collections, cuisines, findRecipes, formatQuantity, ingredientsOf, mealPlan, planNeeds, reviewsOf, scaleQuantity,
  shoppingList, stepsOf, type CollectionRow, type CuisineRow, type IngredientRow, type PlanRow, type RecipeRow, type ReviewRow, type ShoppingRow,
} from './queries';

/** The header search box's name. */
export const SEARCH = 'Search recipes';

/** A site's pristine data as the task generators see it. */
export interface RecipeData {
  readonly recipes: RecipeRow[];
  readonly ingredients: Map<number, IngredientRow[]>;
  readonly steps: Map<number, string[]>;
  readonly reviews: Map<number, ReviewRow[]>;
  readonly cuisines: CuisineRow[];
  readonly collections: CollectionRow[];
  readonly saved: Map<number, Array<{ recipe_id: number; title: string }>>;
  readonly plan: PlanRow[];
  readonly shopping: ShoppingRow[];
  readonly db: Database;
  /** A seeded shuffle. */
  mix<T>(list: readonly T[]): T[];
}

/** Reads everything the generators need once. */
export function loadRecipes(db: Database, faker: Faker): RecipeData {
  const recipes = findRecipes(db, {});
  const cols = collections(db);
  return {
    recipes,
    ingredients: new Map(recipes.map((r) => [r.id, ingredientsOf(db, r.id)])),
    steps: new Map(recipes.map((r) => [r.id, stepsOf(db, r.id)])),
    reviews: new Map(recipes.map((r) => [r.id, reviewsOf(db, r.id)])),
    cuisines: cuisines(db),
    collections: cols,
    saved: new Map(cols.map((c) => [c.id, collectionRecipes(db, c.id)])),
    plan: mealPlan(db),
    shopping: shoppingList(db),
    db,
    mix: (list) => faker.helpers.shuffle([...list]),
  };
}

/** Opens a recipe from the home page: search its title, follow the result. */
export function openRecipe(r: Pick<RecipeRow, 'title'>): OracleStep[] {
  return [step.search(SEARCH, r.title), step.link(r.title)];
}

/** A recipe's ingredients with an amount, not pantry staples, each the only line with its name. */
export function measured(d: RecipeData, r: RecipeRow): IngredientRow[] {
  const list = d.ingredients.get(r.id) ?? [];
  return list.filter((i) => i.quantity !== null && !(STAPLES as readonly string[]).includes(i.name) && list.filter((x) => x.name === i.name).length === 1);
}

function amount(i: { quantity: number | null; unit: string; name: string }): string {
  return `${formatQuantity(i.quantity ?? 0)}${i.unit ? ` ${i.unit}` : ''}`;
}

function num(slug: string, instruction: string, value: number, shown: string, oracle: OracleStep[], tolerance = 0): TaskSpec {
  return { slug, kind: 'info', instruction, verifier: { answer: answer.number(value, tolerance) }, oracle: [...oracle, step.done(shown)] };
}

function text(slug: string, instruction: string, value: string, oracle: OracleStep[]): TaskSpec {
  return { slug, kind: 'info', instruction, verifier: { answer: answer.includes(value) }, oracle: [...oracle, step.done(value)] };
}

/** The one item ranked first by `better`, or `undefined` on a tie. */
function best<T>(list: readonly T[], key: (x: T) => number): T | undefined {
  const sorted = [...list].sort((a, b) => key(b) - key(a));
  const [a, b] = sorted;
  return a && (!b || key(b) !== key(a)) ? a : undefined;
}

/** The info task generators, one list per kind of question; the first seven hold the human tasks. */
export function infoTasks(d: RecipeData): TaskSpec[][] {
  const groups: TaskSpec[][] = [];
  groups.push(d.mix(d.recipes).map((r) => num(`total-time-${r.id}`, `How long does the ${r.title} take to make in total? Answer in minutes.`, r.total_minutes, `${r.total_minutes} minutes`, openRecipe(r))));
  groups.push(d.mix(d.recipes).flatMap((r, k) => {
    const list = measured(d, r);
    const i = list[k % Math.max(1, list.length)];
    const ask = i?.unit ? `How much ${i.name} goes into` : `How many ${i?.name} go into`;
    return i ? [num(`amount-${r.id}`, `${ask} the ${r.title}?`, i.quantity ?? 0, amount(i), openRecipe(r))] : [];
  }));
  groups.push(d.mix(d.recipes).flatMap((r, k) => {
    const list = measured(d, r).filter((i) => i.unit === 'g' || i.unit === 'ml' || i.unit === '');
    const i = list[k % Math.max(1, list.length)];
    const people = [2, 6, 8, 10, 12].filter((n) => n !== r.servings)[k % 4] ?? 6;
    if (!i || i.quantity === null) return [];
    const scaled = { ...i, quantity: scaleQuantity(i.quantity, i.unit, r.servings, people) };
    return [num(`scaled-${r.id}`, `How ${i.unit ? 'much' : 'many'} ${i.name} do I need to make the ${r.title} for ${people} people?`, scaled.quantity, amount(scaled),
      [...openRecipe(r), step.type('Servings', String(people), { role: 'spinbutton' }), step.button('Scale recipe')])];
  }));
  groups.push(d.cuisines.flatMap((c) => {
    const top = best(findRecipes(d.db, { cuisine: c.slug }).filter((r) => r.reviews >= 2), (r) => r.rating ?? 0);
    return top ? [text(`top-rated-${c.slug}`, `Which ${c.name} recipe has the best average rating? Give its name.`, top.title,
      [step.link(c.name), step.select('Sort by', 'Top rated'), step.button('Apply filters')])] : [];
  }));
  groups.push(d.mix(COURSES.flatMap((course) => DIETS.map((diet) => ({ course, diet })))).flatMap(({ course, diet }) => {
    const n = findRecipes(d.db, { course, diet: diet.value }).length;
    const plural = { Breakfast: 'breakfast recipes', Starter: 'starters', Main: 'main courses', Side: 'side dishes', Dessert: 'desserts', Drink: 'drinks' }[course];
    return n ? [num(`count-${diet.value}-${course.toLowerCase()}`, `How many ${diet.text.toLowerCase()} ${plural} does the site have?`, n, `${n} recipes`,
      [step.link('Recipes'), step.select('Course', course), step.select('Diet', diet.text), step.button('Apply filters')])] : [];
  }));
  groups.push(d.plan.map((p) => text(`plan-${p.day.toLowerCase()}-${p.meal.toLowerCase()}`, `What is on my meal plan for ${p.day} ${p.meal.toLowerCase()}?`, p.title, [step.link('Meal planner')])));
  const needs = planNeeds(d.db, d.plan.map((p) => p.id), true).filter((n) => n.quantity !== null);
  groups.push(d.mix(needs.filter((n) => needs.filter((x) => x.name === n.name).length === 1)).map((n) => num(`need-${n.name.replace(/[^a-z0-9]+/gi, '-')}`,
    `How ${n.unit ? 'much' : 'many'} ${n.name} do I need to buy for all the meals on my plan?`, n.quantity ?? 0, amount(n),
    [step.link('Shopping list'), step.link('Build from meal plan'), step.button('Review ingredients')])));
  groups.push(d.mix(d.recipes).map((r) => num(`calories-${r.id}`, `How many calories per serving does the ${r.title} have?`, r.calories, `${r.calories} kcal`, openRecipe(r))));
  groups.push(d.mix(d.recipes).map((r) => num(`servings-${r.id}`, `How many servings does the ${r.title} recipe make?`, r.servings, `${r.servings} servings`, openRecipe(r))));
  groups.push(d.mix(d.recipes.filter((r) => r.reviews > 0)).map((r) => num(`rating-${r.id}`, `What is the average rating of the ${r.title}?`, r.rating ?? 0, `${(r.rating ?? 0).toFixed(1)} stars`, openRecipe(r), 0.05)));
  groups.push(d.mix(d.recipes).map((r) => text(`author-${r.id}`, `Who created the ${r.title} recipe?`, r.author, openRecipe(r))));
  groups.push(COURSES.flatMap((course) => {
    const quick = best(findRecipes(d.db, { course }), (r) => -r.total_minutes);
    return quick ? [text(`quickest-${course.toLowerCase()}`, `Which ${course.toLowerCase()} recipe is the quickest to make? Give its name.`, quick.title,
      [step.link(course), step.select('Sort by', 'Quickest first'), step.button('Apply filters')])] : [];
  }));
  groups.push(d.cuisines.map((c) => num(`cuisine-count-${c.slug}`, `How many ${c.name} recipes are on the site?`, c.recipes, `${c.recipes} recipes`, [step.link(c.name)])));
  groups.push(d.collections.map((c) => num(`collection-size-${c.id}`, `How many recipes are saved in my "${c.name}" collection?`, c.recipes, `${c.recipes} recipes`, [step.link('Collections'), step.link(c.name)])));
  groups.push(d.mix(d.recipes).map((r) => num(`protein-${r.id}`, `How many grams of protein per serving does the ${r.title} have?`, r.protein, `${r.protein} g`, openRecipe(r))));
  groups.push(d.mix(d.recipes).map((r) => {
    const n = d.steps.get(r.id)?.length ?? 0;
    return num(`steps-${r.id}`, `How many steps are in the method of the ${r.title}?`, n, `${n} steps`, openRecipe(r));
  }));
  groups.push(d.mix(d.recipes.filter((r) => r.reviews > 0)).map((r) => num(`review-count-${r.id}`, `How many reviews does the ${r.title} have?`, r.reviews, `${r.reviews} reviews`, openRecipe(r))));
  return groups;
}
