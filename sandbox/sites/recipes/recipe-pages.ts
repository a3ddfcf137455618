/** The recipe page and what users do there: scale servings, save to a collection, plan it, review it. @module */
import { html } from '../../html';
import { errorSummary, idOf, postForm, ratingText, selectField, submit, textArea, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { dietLabels } from './browse-pages';
import { collections, getRecipe, ingredientText, ingredientsOf, profile, reviewsOf, scaleQuantity, stepsOf, type RecipeRow, type ReviewRow } from './queries';
import { DAYS, MEALS } from './seed';

/** Choices of the rating select. */
export const RATING_OPTIONS = [{ value: '', text: 'Choose a rating' }, ...[5, 4, 3, 2, 1].map((n) => ({ value: String(n), text: `${n} star${n === 1 ? '' : 's'}` }))];

/** A review form's values and errors, when shown again after a failed post. */
export interface ReviewForm {
  values: Record<string, string>;
  errors: Record<string, string>;
}

/** Checks a review form; the errors are empty when it is fine. */
export function reviewErrors(v: Record<string, string>): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!/^[1-5]$/.test(v.rating ?? '')) errors.rating = 'Choose a rating from 1 to 5 stars.';
  if (!v.title) errors.title = 'Give your review a title.';
  else if (v.title.length > 120) errors.title = 'The title can be at most 120 characters.';
  if (!v.body) errors.body = 'Tell other cooks how it went.';
  else if (v.body.length > 4000) errors.body = 'The review can be at most 4000 characters.';
  return errors;
}

function myReview(reviews: readonly ReviewRow[]): ReviewRow | undefined {
  return reviews.find((r) => r.mine === 1);
}

/** The recipe page; `review` when the review form is shown again, `servings` to scale the ingredients. */
export function recipePage(ctx: RequestCtx, r: RecipeRow, opts: { review?: ReviewForm; servings?: number } = {}): Reply {
  const servings = opts.servings ?? r.servings;
  const ingredients = ingredientsOf(ctx.db, r.id).map((i) => ({ ...i, quantity: i.quantity === null ? null : servings === r.servings ? i.quantity : scaleQuantity(i.quantity, i.unit, r.servings, servings) }));
  const reviews = reviewsOf(ctx.db, r.id);
  const mine = myReview(reviews);
  const cols = collections(ctx.db);
  const savedIn = (ctx.db.prepare('SELECT k.name FROM collection_recipes s JOIN collections k ON k.id = s.collection_id WHERE s.recipe_id = ? ORDER BY k.name').all(r.id) as Array<{ name: string }>).map((x) => x.name);
  const rv = opts.review ?? { values: {}, errors: {} };
  const reviewForm = r.mine
    ? html`<p class="muted">You submitted this recipe.</p>${postForm(ctx.href(`/recipes/${r.id}/delete`), submit('Delete this recipe', { variant: 'danger' }))}`
    : mine
      ? html`<p><a href="${ctx.href(`/reviews/${mine.id}/edit`)}">Edit your review</a></p>${postForm(ctx.href(`/reviews/${mine.id}/delete`), submit('Delete your review', { variant: 'danger' }))}`
      : html`<h2>Write a review</h2>${errorSummary(rv.errors)}${postForm(ctx.href(`/recipes/${r.id}/reviews`), html`
${selectField({ label: 'Rating', name: 'rating', value: rv.values.rating, options: RATING_OPTIONS, error: rv.errors.rating })}
${textField({ label: 'Review title', name: 'title', value: rv.values.title, error: rv.errors.title })}
${textArea({ label: 'Your review', name: 'body', value: rv.values.body, error: rv.errors.body, rows: 4 })}${submit('Post review')}`, { label: 'Write a review' })}`;
  return ctx.render({
    title: r.title,
    status: opts.review ? 422 : 200,
    body: html`<p><a href="${ctx.href('/recipes', { cuisine: r.cuisine_slug })}">${r.cuisine}</a> · ${r.course} · ${r.difficulty} · by ${r.author} · added ${r.created}</p>
<p>${r.description}</p>
<p><strong>Prep:</strong> ${r.prep_minutes} min · <strong>Cook:</strong> ${r.cook_minutes} min · <strong>Total:</strong> ${r.total_minutes} min · <strong>Serves:</strong> ${r.servings} · ${ratingText(r)}</p>
${dietLabels(r).length ? html`<p>${dietLabels(r).map((d) => html`<span class="badge">${d}</span> `)}</p>` : ''}
<h2>Ingredients (for ${servings} servings)</h2>
<form method="get" action="${ctx.href(`/recipes/${r.id}`)}" class="row" aria-label="Scale recipe">${textField({ label: 'Servings', name: 'servings', type: 'number', value: servings, min: 1, max: 48 })}${submit('Scale recipe', { variant: 'secondary' })}</form>
<ul>${ingredients.map((i) => html`<li>${ingredientText(i)}</li>`)}</ul>
<h2>Method</h2><ol>${stepsOf(ctx.db, r.id).map((st) => html`<li>${st}</li>`)}</ol>
<h2>Nutrition per serving</h2>${r.calories ? html`<table><tbody><tr><th>Calories</th><td>${r.calories} kcal</td></tr><tr><th>Protein</th><td>${r.protein} g</td></tr>
<tr><th>Carbohydrates</th><td>${r.carbs} g</td></tr><tr><th>Fat</th><td>${r.fat} g</td></tr></tbody></table>` : html`<p class="muted">Not provided.</p>`}
<h2>Save and plan</h2>${savedIn.length ? html`<p>Saved in: ${savedIn.join(', ')}</p>` : ''}
${cols.length ? postForm(ctx.href(`/recipes/${r.id}/save`), html`<div class="row">${selectField({ label: 'Collection', name: 'collection_id', options: cols.map((c) => ({ value: String(c.id), text: c.name })) })}${submit('Save to collection', { variant: 'secondary' })}</div>`, { label: 'Save to collection' }) : ''}
<p><a href="${ctx.href('/collections')}">Manage collections</a></p>
${postForm(ctx.href(`/recipes/${r.id}/plan`), html`<div class="row">${selectField({ label: 'Day', name: 'day', options: DAYS.map((d) => ({ value: d, text: d })) })}
${selectField({ label: 'Meal', name: 'meal', value: 'Dinner', options: MEALS.map((m) => ({ value: m, text: m })) })}${submit('Add to meal plan', { variant: 'secondary' })}</div>`, { label: 'Add to meal plan' })}
<h2 id="reviews">Reviews (${reviews.length})</h2>
${reviews.map((v) => html`<div class="card"><strong>${v.title}</strong> · ${v.rating} of 5 stars<div class="muted">${v.author}${v.mine ? ' (you)' : ''}, ${v.created}</div><p>${v.body}</p></div>`)}
${reviewForm}`,
  });
}

