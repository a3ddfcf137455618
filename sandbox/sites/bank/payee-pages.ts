/** The bank's payees: list with search and category filter, details with payment history, add, edit, delete. @module */
import { html } from '../../html';
import { errorSummary, idOf, money, postForm, selectField, submit, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { findPayees, findPayments, getPayee, type PayeeRow } from './queries';
import { PAYEE_CATEGORIES } from './themes';

const FIELDS = ['name', 'nickname', 'category', 'account_number', 'address'] as const;

function payeesPage(ctx: RequestCtx): Reply {
  const q = ctx.q('q').slice(0, 100);
  const category = ctx.q('category');
  if (category && !(PAYEE_CATEGORIES as readonly string[]).includes(category)) return ctx.badRequest(`There is no payee category "${category}".`);
  const list = findPayees(ctx.db, { q, category });
  return ctx.render({
    title: 'Payees',
    body: html`<form method="get" action="${ctx.href('/payees')}" class="row" aria-label="Find payees">
${textField({ label: 'Search payees', name: 'q', type: 'search', value: q })}
${selectField({ label: 'Category', name: 'category', value: category, options: [{ value: '', text: 'All categories' }, ...PAYEE_CATEGORIES.map((c) => ({ value: c, text: c }))] })}
${submit('Find payees')}</form>
<p><a class="button" href="${ctx.href('/payees/new')}">Add a payee</a></p>
${list.length ? html`<table><thead><tr><th>Payee</th><th>Nickname</th><th>Category</th><th>Account</th></tr></thead><tbody>${list.map(
  (p) => html`<tr><td><a href="${ctx.href(`/payees/${p.id}`)}">${p.name}</a></td><td>${p.nickname}</td><td>${p.category}</td><td>••${p.account_number.slice(-4)}</td></tr>`,
)}</tbody></table>` : html`<p>No payees match.</p>`}`,
  });
}

function getPayeeParam(ctx: RequestCtx): PayeeRow | undefined {
  const id = idOf(ctx.params.id);
  return id === undefined ? undefined : getPayee(ctx.db, id);
}

function payeePage(ctx: RequestCtx): Reply {
  const p = getPayeeParam(ctx);
  if (!p) return ctx.notFound('That payee does not exist.');
  const history = findPayments(ctx.db, { payee: p.id });
  const facts: Array<[string, string]> = [['Nickname', p.nickname || '—'], ['Category', p.category], ['Account number', p.account_number], ['Billing address', p.address || '—'], ['Added', p.added]];
  return ctx.render({
    title: p.name,
    body: html`<table><tbody>${facts.map(([k, v]) => html`<tr><th>${k}</th><td>${v}</td></tr>`)}</tbody></table>
<div class="row"><a class="button" href="${ctx.href('/pay', { payee: p.id })}">Pay this payee</a> <a href="${ctx.href(`/payees/${p.id}/edit`)}">Edit payee</a>
${postForm(ctx.href(`/payees/${p.id}/delete`), submit('Delete payee', { variant: 'danger' }), { inline: true })}</div>
<h2>Payments to ${p.name}</h2>${history.length ? html`<table><thead><tr><th>Date</th><th>Amount</th><th>From</th><th>Status</th><th>Confirmation</th></tr></thead><tbody>${history.map(
  (x) => html`<tr><td>${x.send_on}</td><td>${money(x.amount)}</td><td>${x.from_name}</td><td>${x.status}</td><td><a href="${ctx.href(`/payments/${x.id}`)}">${x.id}</a></td></tr>`,
)}</tbody></table>` : html`<p>No payments yet.</p>`}`,
  });
}

function payeeForm(ctx: RequestCtx, action: string, title: string, v: Record<string, string>, errors: Record<string, string> = {}): Reply {
  return ctx.render({
    title,
    status: Object.keys(errors).length ? 422 : 200,
    body: html`${errorSummary(errors)}${postForm(ctx.href(action), html`
${textField({ label: 'Payee name', name: 'name', value: v.name, error: errors.name })}
${textField({ label: 'Nickname', name: 'nickname', value: v.nickname, error: errors.nickname })}
${selectField({ label: 'Category', name: 'category', value: v.category, error: errors.category, options: [{ value: '', text: 'Choose a category' }, ...PAYEE_CATEGORIES.map((c) => ({ value: c, text: c }))] })}
${textField({ label: 'Account number', name: 'account_number', value: v.account_number, error: errors.account_number })}
${textField({ label: 'Billing address', name: 'address', value: v.address, error: errors.address })}
${submit('Save payee')}`, { label: 'Payee details' })}`,
  });
}

function payeeValues(ctx: RequestCtx): Record<string, string> {
  return Object.fromEntries(FIELDS.map((k) => [k, ctx.field(k).replace(/\s+/g, ' ')]));
}

function payeeErrors(ctx: RequestCtx, v: Record<string, string>, selfId?: number): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!v.name) errors.name = 'Enter the name of the person or company you pay.';
  else if ((v.name ?? '').length > 60) errors.name = 'The name can be at most 60 characters.';
  else {
    const other = ctx.db.prepare('SELECT id FROM payees WHERE lower(name) = lower(?)').get(v.name) as { id: number } | undefined;
    if (other && other.id !== selfId) errors.name = 'You already have a payee with this name.';
  }
  if ((v.nickname ?? '').length > 30) errors.nickname = 'The nickname can be at most 30 characters.';
  if (!(PAYEE_CATEGORIES as readonly string[]).includes(v.category ?? '')) errors.category = 'Choose a category.';
  if (!/^[0-9A-Za-z][0-9A-Za-z -]{3,29}$/.test(v.account_number ?? '')) errors.account_number = 'Enter the account number the payee gave you (4 to 30 letters, digits or dashes).';
  if ((v.address ?? '').length > 120) errors.address = 'The address can be at most 120 characters.';
  return errors;
}

