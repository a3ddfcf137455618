/** The bank's transaction lists (an account's activity, search results): filters, sort, totals and pages. @module */
import { html, type SafeHtml } from '../../html';
import { errorSummary, money, pageNumber, pager, paginate, selectField, submit, textField } from '../../layout';
import type { RequestCtx } from '../../template';
import { isDate, slugify } from '../../values';
import { categoryOf, txLabel } from './format';
import { TX_SORTS, TX_TYPES, accounts, findTransactions, txTotals, type AccountRow, type TxFilter } from './queries';
import { CATEGORIES } from './themes';

/** Transactions per page. */
export const TX_PAGE_SIZE = 20;

/** The filters of a list as read from the query, with what was wrong with them. */
interface ListQuery {
  filter: TxFilter;
  page: number;
  /** The query as the pager links repeat it. */
  keep: Record<string, string>;
  errors: Record<string, string>;
}

function readQuery(ctx: RequestCtx, account: AccountRow | undefined): ListQuery | string {
  const page = pageNumber(ctx.q('page'));
  if (page === undefined) return 'The page number must be a positive whole number.';
  const errors: Record<string, string> = {};
  const raw = { q: ctx.q('q').slice(0, 100), category: ctx.q('category'), from: ctx.q('from'), to: ctx.q('to'), type: ctx.q('type'), sort: ctx.q('sort'), account: ctx.q('account') };
  const filter: TxFilter = { q: raw.q };
  if (account) filter.account = account.id;
  else if (raw.account) {
    const a = accounts(ctx.db).find((x) => String(x.id) === raw.account);
    if (a) filter.account = a.id;
    else errors.account = 'Choose one of your accounts.';
  }
  if (raw.category) {
    const c = categoryOf(raw.category);
    if (c) filter.category = c;
    else errors.category = `There is no category "${raw.category}".`;
  }
  for (const k of ['from', 'to'] as const) {
    if (!raw[k]) continue;
    if (isDate(raw[k])) filter[k] = raw[k];
    else errors[k] = `Enter the ${k === 'from' ? 'first' : 'last'} day as a date like 2026-02-01.`;
  }
  if (filter.from && filter.to && filter.from > filter.to) errors.to = 'The last day must not be before the first day.';
  if (TX_TYPES.some((t) => t.value === raw.type)) filter.type = raw.type;
  else errors.type = 'Choose money in, money out or both.';
  if (!raw.sort || TX_SORTS.some((s) => s.value === raw.sort)) filter.sort = raw.sort || 'newest';
  else errors.sort = 'Unknown sort order; showing the newest first.';
  const keep = { ...raw, sort: raw.sort === 'newest' ? '' : raw.sort, account: account ? '' : raw.account };
  return { filter, page, keep, errors };
}

function filterForm(ctx: RequestCtx, path: string, query: ListQuery, search: boolean): SafeHtml {
  const k = query.keep;
  const all = accounts(ctx.db);
  return html`<form method="get" action="${ctx.href(path)}" aria-label="Filter transactions" class="row">
${search ? html`<input type="hidden" name="q" value="${k.q}">${selectField({ label: 'Account', name: 'account', value: k.account, options: [{ value: '', text: 'All accounts' }, ...all.map((a) => ({ value: String(a.id), text: a.name }))] })}`
    : textField({ label: 'Search this account', name: 'q', type: 'search', value: k.q })}
${selectField({ label: 'Category', name: 'category', value: k.category, options: [{ value: '', text: 'All categories' }, ...CATEGORIES.map((c) => ({ value: slugify(c), text: c }))] })}
${selectField({ label: 'Show', name: 'type', value: k.type, options: TX_TYPES })}
${textField({ label: 'From', name: 'from', type: 'date', value: k.from })}
${textField({ label: 'To', name: 'to', type: 'date', value: k.to })}
${selectField({ label: 'Sort by', name: 'sort', value: k.sort || 'newest', options: TX_SORTS })}
${submit('Apply filters')} <a href="${ctx.href(path)}">Clear filters</a></form>`;
}

/**
 * A filtered, sorted, paged transaction list with its filter form and totals: an account's activity (`account`
 * given) or search results over every account.
 */
export function transactionList(ctx: RequestCtx, opts: { path: string; account?: AccountRow }): { body: SafeHtml; status: number } | string {
  const query = readQuery(ctx, opts.account);
  if (typeof query === 'string') return query;
  const { filter, page, keep, errors } = query;
  const list = findTransactions(ctx.db, {
    ...filter,
    ...(errors.from || errors.to ? { from: undefined, to: undefined } : {}),
  });
  const paged = paginate(list, page, TX_PAGE_SIZE);
  if (!paged) return `There is no page ${page} of these transactions.`;
  const { items: shown, pages, first: from } = paged;
  const totals = txTotals(list);
  const search = !opts.account;
  const rows = shown.map(
    (t) => html`<tr><td>${t.date}</td><td><a href="${ctx.href(`/transactions/${t.id}`)}" aria-label="${txLabel(t)}">${t.name}</a>${t.status === 'Pending' ? html` <span class="badge">Pending</span>` : ''}</td>
<td>${t.category}</td>${search ? html`<td>${t.account}</td>` : ''}<td>${money(t.amount)}</td>${search ? '' : html`<td>${money(t.balance)}</td>`}</tr>`,
  );
  const body = html`${errorSummary(errors)}${filterForm(ctx, opts.path, query, search)}
<p><strong>${totals.count} transaction${totals.count === 1 ? '' : 's'}</strong> · Money in: ${money(totals.moneyIn)} · Money out: ${money(totals.moneyOut)}</p>
${list.length ? html`<p class="muted">Showing ${from}–${from + shown.length - 1} of ${list.length}</p>
<table><thead><tr><th>Date</th><th>Description</th><th>Category</th>${search ? html`<th>Account</th>` : ''}<th>Amount</th>${search ? '' : html`<th>Balance</th>`}</tr></thead>
<tbody>${rows}</tbody></table>` : html`<p>No transactions match these filters.</p>`}
${pager({ page, pages, href: (n) => ctx.href(opts.path, { ...keep, page: n === 1 ? '' : n }) })}`;
  return { body, status: Object.keys(errors).length ? 400 : 200 };
}
