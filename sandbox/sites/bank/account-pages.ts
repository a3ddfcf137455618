/** The bank's accounts overview, account activity, search, transaction details and their JSON API. @module */
import { html } from '../../html';
import { errorSummary, idOf, money, postForm, selectField, submit, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { isDate, slugify } from '../../values';
import { balanceText, categoryOf } from './format';
import { accounts, findTransactions, getAccount, getTransaction, scheduledPayments, type AccountRow, type TxRow } from './queries';
import { CATEGORIES } from './themes';
import { transactionList } from './tx-list';

const TYPE_NAMES: Record<string, string> = { checking: 'Checking', savings: 'Savings', credit: 'Credit card' };

function home(ctx: RequestCtx): Reply {
  const list = accounts(ctx.db);
  const cash = list.filter((a) => a.type !== 'credit').reduce((s, a) => s + a.balance, 0);
  const owed = -list.filter((a) => a.type === 'credit').reduce((s, a) => s + a.balance, 0);
  const upcoming = scheduledPayments(ctx.db).slice(0, 5);
  return ctx.render({
    title: 'Accounts overview',
    body: html`<table><thead><tr><th>Account</th><th>Type</th><th>Number</th><th>Balance</th></tr></thead><tbody>${list.map(
      (a) => html`<tr><td><a href="${ctx.href(`/accounts/${a.id}`)}">${a.name}</a></td><td>${TYPE_NAMES[a.type]}</td><td>••${a.number.slice(-4)}</td><td>${balanceText(a.type, a.balance)}</td></tr>`,
    )}</tbody></table>
<p>Total in checking and savings: <strong>${money(cash)}</strong> · Owed on credit cards: <strong>${money(owed)}</strong></p>
<div class="row"><a class="button" href="${ctx.href('/transfer')}">Transfer money</a> <a class="button" href="${ctx.href('/pay')}">Pay a bill</a></div>
<h2>Coming up</h2>${upcoming.length ? html`<table><thead><tr><th>Date</th><th>To</th><th>Amount</th><th>Confirmation</th></tr></thead><tbody>${upcoming.map(
      (p) => html`<tr><td>${p.send_on}</td><td>${p.to_name}</td><td>${money(p.amount)}</td><td><a href="${ctx.href(`/payments/${p.id}`)}">${p.id}</a></td></tr>`,
    )}</tbody></table>` : html`<p>Nothing scheduled.</p>`}
<p><a href="${ctx.href('/scheduled')}">See all scheduled payments</a></p>`,
  });
}

function accountFacts(a: AccountRow) {
  const rows: Array<[string, string]> = [
    ['Type', TYPE_NAMES[a.type] ?? a.type],
    ['Account number', a.number],
    ['Routing number', a.routing],
    [a.type === 'credit' ? 'Current balance' : 'Balance', balanceText(a.type, a.balance)],
  ];
  if (a.type === 'credit') rows.push(['Credit limit', money(a.credit_limit)], ['Available credit', money(a.credit_limit + a.balance)]);
  if (a.type === 'savings') rows.push(['Interest rate', `${a.rate.toFixed(2)}% APY`]);
  rows.push(['Opened', a.opened]);
  return html`<table><tbody>${rows.map(([k, v]) => html`<tr><th>${k}</th><td>${v}</td></tr>`)}</tbody></table>`;
}

function getAccountParam(ctx: RequestCtx): AccountRow | undefined {
  const id = idOf(ctx.params.id);
  return id === undefined ? undefined : getAccount(ctx.db, id);
}

function accountPage(ctx: RequestCtx, rename?: { value: string; error: string }): Reply {
  const a = getAccountParam(ctx);
  if (!a) return ctx.notFound('That account does not exist.');
  const list = transactionList(ctx, { path: `/accounts/${a.id}`, account: a });
  if (typeof list === 'string') return list.startsWith('There is no page') ? ctx.notFound(list) : ctx.badRequest(list);
  const links = a.type === 'credit'
    ? html`<a href="${ctx.href('/transfer', { to: a.id })}">Pay this card</a>`
    : html`<a href="${ctx.href('/transfer', { from: a.id })}">Transfer from this account</a>`;
  return ctx.render({
    title: a.name,
    status: rename ? 422 : list.status,
    body: html`${accountFacts(a)}<div class="row">${links} <a href="${ctx.href('/statements', { account: a.id })}">View statements</a></div>
${rename ? errorSummary({ name: rename.error }) : ''}${postForm(ctx.href(`/accounts/${a.id}/rename`), html`<div class="row">${textField({ label: 'Account nickname', name: 'name', value: rename?.value ?? a.name, error: rename?.error })}
${submit('Rename account', { variant: 'secondary' })}</div>`, { label: 'Rename account' })}
<h2>Transactions</h2>${list.body}`,
  });
}

function renameAccount(ctx: RequestCtx): Reply {
  const a = getAccountParam(ctx);
  if (!a) return ctx.notFound('That account does not exist.');
  const name = ctx.field('name').replace(/\s+/g, ' ');
  let error = '';
  if (!name) error = 'Enter a nickname for the account.';
  else if (name.length > 40) error = 'A nickname can be at most 40 characters.';
  else if (accounts(ctx.db).some((x) => x.id !== a.id && x.name.toLowerCase() === name.toLowerCase())) error = 'Another of your accounts already has this nickname.';
  if (error) return accountPage(ctx, { value: name, error });
  ctx.db.prepare('UPDATE accounts SET name = ? WHERE id = ?').run(name, a.id);
  ctx.flash(`Your account is now called ${name}.`);
  return ctx.redirect(`/accounts/${a.id}`);
}

function searchPage(ctx: RequestCtx): Reply {
  const q = ctx.q('q');
  if (!q) return ctx.render({ title: 'Search transactions', body: html`<p>Type a merchant, a category, a note or a reference number in the search box above.</p>` });
  const list = transactionList(ctx, { path: '/search' });
  if (typeof list === 'string') return list.startsWith('There is no page') ? ctx.notFound(list) : ctx.badRequest(list);
  return ctx.render({ title: `Results for "${q.slice(0, 100)}"`, status: list.status, body: list.body });
}

function getTx(ctx: RequestCtx): TxRow | undefined {
  const id = idOf(ctx.params.id);
  return id === undefined ? undefined : getTransaction(ctx.db, id);
}

function txPage(ctx: RequestCtx, errors: Record<string, string> = {}, values: { category?: string; note?: string } = {}): Reply {
  const t = getTx(ctx);
  if (!t) return ctx.notFound('That transaction does not exist.');
  const facts: Array<[string, string]> = [
    ['Date', t.date], ['Amount', money(t.amount)], ['Category', t.category], ['Type', t.method], ['Status', t.status],
    ['Reference number', t.reference], ['Balance after', money(t.balance)],
  ];
  return ctx.render({
    title: t.name,
    status: Object.keys(errors).length ? 422 : 200,
    body: html`<p>Account: <a href="${ctx.href(`/accounts/${t.account_id}`)}">${t.account}</a></p>
<table><tbody>${facts.map(([k, v]) => html`<tr><th>${k}</th><td>${v}</td></tr>`)}${t.note ? html`<tr><th>Note</th><td>${t.note}</td></tr>` : ''}</tbody></table>
${errorSummary(errors)}
${postForm(ctx.href(`/transactions/${t.id}/category`), html`<div class="row">${selectField({ label: 'Category', name: 'category', value: values.category ?? slugify(t.category), options: CATEGORIES.map((c) => ({ value: slugify(c), text: c })), error: errors.category })}
${submit('Save category', { variant: 'secondary' })}</div>`, { label: 'Change category' })}
${postForm(ctx.href(`/transactions/${t.id}/note`), html`<div class="row">${textField({ label: 'Note', name: 'note', value: values.note ?? t.note, error: errors.note })}
${submit('Save note', { variant: 'secondary' })}</div>`, { label: 'Note' })}`,
  });
}

function setCategory(ctx: RequestCtx): Reply {
  const t = getTx(ctx);
  if (!t) return ctx.notFound('That transaction does not exist.');
  const category = categoryOf(ctx.field('category'));
  if (!category) return txPage(ctx, { category: 'Choose one of the categories.' }, { category: ctx.field('category') });
  ctx.db.prepare('UPDATE transactions SET category = ? WHERE id = ?').run(category, t.id);
  ctx.flash(`Moved ${t.name} on ${t.date} to ${category}.`);
  return ctx.redirect(`/transactions/${t.id}`);
}

function setNote(ctx: RequestCtx): Reply {
  const t = getTx(ctx);
  if (!t) return ctx.notFound('That transaction does not exist.');
  const note = ctx.field('note').replace(/\s+/g, ' ');
  if (note.length > 200) return txPage(ctx, { note: 'A note can be at most 200 characters.' }, { note: note.slice(0, 200) });
  ctx.db.prepare('UPDATE transactions SET note = ? WHERE id = ?').run(note, t.id);
  ctx.flash(note ? 'Your note was saved.' : 'The note was removed.');
  return ctx.redirect(`/transactions/${t.id}`);
}

function apiAccount(a: AccountRow, ctx: RequestCtx): Record<string, unknown> {
  return { id: a.id, name: a.name, type: a.type, number: `••${a.number.slice(-4)}`, balance: a.balance, credit_limit: a.type === 'credit' ? a.credit_limit : undefined, rate: a.type === 'savings' ? a.rate : undefined, url: ctx.href(`/accounts/${a.id}`) };
}

function apiTransactions(ctx: RequestCtx): Reply {
  const account = ctx.q('account');
  const id = account ? idOf(account) : undefined;
  if (account && (id === undefined || !getAccount(ctx.db, id))) return ctx.json({ error: `no account ${account}` }, 404);
  const category = ctx.q('category') ? categoryOf(ctx.q('category')) : undefined;
  if (ctx.q('category') && !category) return ctx.json({ error: `no category ${ctx.q('category')}` }, 400);
  const [from, to] = [ctx.q('from'), ctx.q('to')];
  if ((from && !isDate(from)) || (to && !isDate(to))) return ctx.json({ error: 'dates are YYYY-MM-DD' }, 400);
  const list = findTransactions(ctx.db, { account: id, q: ctx.q('q'), category, from, to, type: ctx.q('type'), sort: ctx.q('sort') });
  return ctx.json({ total: list.length, transactions: list.slice(0, 200).map(({ note: _n, ...t }) => t) });
}

/** Registers the overview, account pages, search, transaction pages and the accounts API. */
export function accountRoutes(r: Router<Handler>): void {
  r.get('/', home);
  r.get('/accounts/:id', (ctx) => accountPage(ctx));
  r.post('/accounts/:id/rename', renameAccount);
  r.get('/search', searchPage);
  r.get('/transactions/:id', (ctx) => txPage(ctx));
  r.post('/transactions/:id/category', setCategory);
  r.post('/transactions/:id/note', setNote);
  r.get('/api/accounts', (ctx) => ctx.json(accounts(ctx.db).map((a) => apiAccount(a, ctx))));
  r.get('/api/accounts/:id', (ctx) => {
    const a = getAccountParam(ctx);
    return a ? ctx.json(apiAccount(a, ctx)) : ctx.json({ error: 'no such account' }, 404);
  });
  r.get('/api/transactions', apiTransactions);
}