function recipeOf(ctx: RequestCtx): RecipeRow | undefined {
  const id = idOf(ctx.params.id);
  return id === undefined ? undefined : getRecipe(ctx.db, id);
}

function viewRecipe(ctx: RequestCtx): Reply {
  const r = recipeOf(ctx);
  if (!r) return ctx.notFound('That recipe does not exist.');
  const raw = ctx.q('servings');
  if (raw === '') return recipePage(ctx, r);
  const servings = /^\d{1,2}$/.test(raw) ? Number(raw) : NaN;
  if (!(servings >= 1 && servings <= 48)) return ctx.badRequest('Servings must be a whole number from 1 to 48.');
  return recipePage(ctx, r, { servings });
}

function postReview(ctx: RequestCtx): Reply {
  const r = recipeOf(ctx);
  if (!r) return ctx.notFound('That recipe does not exist.');
  const values = { rating: ctx.field('rating'), title: ctx.field('title'), body: ctx.field('body') };
  const errors = reviewErrors(values);
  if (r.mine) errors.rating = 'You cannot review your own recipe.';
  else if (myReview(reviewsOf(ctx.db, r.id))) errors.rating = 'You have already reviewed this recipe; edit your review instead.';
  if (Object.keys(errors).length) return recipePage(ctx, r, { review: { values, errors } });
  ctx.db.prepare('INSERT INTO reviews (recipe_id, title, author, rating, body, created, mine) VALUES (?, ?, ?, ?, ?, ?, 1)')
    .run(r.id, values.title, profile(ctx.db).name, Number(values.rating), values.body, ctx.site.today);
  ctx.flash('Thanks! Your review was posted.');
  return ctx.redirect(`/recipes/${r.id}`);
}

function saveToCollection(ctx: RequestCtx): Reply {
  const r = recipeOf(ctx);
  if (!r) return ctx.notFound('That recipe does not exist.');
  const cid = idOf(ctx.field('collection_id'));
  const col = cid === undefined ? undefined : (ctx.db.prepare('SELECT id, name FROM collections WHERE id = ?').get(cid) as { id: number; name: string } | undefined);
  if (!col) return ctx.notFound('That collection does not exist.');
  const added = ctx.db.prepare('INSERT OR IGNORE INTO collection_recipes (collection_id, recipe_id, title, added) VALUES (?, ?, ?, ?)').run(col.id, r.id, r.title, ctx.site.today).changes;
  ctx.flash(added ? `Saved ${r.title} to ${col.name}.` : `${r.title} is already in ${col.name}.`);
  return ctx.redirect(`/recipes/${r.id}`);
}

