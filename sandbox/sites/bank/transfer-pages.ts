/**
 * The bank's money movement: transfers between own accounts and bill payments to payees, each a three-step flow
 * (form, review, confirm), carried out at once when dated today or scheduled for a later day.
 * @module
 */
import { html, type SafeHtml } from '../../html';
import { errorSummary, idOf, money, selectField, submit, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { addDays, isDate } from '../../values';
import { accountLabel, parseAmount } from './format';
import { accounts, findPayees, getAccount, getPayee, type AccountRow, type PayeeRow } from './queries';
import { FREQUENCIES } from './themes';
import { bookTransaction, newConfirmation } from './writes';

/** What a flow's form carries. */
interface FlowValues {
  from: string;
  to: string;
  amount: string;
  date: string;
  frequency: string;
  memo: string;
}

/** The two flows: transfers (to an own account) and payments (to a payee). */
interface Flow {
  kind: 'transfer' | 'payment';
  path: string;
  noun: string;
  toField: string;
  toLabel: string;
  fromLabel: string;
  dateLabel: string;
}

const TRANSFER: Flow = { kind: 'transfer', path: '/transfer', noun: 'transfer', toField: 'to', toLabel: 'To account', fromLabel: 'From account', dateLabel: 'Transfer date' };
const PAYMENT: Flow = { kind: 'payment', path: '/pay', noun: 'payment', toField: 'payee', toLabel: 'Payee', fromLabel: 'Pay from', dateLabel: 'Payment date' };

/** Where money can be sent from: checking and savings accounts. */
function sources(ctx: RequestCtx): AccountRow[] {
  return accounts(ctx.db).filter((a) => a.type !== 'credit');
}

function readValues(get: (name: string) => string, flow: Flow, today: string): FlowValues {
  return { from: get('from'), to: get(flow.toField), amount: get('amount'), date: get('date') || today, frequency: get('frequency') || 'once', memo: get('memo') };
}

interface Checked {
  from: AccountRow;
  to?: AccountRow;
  payee?: PayeeRow;
  amount: number;
}

function check(ctx: RequestCtx, flow: Flow, v: FlowValues): { ok: Checked } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const fromId = idOf(v.from);
  const from = fromId === undefined ? undefined : getAccount(ctx.db, fromId);
  if (!from || from.type === 'credit') errors.from = 'Choose the checking or savings account the money comes from.';
  let to: AccountRow | undefined;
  let payee: PayeeRow | undefined;
  const toId = idOf(v.to);
  if (flow.kind === 'transfer') {
    to = toId === undefined ? undefined : getAccount(ctx.db, toId);
    if (!to) errors.to = 'Choose the account the money goes to.';
    else if (from && to.id === from.id) errors.to = 'Choose a different account to transfer to.';
  } else {
    payee = toId === undefined ? undefined : getPayee(ctx.db, toId);
    if (!payee) errors.payee = 'Choose who you are paying.';
  }
  const amount = parseAmount(v.amount);
  const today = ctx.site.today;
  if (amount === undefined) errors.amount = 'Enter an amount in dollars and cents, like 125.50.';
  if (!isDate(v.date)) errors.date = 'Enter the date as YYYY-MM-DD.';
  else if (v.date < today) errors.date = 'The date cannot be in the past.';
  else if (v.date > addDays(today, 365)) errors.date = 'Choose a date within the next year.';
  if (!FREQUENCIES.some((f) => f.value === v.frequency)) errors.frequency = 'Choose how often to repeat.';
  else if (v.frequency !== 'once' && v.date === today) errors.frequency = `A repeating ${flow.noun} must start on a later day than today.`;
  if (v.memo.length > 60) errors.memo = 'The memo can be at most 60 characters.';
  if (from && amount !== undefined && v.date === today && amount > from.balance) {
    errors.amount = `The amount is more than the balance of ${from.name} (${money(from.balance)}).`;
  }
  if (Object.keys(errors).length || !from || amount === undefined) return { errors };
  return { ok: { from, ...(to ? { to } : {}), ...(payee ? { payee } : {}), amount } };
}

function formPage(ctx: RequestCtx, flow: Flow, v: FlowValues, errors: Record<string, string> = {}): Reply {
  const targets = flow.kind === 'transfer'
    ? [{ value: '', text: 'Choose an account' }, ...accounts(ctx.db).map((a) => ({ value: String(a.id), text: accountLabel(a) }))]
    : [{ value: '', text: 'Choose a payee' }, ...findPayees(ctx.db).map((p) => ({ value: String(p.id), text: p.name }))];
  return ctx.render({
    title: flow.kind === 'transfer' ? 'Transfer money' : 'Pay a bill',
    status: Object.keys(errors).length ? 422 : 200,
    body: html`<p class="muted">Step 1 of 3: details · Step 2: review · Step 3: done</p>${errorSummary(errors)}
<form method="get" action="${ctx.href(`${flow.path}/review`)}" aria-label="${flow.kind === 'transfer' ? 'Transfer details' : 'Payment details'}">
${selectField({ label: flow.fromLabel, name: 'from', value: v.from, error: errors.from, options: sources(ctx).map((a) => ({ value: String(a.id), text: accountLabel(a) })) })}
${selectField({ label: flow.toLabel, name: flow.toField, value: v.to, error: errors[flow.toField], options: targets })}
${textField({ label: 'Amount', name: 'amount', type: 'number', value: v.amount, min: 0, step: '0.01', error: errors.amount })}
${textField({ label: flow.dateLabel, name: 'date', type: 'date', value: v.date, error: errors.date })}
${selectField({ label: 'Repeat', name: 'frequency', value: v.frequency, error: errors.frequency, options: FREQUENCIES })}
${textField({ label: 'Memo', name: 'memo', value: v.memo, error: errors.memo })}
${submit(flow.kind === 'transfer' ? 'Review transfer' : 'Review payment')}</form>
${flow.kind === 'payment' ? html`<p>Paying someone new? <a href="${ctx.href('/payees/new')}">Add a payee</a></p>` : ''}`,
  });
}