function createPayee(ctx: RequestCtx): Reply {
  const v = payeeValues(ctx);
  const errors = payeeErrors(ctx, v);
  if (Object.keys(errors).length) return payeeForm(ctx, '/payees', 'Add a payee', v, errors);
  const id = ctx.db
    .prepare('INSERT INTO payees (name, nickname, category, account_number, address, added) VALUES (?, ?, ?, ?, ?, ?)')
    .run(v.name, v.nickname, v.category, v.account_number, v.address, ctx.site.today).lastInsertRowid;
  ctx.flash(`Added ${v.name} to your payees.`);
  return ctx.redirect(`/payees/${id}`);
}

function updatePayee(ctx: RequestCtx): Reply {
  const p = getPayeeParam(ctx);
  if (!p) return ctx.notFound('That payee does not exist.');
  const v = payeeValues(ctx);
  const errors = payeeErrors(ctx, v, p.id);
  if (Object.keys(errors).length) return payeeForm(ctx, `/payees/${p.id}`, `Edit ${p.name}`, v, errors);
  ctx.db.prepare('UPDATE payees SET name = ?, nickname = ?, category = ?, account_number = ?, address = ? WHERE id = ?')
    .run(v.name, v.nickname, v.category, v.account_number, v.address, p.id);
  ctx.flash(`Saved ${v.name}.`);
  return ctx.redirect(`/payees/${p.id}`);
}

function deletePayee(ctx: RequestCtx): Reply {
  const p = getPayeeParam(ctx);
  if (!p) return ctx.notFound('That payee does not exist.');
  const pending = findPayments(ctx.db, { payee: p.id, status: 'Scheduled' });
  if (pending.length) {
    ctx.flash(`${p.name} has ${pending.length} scheduled payment${pending.length === 1 ? '' : 's'}. Cancel ${pending.length === 1 ? 'it' : 'them'} before deleting the payee.`);
    return ctx.redirect(`/payees/${p.id}`);
  }
  ctx.db.prepare('DELETE FROM payees WHERE id = ?').run(p.id);
  ctx.flash(`Deleted ${p.name} from your payees.`);
  return ctx.redirect('/payees');
}

/** Registers the payee pages and the payees API. */
export function payeeRoutes(r: Router<Handler>): void {
  r.get('/payees', payeesPage);
  r.get('/payees/new', (ctx) => payeeForm(ctx, '/payees', 'Add a payee', {}));
  r.post('/payees', createPayee);
  r.get('/payees/:id', payeePage);
  r.get('/payees/:id/edit', (ctx) => {
    const p = getPayeeParam(ctx);
    return p ? payeeForm(ctx, `/payees/${p.id}`, `Edit ${p.name}`, { ...p, id: String(p.id) }) : ctx.notFound('That payee does not exist.');
  });
  r.post('/payees/:id', updatePayee);
  r.post('/payees/:id/delete', deletePayee);
  r.get('/api/payees', (ctx) => ctx.json(findPayees(ctx.db, { q: ctx.q('q') })));
}
