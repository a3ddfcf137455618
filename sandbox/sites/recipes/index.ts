/** The recipe site template: browse and search with filters, sort and pages; recipe details, collections, reviews, a meal planner and a shopping list built from it, and recipe submission. @module */
import type { SiteTemplate } from '../../template';
import { browseRoutes } from './browse-pages';
import { collectionRoutes } from './collection-pages';
import { planRoutes } from './plan-pages';
import { recipeRoutes } from './recipe-pages';
import { RECIPES_SCHEMA, seedRecipes } from './seed';
import { submitRoutes } from './submit-pages';
import { recipeTasks } from './tasks';

/** A recipe site (one kitchen theme per variant). */
export const recipes: SiteTemplate = {
  id: 'recipes',
  kind: 'recipe site',
  schema: RECIPES_SCHEMA,
  seed: seedRecipes,
  nav: [
    { label: 'Recipes', path: '/recipes' },
    { label: 'Cuisines', path: '/cuisines' },
    { label: 'Collections', path: '/collections' },
    { label: 'Meal planner', path: '/planner' },
    { label: 'Shopping list', path: '/shopping-list' },
    { label: 'Submit a recipe', path: '/recipes/new' },
  ],
  search: { action: '/recipes', param: 'q', label: 'Search recipes' },
  routes(router) {
    browseRoutes(router);
    submitRoutes(router);
    recipeRoutes(router);
    collectionRoutes(router);
    planRoutes(router);
  },
  tasks: recipeTasks,
  consequences: [
    // A submitted recipe brings its ingredients and steps; a deleted one takes them, and its places in collections.
    { when: { table: 'recipes', op: 'create' }, allow: [{ table: 'ingredients', op: 'create', pin: { recipe_id: 'id' } }, { table: 'steps', op: 'create', pin: { recipe_id: 'id' } }] },
    { when: { table: 'recipes', op: 'delete' }, allow: ['ingredients', 'steps', 'collection_recipes'].map((table) => ({ table, op: 'delete' as const })) },
    // A deleted collection empties itself; a planned meal names its recipe.
    { when: { table: 'collections', op: 'delete' }, allow: [{ table: 'collection_recipes', op: 'delete' }] },
    { when: { table: 'meal_plan', op: 'update' }, allow: [{ table: 'meal_plan', op: 'update', fields: ['title'] }] },
  ],
};