function hidden(v: FlowValues, flow: Flow): SafeHtml {
  return html`<input type="hidden" name="from" value="${v.from}"><input type="hidden" name="${flow.toField}" value="${v.to}">
<input type="hidden" name="amount" value="${v.amount}"><input type="hidden" name="date" value="${v.date}">
<input type="hidden" name="frequency" value="${v.frequency}"><input type="hidden" name="memo" value="${v.memo}">`;
}

function reviewPage(flow: Flow): Handler {
  return (ctx) => {
    const v = readValues(ctx.q, flow, ctx.site.today);
    const result = check(ctx, flow, v);
    if ('errors' in result) return formPage(ctx, flow, v, result.errors);
    const { from, to, payee, amount } = result.ok;
    const later = v.date !== ctx.site.today;
    const rows: Array<[string, string]> = [
      ['From', accountLabel(from)], ['To', to ? accountLabel(to) : (payee?.name ?? '')], ['Amount', money(amount)],
      ['Date', later ? `${v.date} (scheduled)` : `${v.date} (today)`], ['Repeat', FREQUENCIES.find((f) => f.value === v.frequency)?.text ?? ''],
      ...(v.memo ? [['Memo', v.memo] as [string, string]] : []),
    ];
    const noun = flow.kind === 'transfer' ? 'transfer' : 'payment';
    return ctx.render({
      title: `Review your ${noun}`,
      body: html`<p class="muted">Step 2 of 3: check the details, then confirm.</p>
<table><tbody>${rows.map(([k, val]) => html`<tr><th>${k}</th><td>${val}</td></tr>`)}</tbody></table>
${later ? '' : html`<p>The money leaves ${from.name} right away; the balance after is ${money(from.balance - amount)}.</p>`}
<form method="post" action="${ctx.href(`${flow.path}/confirm`)}" aria-label="Confirm ${noun}">${hidden(v, flow)}
<div class="row">${submit(`Confirm ${noun}`)} <a href="${ctx.href(flow.path, { from: v.from, [flow.toField]: v.to, amount: v.amount, date: v.date, frequency: v.frequency, memo: v.memo })}">Edit ${noun}</a></div></form>`,
    });
  };
}

function confirm(flow: Flow): Handler {
  return (ctx) => {
    const v = readValues(ctx.field, flow, ctx.site.today);
    const result = check(ctx, flow, v);
    if ('errors' in result) return formPage(ctx, flow, v, result.errors);
    const { from, to, payee, amount } = result.ok;
    const toName = to?.name ?? payee?.name ?? '';
    const now = v.date === ctx.site.today;
    const id = newConfirmation(ctx.db);
    ctx.db.prepare(`INSERT INTO payments (id, kind, from_account_id, from_name, to_account_id, payee_id, to_name, amount, send_on, frequency, memo, status, created)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(id, flow.kind, from.id, from.name, to?.id ?? null, payee?.id ?? null, toName, amount, v.date, v.frequency, v.memo, now ? 'Completed' : 'Scheduled', ctx.site.today);
    if (now && to) {
      bookTransaction(ctx.db, { account: from, date: v.date, name: `Transfer to ${to.name}`, category: 'Transfers', amount: -amount, method: 'Online transfer', note: v.memo });
      bookTransaction(ctx.db, { account: to, date: v.date, name: `Transfer from ${from.name}`, category: 'Transfers', amount, method: 'Online transfer', note: v.memo });
    } else if (now && payee) {
      bookTransaction(ctx.db, { account: from, date: v.date, name: `Payment to ${payee.name}`, category: payeeCategory(payee.category), amount: -amount, method: 'Bill payment', note: v.memo });
    }
    const what = flow.kind === 'transfer' ? `Transfer of ${money(amount)} to ${toName}` : `Payment of ${money(amount)} to ${toName}`;
    ctx.flash(`${what} ${now ? 'is complete' : `is scheduled for ${v.date}`}. Your confirmation number is ${id}.`);
    return ctx.redirect(`/payments/${id}`);
  };
}

/** The spending category of a payment to a payee of a given category. */
export function payeeCategory(payeeCategory: string): string {
  if (payeeCategory === 'Housing') return 'Housing';
  if (payeeCategory === 'Person') return 'Transfers';
  if (payeeCategory === 'Health') return 'Health';
  return 'Bills & Utilities';
}

function start(flow: Flow): Handler {
  return (ctx) => {
    const v = readValues(ctx.q, flow, ctx.site.today);
    if (!v.from) v.from = String(sources(ctx)[0]?.id ?? '');
    return formPage(ctx, flow, v);
  };
}

/** Registers the transfer and bill payment flows. */
export function transferRoutes(r: Router<Handler>): void {
  for (const flow of [TRANSFER, PAYMENT]) {
    r.get(flow.path, start(flow));
    r.get(`${flow.path}/review`, reviewPage(flow));
    r.post(`${flow.path}/confirm`, confirm(flow));
  }
}
