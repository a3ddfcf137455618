/** The recipe site's browsing pages: home, the recipe list with search, filters, sort and pages, cuisines, and the JSON API. @module */
import { html, type SafeHtml } from '../../html';
import { errorSummary, idOf, pageNumber, pager, paginate, ratingText, selectField, submit, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { COURSES } from './dishes';
import { DIETS, PAGE_SIZE, SORTS, cuisines, findRecipes, getRecipe, ingredientsOf, stepsOf, type RecipeRow } from './queries';
import { DIFFICULTIES } from './seed';
import { THEMES } from './themes';

/** The diets a recipe suits, as labels. */
export function dietLabels(r: RecipeRow): string[] {
  return DIETS.filter((d) => r[d.column] === 1).map((d) => d.text);
}

function card(ctx: RequestCtx, r: RecipeRow): SafeHtml {
  return html`<div class="card"><a href="${ctx.href(`/recipes/${r.id}`)}">${r.title}</a>
<div class="muted">${r.cuisine} · ${r.course}</div><div>${r.total_minutes} min · ${r.difficulty}</div><div class="muted">${ratingText(r)}</div></div>`;
}

function home(ctx: RequestCtx): Reply {
  const theme = THEMES[(ctx.site.variant - 1) % THEMES.length];
  const top = findRecipes(ctx.db, { sort: 'rating' }).slice(0, 6);
  const quick = findRecipes(ctx.db, { sort: 'newest', maxTime: 30 }).slice(0, 4);
  return ctx.render({
    title: `Welcome to ${ctx.site.title}`,
    body: html`<p>${theme?.tagline ?? ''}</p>
<h2>Browse by cuisine</h2><div class="grid">${cuisines(ctx.db).map((c) => html`<div class="card"><a href="${ctx.href('/recipes', { cuisine: c.slug })}">${c.name}</a><div class="muted">${c.recipes} recipes</div></div>`)}</div>
<h2>Browse by course</h2><p>${COURSES.map((c) => html`<a class="badge" href="${ctx.href('/recipes', { course: c })}">${c}</a> `)}</p>
<h2>Top rated</h2><div class="grid">${top.map((r) => card(ctx, r))}</div>
<h2>Ready in 30 minutes</h2><div class="grid">${quick.map((r) => card(ctx, r))}</div>`,
  });
}

function listPage(ctx: RequestCtx): Reply {
  const all = cuisines(ctx.db);
  const q = ctx.q('q');
  const cuisine = ctx.q('cuisine');
  const course = ctx.q('course');
  const diet = ctx.q('diet');
  const difficulty = ctx.q('difficulty');
  const sort = ctx.q('sort') || 'featured';
  const maxRaw = ctx.q('max_time');
  const page = pageNumber(ctx.q('page'));
  if (page === undefined) return ctx.badRequest('The page number must be a positive whole number.');
  const cat = all.find((c) => c.slug === cuisine);
  if (cuisine && !cat) return ctx.notFound(`There is no cuisine "${cuisine}".`);
  if (course && !(COURSES as readonly string[]).includes(course)) return ctx.badRequest(`"${course}" is not a course.`);
  if (diet && !DIETS.some((d) => d.value === diet)) return ctx.badRequest(`"${diet}" is not a diet we filter by.`);
  if (difficulty && !(DIFFICULTIES as readonly string[]).includes(difficulty)) return ctx.badRequest(`"${difficulty}" is not a difficulty level.`);
  if (!SORTS.some((s) => s.value === sort)) return ctx.badRequest(`"${sort}" is not a sort order.`);
  const errors: Record<string, string> = {};
  const maxTime = maxRaw === '' ? undefined : Number(maxRaw);
  if (maxTime !== undefined && !(Number.isInteger(maxTime) && maxTime > 0 && maxTime <= 1440)) errors.max_time = 'Max time must be a whole number of minutes, like 30.';
  const list = findRecipes(ctx.db, { q, cuisine, course, diet, difficulty, maxTime: errors.max_time ? undefined : maxTime, sort });
  const paged = paginate(list, page, PAGE_SIZE);
  if (!paged) return ctx.notFound(`There is no page ${page} of these results.`);
  const { items: shown, pages, first: from } = paged;
  const query = { q, cuisine, course, diet, difficulty, max_time: maxRaw, sort: sort === 'featured' ? '' : sort };
  const title = q ? `Recipes matching "${q}"` : cat ? `${cat.name} recipes` : course ? `${course} recipes` : 'All recipes';
  return ctx.render({
    title,
    status: Object.keys(errors).length ? 400 : 200,
    body: html`${errorSummary(errors)}<form method="get" action="${ctx.href('/recipes')}" class="row" aria-label="Filter recipes">${q ? html`<input type="hidden" name="q" value="${q}">` : ''}
${selectField({ label: 'Cuisine', name: 'cuisine', value: cuisine, options: [{ value: '', text: 'All cuisines' }, ...all.map((c) => ({ value: c.slug, text: c.name }))] })}
${selectField({ label: 'Course', name: 'course', value: course, options: [{ value: '', text: 'All courses' }, ...COURSES.map((c) => ({ value: c, text: c }))] })}
${selectField({ label: 'Diet', name: 'diet', value: diet, options: [{ value: '', text: 'Any diet' }, ...DIETS] })}
${selectField({ label: 'Difficulty', name: 'difficulty', value: difficulty, options: [{ value: '', text: 'Any difficulty' }, ...DIFFICULTIES.map((d) => ({ value: d, text: d }))] })}
${textField({ label: 'Max total time (minutes)', name: 'max_time', type: 'number', value: maxRaw, min: 1, error: errors.max_time })}
${selectField({ label: 'Sort by', name: 'sort', value: sort, options: SORTS })}
${submit('Apply filters')} <a href="${ctx.href('/recipes')}">Clear filters</a></form>
<p>${list.length ? `Showing ${from}–${from + shown.length - 1} of ${list.length} recipes` : 'No recipes match your search.'}</p>
<div class="grid">${shown.map((r) => card(ctx, r))}</div>
${pager({ page, pages, href: (n) => ctx.href('/recipes', { ...query, page: n === 1 ? '' : n }) })}`,
  });
}

function cuisinesPage(ctx: RequestCtx): Reply {
  return ctx.render({
    title: 'Cuisines',
    body: html`<table><thead><tr><th>Cuisine</th><th>Recipes</th></tr></thead><tbody>${cuisines(ctx.db).map(
      (c) => html`<tr><td><a href="${ctx.href('/recipes', { cuisine: c.slug })}">${c.name}</a></td><td>${c.recipes}</td></tr>`,
    )}</tbody></table>`,
  });
}

function apiRecipe(ctx: RequestCtx, r: RecipeRow): Record<string, unknown> {
  return { ...r, url: ctx.href(`/recipes/${r.id}`) };
}

/** Registers home, the recipe list, cuisines and the JSON API. */
export function browseRoutes(r: Router<Handler>): void {
  r.get('/', home);
  r.get('/recipes', listPage);
  r.get('/cuisines', cuisinesPage);
  r.get('/api/cuisines', (ctx) => ctx.json(cuisines(ctx.db)));
  r.get('/api/recipes', (ctx) => {
    const sort = ctx.q('sort') || 'featured';
    if (!SORTS.some((s) => s.value === sort)) return ctx.json({ error: `no sort order ${sort}` }, 400);
    const max = ctx.q('max_time') === '' ? undefined : Number(ctx.q('max_time'));
    const list = findRecipes(ctx.db, { q: ctx.q('q'), cuisine: ctx.q('cuisine'), course: ctx.q('course'), diet: ctx.q('diet'), difficulty: ctx.q('difficulty'), maxTime: Number.isFinite(max) ? max : undefined, sort });
    return ctx.json({ total: list.length, recipes: list.map((x) => apiRecipe(ctx, x)) });
  });
  r.get('/api/recipes/:id', (ctx) => {
    const id = idOf(ctx.params.id);
    const recipe = id === undefined ? undefined : getRecipe(ctx.db, id);
    return recipe ? ctx.json({ ...apiRecipe(ctx, recipe), ingredients: ingredientsOf(ctx.db, recipe.id), steps: stepsOf(ctx.db, recipe.id) }) : ctx.json({ error: 'no such recipe' }, 404);
  });
}