function addToPlan(ctx: RequestCtx): Reply {
  const r = recipeOf(ctx);
  if (!r) return ctx.notFound('That recipe does not exist.');
  const day = ctx.field('day');
  const meal = ctx.field('meal');
  if (!(DAYS as readonly string[]).includes(day) || !(MEALS as readonly string[]).includes(meal)) return ctx.badRequest('Choose a day of the week and a meal.');
  const had = ctx.db.prepare('SELECT title FROM meal_plan WHERE day = ? AND meal = ?').get(day, meal) as { title: string } | undefined;
  if (had) ctx.db.prepare('UPDATE meal_plan SET recipe_id = ?, title = ? WHERE day = ? AND meal = ?').run(r.id, r.title, day, meal);
  else ctx.db.prepare('INSERT INTO meal_plan (day, meal, recipe_id, title) VALUES (?, ?, ?, ?)').run(day, meal, r.id, r.title);
  ctx.flash(had ? `${r.title} replaces ${had.title} for ${day} ${meal.toLowerCase()}.` : `Added ${r.title} to ${day} ${meal.toLowerCase()}.`);
  return ctx.redirect('/planner');
}

function deleteRecipe(ctx: RequestCtx): Reply {
  const r = recipeOf(ctx);
  if (!r) return ctx.notFound('That recipe does not exist.');
  if (!r.mine) return ctx.render({ title: 'Not allowed', status: 403, body: html`<p>You can only delete recipes you submitted.</p>` });
  for (const table of ['reviews', 'collection_recipes', 'meal_plan', 'ingredients', 'steps']) ctx.db.prepare(`DELETE FROM ${table} WHERE recipe_id = ?`).run(r.id);
  ctx.db.prepare('DELETE FROM recipes WHERE id = ?').run(r.id);
  ctx.flash(`Your recipe ${r.title} was deleted.`);
  return ctx.redirect('/recipes');
}

function ownReview(ctx: RequestCtx): ReviewRow | Reply {
  const id = idOf(ctx.params.id);
  const v = id === undefined ? undefined : (ctx.db.prepare('SELECT * FROM reviews WHERE id = ?').get(id) as ReviewRow | undefined);
  if (!v) return ctx.notFound('That review does not exist.');
  if (!v.mine) return ctx.render({ title: 'Not allowed', status: 403, body: html`<p>You can only change your own reviews.</p>` });
  return v;
}

function editReviewPage(ctx: RequestCtx, v: ReviewRow, form: ReviewForm): Reply {
  const title = (getRecipe(ctx.db, v.recipe_id) as RecipeRow).title;
  return ctx.render({
    title: `Edit your review of ${title}`,
    status: Object.keys(form.errors).length ? 422 : 200,
    body: html`${errorSummary(form.errors)}${postForm(ctx.href(`/reviews/${v.id}`), html`
${selectField({ label: 'Rating', name: 'rating', value: form.values.rating, options: RATING_OPTIONS, error: form.errors.rating })}
${textField({ label: 'Review title', name: 'title', value: form.values.title, error: form.errors.title })}
${textArea({ label: 'Your review', name: 'body', value: form.values.body, error: form.errors.body, rows: 4 })}
${submit('Save review')} <a href="${ctx.href(`/recipes/${v.recipe_id}`)}">Cancel</a>`, { label: 'Edit review' })}`,
  });
}

/** Registers the recipe page, its forms and review editing. */
export function recipeRoutes(r: Router<Handler>): void {
  r.get('/recipes/:id', viewRecipe);
  r.post('/recipes/:id/reviews', postReview);
  r.post('/recipes/:id/save', saveToCollection);
  r.post('/recipes/:id/plan', addToPlan);
  r.post('/recipes/:id/delete', deleteRecipe);
  r.get('/reviews/:id/edit', (ctx) => {
    const v = ownReview(ctx);
    return 'recipe_id' in v ? editReviewPage(ctx, v, { values: { rating: String(v.rating), title: v.title, body: v.body }, errors: {} }) : v;
  });
  r.post('/reviews/:id', (ctx) => {
    const v = ownReview(ctx);
    if (!('recipe_id' in v)) return v;
    const values = { rating: ctx.field('rating'), title: ctx.field('title'), body: ctx.field('body') };
    const errors = reviewErrors(values);
    if (Object.keys(errors).length) return editReviewPage(ctx, v, { values, errors });
    ctx.db.prepare('UPDATE reviews SET rating = ?, title = ?, body = ? WHERE id = ?').run(Number(values.rating), values.title, values.body, v.id);
    ctx.flash('Your review was updated.');
    return ctx.redirect(`/recipes/${v.recipe_id}`);
  });
  r.post('/reviews/:id/delete', (ctx) => {
    const v = ownReview(ctx);
    if (!('recipe_id' in v)) return v;
    ctx.db.prepare('DELETE FROM reviews WHERE id = ?').run(v.id);
    ctx.flash('Your review was deleted.');
    return ctx.redirect(`/recipes/${v.recipe_id}`);
  });
}
