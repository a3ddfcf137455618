/** The meal planner and the shopping list, with its three-step build from planned meals. @module */
import { html } from '../../html';
import { checkbox, clip, errorSummary, idOf, postForm, submit, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { ingredientText, mealPlan, planNeeds, shoppingList, type PlanRow, type ShoppingRow } from './queries';
import { DAYS, MEALS } from './seed';

/** Plan entries in week order (Monday breakfast first). */
export function weekOrder(plan: readonly PlanRow[]): PlanRow[] {
  const rank = (p: PlanRow): number => (DAYS as readonly string[]).indexOf(p.day) * 10 + (MEALS as readonly string[]).indexOf(p.meal);
  return [...plan].sort((a, b) => rank(a) - rank(b));
}

/** The label of a plan entry's checkbox in the shopping-list builder. */
export function planLabel(p: Pick<PlanRow, 'day' | 'meal' | 'title'>): string {
  return clip(`${p.day} ${p.meal.toLowerCase()}: ${p.title}`);
}

function plannerPage(ctx: RequestCtx): Reply {
  const plan = mealPlan(ctx.db);
  const cell = (day: string, meal: string) => {
    const p = plan.find((x) => x.day === day && x.meal === meal);
    return p ? html`<a href="${ctx.href(`/recipes/${p.recipe_id}`)}">${p.title}</a>
${postForm(ctx.href('/planner/remove'), html`<input type="hidden" name="id" value="${p.id}">${submit('Remove', { label: `Remove ${day} ${meal.toLowerCase()}`, variant: 'secondary' })}`, { inline: true })}` : html`<span class="muted">—</span>`;
  };
  return ctx.render({
    title: 'Meal planner',
    body: html`<p>Plan the week: open a recipe and use "Add to meal plan". ${plan.length} meal${plan.length === 1 ? '' : 's'} planned.</p>
<table><thead><tr><th>Day</th>${MEALS.map((m) => html`<th>${m}</th>`)}</tr></thead><tbody>${DAYS.map((d) => html`<tr><th>${d}</th>${MEALS.map((m) => html`<td>${cell(d, m)}</td>`)}</tr>`)}</tbody></table>
<div class="row"><a class="button" href="${ctx.href('/shopping-list/build')}">Build a shopping list</a>
${plan.length ? postForm(ctx.href('/planner/clear'), submit('Clear the whole week', { variant: 'danger' }), { inline: true }) : ''}</div>`,
  });
}

function itemLabel(i: ShoppingRow): string {
  return ingredientText(i).replace(' (to taste)', '');
}

function listPage(ctx: RequestCtx, form: { values?: Record<string, string>; errors?: Record<string, string> } = {}): Reply {
  const items = shoppingList(ctx.db);
  const errors = form.errors ?? {};
  const v = form.values ?? {};
  return ctx.render({
    title: 'Shopping list',
    status: Object.keys(errors).length ? 422 : 200,
    body: html`<p><a href="${ctx.href('/shopping-list/build')}">Build from meal plan</a> · ${items.filter((i) => !i.bought).length} to buy</p>
${items.length ? html`<table><thead><tr><th>Item</th><th>From</th><th>Status</th><th></th></tr></thead><tbody>${items.map((i) => html`<tr><td>${i.bought ? html`<s>${itemLabel(i)}</s>` : itemLabel(i)}</td>
<td class="muted">${i.source === 'plan' ? 'Meal plan' : 'Added by you'}</td><td>${i.bought ? 'Bought' : 'To buy'}</td>
<td>${postForm(ctx.href(`/shopping-list/${i.id}/toggle`), submit(i.bought ? 'Not bought' : 'Bought', { label: clip(i.bought ? `Mark ${itemLabel(i)} as not bought` : `Mark ${itemLabel(i)} as bought`), variant: 'secondary' }), { inline: true })}
${postForm(ctx.href(`/shopping-list/${i.id}/delete`), submit('Remove', { label: clip(`Remove ${itemLabel(i)}`), variant: 'secondary' }), { inline: true })}</td></tr>`)}</tbody></table>`
    : html`<p>Your shopping list is empty.</p>`}
${items.some((i) => i.bought) ? postForm(ctx.href('/shopping-list/clear-bought'), submit('Remove bought items', { variant: 'secondary' })) : ''}
<h2>Add an item</h2>${errorSummary(errors)}${postForm(ctx.href('/shopping-list'), html`<div class="row">
${textField({ label: 'Item', name: 'name', value: v.name, error: errors.name })}${textField({ label: 'Quantity', name: 'quantity', type: 'number', value: v.quantity, min: 0, step: 'any', error: errors.quantity })}
${textField({ label: 'Unit', name: 'unit', value: v.unit, placeholder: 'g, ml, bottle...', error: errors.unit })}${submit('Add item')}</div>`, { label: 'Add an item' })}`,
  });
}

function addItem(ctx: RequestCtx): Reply {
  const v = { name: ctx.field('name'), quantity: ctx.field('quantity'), unit: ctx.field('unit') };
  const errors: Record<string, string> = {};
  if (!v.name || v.name.length > 80) errors.name = 'Name the item (at most 80 characters).';
  const qty = v.quantity === '' ? null : Number(v.quantity);
  if (qty !== null && !(Number.isFinite(qty) && qty > 0 && qty < 100000)) errors.quantity = 'Enter a quantity above 0, or leave it empty.';
  if (v.unit.length > 20) errors.unit = 'The unit can be at most 20 characters.';
  if (Object.keys(errors).length) return listPage(ctx, { values: v, errors });
  ctx.db.prepare("INSERT INTO shopping_items (name, quantity, unit, bought, source) VALUES (?, ?, ?, 0, 'manual')").run(v.name, qty, v.unit);
  ctx.flash(`Added ${v.name} to your shopping list.`);
  return ctx.redirect('/shopping-list');
}

function itemAction(run: (ctx: RequestCtx, i: ShoppingRow) => string): Handler {
  return (ctx) => {
    const id = idOf(ctx.params.id);
    const item = id === undefined ? undefined : (ctx.db.prepare('SELECT * FROM shopping_items WHERE id = ?').get(id) as ShoppingRow | undefined);
    if (!item) return ctx.notFound('That item is not on your shopping list.');
    ctx.flash(run(ctx, item));
    return ctx.redirect('/shopping-list');
  };
}

/** The plan entries a request names (`plan=3&plan=5`), or `undefined` when one is malformed or unknown. */
function chosenPlan(ctx: RequestCtx, values: readonly string[]): PlanRow[] | undefined {
  const plan = mealPlan(ctx.db);
  const ids = values.map(idOf);
  if (ids.some((id) => id === undefined || !plan.some((p) => p.id === id))) return undefined;
  return weekOrder(plan.filter((p) => ids.includes(p.id)));
}

function buildPage(ctx: RequestCtx): Reply {
  const plan = weekOrder(mealPlan(ctx.db));
  return ctx.render({
    title: 'Build a shopping list',
    body: plan.length
      ? html`<p>Step 1 of 3: choose the planned meals to shop for.</p>
<form method="get" action="${ctx.href('/shopping-list/review')}" aria-label="Choose meals">
${plan.map((p) => checkbox({ label: planLabel(p), name: 'plan', value: String(p.id), checked: true }))}
${checkbox({ label: 'Leave out pantry staples (salt, pepper, oil, water)', name: 'skip_staples', checked: true })}
${submit('Review ingredients')}</form>`
      : html`<p>Your meal plan is empty. Add recipes to the <a href="${ctx.href('/planner')}">meal planner</a> first.</p>`,
  });
}

function reviewPage(ctx: RequestCtx): Reply {
  const chosen = chosenPlan(ctx, [ctx.query.plan ?? []].flat());
  if (!chosen) return ctx.badRequest('Some of the chosen meals are not in your meal plan.');
  const skip = ctx.q('skip_staples') === '1';
  const needs = planNeeds(ctx.db, chosen.map((p) => p.id), skip);
  return ctx.render({
    title: 'Review ingredients',
    body: !chosen.length
      ? html`<p>No meals chosen. <a href="${ctx.href('/shopping-list/build')}">Choose meals</a></p>`
      : html`<p>Step 2 of 3: untick what you already have, then add the rest to your shopping list.</p>
<p class="muted">For: ${chosen.map((p) => `${p.day} ${p.meal.toLowerCase()} (${p.title})`).join(', ')}</p>
${postForm(ctx.href('/shopping-list/from-plan'), html`${chosen.map((p) => html`<input type="hidden" name="plan" value="${p.id}">`)}
${skip ? html`<input type="hidden" name="skip_staples" value="1">` : ''}
${needs.map((n, k) => checkbox({ label: clip(ingredientText(n)), name: 'need', value: String(k), checked: true }))}
${submit('Add to shopping list')} <a href="${ctx.href('/shopping-list/build')}">Back</a>`, { label: 'Ingredients to buy' })}`,
  });
}

function addFromPlan(ctx: RequestCtx): Reply {
  const chosen = chosenPlan(ctx, ctx.fields('plan'));
  if (!chosen?.length) return ctx.badRequest('Choose at least one planned meal.');
  const needs = planNeeds(ctx.db, chosen.map((p) => p.id), ctx.field('skip_staples') === '1');
  const picked = ctx.fields('need').map(idOf);
  if (picked.some((k) => k === undefined || k >= needs.length)) return ctx.badRequest('The ingredient selection is malformed.');
  let n = 0;
  for (const k of new Set(picked)) {
    const need = needs[k as number];
    if (!need) continue;
    const had = ctx.db.prepare('SELECT id, quantity FROM shopping_items WHERE name = ? AND unit = ? AND bought = 0').get(need.name, need.unit) as { id: number; quantity: number | null } | undefined;
    if (had) ctx.db.prepare('UPDATE shopping_items SET quantity = ? WHERE id = ?').run(had.quantity === null || need.quantity === null ? (had.quantity ?? need.quantity) : Math.round((had.quantity + need.quantity) * 100) / 100, had.id);
    else ctx.db.prepare("INSERT INTO shopping_items (name, quantity, unit, bought, source) VALUES (?, ?, ?, 0, 'plan')").run(need.name, need.quantity, need.unit);
    n++;
  }
  ctx.flash(`Step 3 of 3 done: added ${n} ingredient${n === 1 ? '' : 's'} to your shopping list.`);
  return ctx.redirect('/shopping-list');
}

/** Registers the planner and the shopping list. */
export function planRoutes(r: Router<Handler>): void {
  r.get('/planner', plannerPage);
  r.post('/planner/remove', (ctx) => {
    const id = idOf(ctx.field('id'));
    const p = id === undefined ? undefined : mealPlan(ctx.db).find((x) => x.id === id);
    if (!p) return ctx.notFound('That meal is not in your plan.');
    ctx.db.prepare('DELETE FROM meal_plan WHERE id = ?').run(p.id);
    ctx.flash(`Removed ${p.title} from ${p.day} ${p.meal.toLowerCase()}.`);
    return ctx.redirect('/planner');
  });
  r.post('/planner/clear', (ctx) => {
    const n = ctx.db.prepare('DELETE FROM meal_plan').run().changes;
    ctx.flash(`Cleared ${n} planned meal${n === 1 ? '' : 's'}.`);
    return ctx.redirect('/planner');
  });
  r.get('/shopping-list', (ctx) => listPage(ctx));
  r.post('/shopping-list', addItem);
  r.get('/shopping-list/build', buildPage);
  r.get('/shopping-list/review', reviewPage);
  r.post('/shopping-list/from-plan', addFromPlan);
  r.post('/shopping-list/clear-bought', (ctx) => {
    const n = ctx.db.prepare('DELETE FROM shopping_items WHERE bought = 1').run().changes;
    ctx.flash(`Removed ${n} bought item${n === 1 ? '' : 's'}.`);
    return ctx.redirect('/shopping-list');
  });
  r.post('/shopping-list/:id/toggle', itemAction((ctx, i) => {
    ctx.db.prepare('UPDATE shopping_items SET bought = ? WHERE id = ?').run(i.bought ? 0 : 1, i.id);
    return i.bought ? `${i.name} is back on your list.` : `Marked ${i.name} as bought.`;
  }));
  r.post('/shopping-list/:id/delete', itemAction((ctx, i) => {
    ctx.db.prepare('DELETE FROM shopping_items WHERE id = ?').run(i.id);
    return `Removed ${i.name} from your shopping list.`;
  }));
}
