/** Submitting your own recipe: one form with ingredients and steps one per line. @module */
import { html } from '../../html';
import { checkbox, errorSummary, postForm, selectField, submit, textArea, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { COURSES } from './dishes';
import { DIETS, cuisines, profile } from './queries';
import { DIFFICULTIES } from './seed';

const UNITS = new Map([
  ['g', 'g'], ['kg', 'kg'], ['ml', 'ml'], ['l', 'l'], ['tsp', 'tsp'], ['tbsp', 'tbsp'], ['cup', 'cup'], ['cups', 'cup'],
  ['clove', 'clove'], ['cloves', 'clove'], ['can', 'can'], ['cans', 'can'], ['pinch', 'pinch'],
]);

/** An ingredient line as typed (`200 g plain flour`, `2 eggs`, `salt`) → quantity, unit and name, or `undefined`. */
export function parseIngredient(line: string): { quantity: number | null; unit: string; name: string } | undefined {
  const m = /^(\d+(?:[.,]\d+)?|\d+\/\d+)?\s*(\S+)?\s*(.*)$/.exec(line.trim());
  if (!m) return undefined;
  const [, qty, word, rest] = m;
  const quantity = qty === undefined ? null : qty.includes('/') ? Number(qty.split('/')[0]) / Number(qty.split('/')[1]) : Number(qty.replace(',', '.'));
  if (quantity !== null && !(Number.isFinite(quantity) && quantity > 0 && quantity < 100000)) return undefined;
  const unit = word && qty !== undefined ? UNITS.get(word.toLowerCase()) : undefined;
  const name = (unit ? (rest ?? '') : [word, rest].filter(Boolean).join(' ')).trim();
  if (!name || name.length > 80) return undefined;
  return { quantity: quantity === null ? null : Math.round(quantity * 100) / 100, unit: unit ?? '', name };
}

const FIELDS = ['title', 'cuisine', 'course', 'difficulty', 'prep', 'cook', 'servings', 'calories', 'description', 'ingredients', 'steps'] as const;

function lines(text: string): string[] {
  return text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
}

function submitForm(ctx: RequestCtx, v: Record<string, string>, diets: readonly string[], errors: Record<string, string> = {}): Reply {
  const cs = cuisines(ctx.db);
  const minutes = (label: string, name: string, min: number) => textField({ label, name, type: 'number', value: v[name], min, error: errors[name] });
  return ctx.render({
    title: 'Submit a recipe',
    status: Object.keys(errors).length ? 422 : 200,
    body: html`${errorSummary(errors)}<p>Share a recipe with the community. Write one ingredient per line with its amount (for example "200 g plain flour") and one step per line.</p>
${postForm(ctx.href('/recipes'), html`
${textField({ label: 'Recipe title', name: 'title', value: v.title, error: errors.title })}
<div class="row">${selectField({ label: 'Cuisine', name: 'cuisine', value: v.cuisine, error: errors.cuisine, options: [{ value: '', text: 'Choose a cuisine' }, ...cs.map((c) => ({ value: c.slug, text: c.name }))] })}
${selectField({ label: 'Course', name: 'course', value: v.course, error: errors.course, options: [{ value: '', text: 'Choose a course' }, ...COURSES.map((c) => ({ value: c, text: c }))] })}
${selectField({ label: 'Difficulty', name: 'difficulty', value: v.difficulty ?? 'Easy', error: errors.difficulty, options: DIFFICULTIES.map((d) => ({ value: d, text: d })) })}</div>
<div class="row">${minutes('Prep time (minutes)', 'prep', 0)}${minutes('Cook time (minutes)', 'cook', 0)}${minutes('Servings', 'servings', 1)}${minutes('Calories per serving', 'calories', 0)}</div>
<fieldset><legend>Suitable for</legend>${DIETS.map((d) => checkbox({ label: d.text, name: 'diet', value: d.value, checked: diets.includes(d.value) }))}</fieldset>
${textArea({ label: 'Short description', name: 'description', value: v.description, rows: 2, error: errors.description })}
${textArea({ label: 'Ingredients (one per line)', name: 'ingredients', value: v.ingredients, rows: 8, error: errors.ingredients })}
${textArea({ label: 'Steps (one per line)', name: 'steps', value: v.steps, rows: 8, error: errors.steps })}
${submit('Submit recipe')}`, { label: 'Submit a recipe' })}`,
  });
}

function int(raw: string, min: number, max: number): number | undefined {
  return /^\d{1,5}$/.test(raw) && Number(raw) >= min && Number(raw) <= max ? Number(raw) : undefined;
}

function createRecipe(ctx: RequestCtx): Reply {
  const v: Record<string, string> = Object.fromEntries(FIELDS.map((k) => [k, ctx.field(k)]));
  const diets = ctx.fields('diet').filter((d) => DIETS.some((x) => x.value === d));
  const errors: Record<string, string> = {};
  const cuisine = cuisines(ctx.db).find((c) => c.slug === v.cuisine);
  const title = v.title ?? '';
  if (title.length < 3 || title.length > 100) errors.title = 'Give the recipe a title of 3 to 100 characters.';
  else if (ctx.db.prepare('SELECT 1 FROM recipes WHERE lower(title) = lower(?)').get(title)) errors.title = 'A recipe with this title already exists.';
  if (!cuisine) errors.cuisine = 'Choose a cuisine.';
  if (!(COURSES as readonly string[]).includes(v.course ?? '')) errors.course = 'Choose a course.';
  if (!(DIFFICULTIES as readonly string[]).includes(v.difficulty ?? '')) errors.difficulty = 'Choose a difficulty.';
  const prep = int(v.prep ?? '', 0, 1440);
  const cook = int(v.cook ?? '', 0, 1440);
  const servings = int(v.servings ?? '', 1, 48);
  const calories = v.calories ? int(v.calories, 0, 5000) : 0;
  if (prep === undefined) errors.prep = 'Enter the prep time in minutes (0 to 1440).';
  if (cook === undefined) errors.cook = 'Enter the cook time in minutes (0 to 1440).';
  if (servings === undefined) errors.servings = 'Enter how many servings it makes (1 to 48).';
  if (calories === undefined) errors.calories = 'Enter calories per serving as a whole number, or leave it empty.';
  if ((v.description ?? '').length > 500) errors.description = 'The description can be at most 500 characters.';
  const items = lines(v.ingredients ?? '').map(parseIngredient);
  if (!items.length) errors.ingredients = 'List at least one ingredient.';
  else if (items.length > 40 || items.some((i) => !i)) errors.ingredients = 'Write each ingredient on its own line, like "200 g plain flour" (at most 40).';
  const steps = lines(v.steps ?? '');
  if (!steps.length) errors.steps = 'Describe at least one step.';
  else if (steps.length > 30 || steps.some((st) => st.length > 1000)) errors.steps = 'Use at most 30 steps of up to 1000 characters each.';
  if (Object.keys(errors).length || !cuisine) return submitForm(ctx, v, diets, errors);
  const has = (d: string): number => (diets.includes(d) ? 1 : 0);
  const id = Number(ctx.db.prepare(`INSERT INTO recipes (title, cuisine_id, course, difficulty, prep_minutes, cook_minutes, servings, vegetarian, vegan, gluten_free,
    dairy_free, calories, protein, carbs, fat, description, author, mine, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, ?, ?, 1, ?)`)
    .run(title, cuisine.id, v.course, v.difficulty, prep, cook, servings, has('vegetarian') || has('vegan'), has('vegan'), has('gluten-free'), has('dairy-free'),
      calories, v.description ?? '', profile(ctx.db).name, ctx.site.today).lastInsertRowid);
  const addIngredient = ctx.db.prepare('INSERT INTO ingredients (recipe_id, recipe, position, quantity, unit, name) VALUES (?, ?, ?, ?, ?, ?)');
  items.forEach((i, k) => i && addIngredient.run(id, title, k + 1, i.quantity, i.unit, i.name));
  const addStep = ctx.db.prepare('INSERT INTO steps (recipe_id, title, position, text) VALUES (?, ?, ?, ?)');
  steps.forEach((text, k) => addStep.run(id, title, k + 1, text));
  ctx.flash(`Thanks for sharing ${title}!`);
  return ctx.redirect(`/recipes/${id}`);
}

/** Registers the submit form (before the recipe page, so `/recipes/new` is not an id). */
export function submitRoutes(r: Router<Handler>): void {
  r.get('/recipes/new', (ctx) => submitForm(ctx, {}, []));
  r.post('/recipes', createRecipe);
}
