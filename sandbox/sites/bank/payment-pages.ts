/** The bank's payment activity, payment details, scheduled payments and their changes (edit, cancel). @module */
import { html } from '../../html';
import { errorSummary, money, pageNumber, pager, paginate, postForm, selectField, submit, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { addDays, isDate } from '../../values';
import { parseAmount, paymentLabel } from './format';
import { findPayments, getPayment, scheduledPayments, type PaymentRow } from './queries';
import { FREQUENCIES } from './themes';

/** Payments per page of the activity list. */
export const PAYMENTS_PAGE_SIZE = 20;

const KINDS = [{ value: '', text: 'All types' }, { value: 'transfer', text: 'Transfers' }, { value: 'payment', text: 'Bill payments' }];
const STATUSES = [{ value: '', text: 'Any status' }, { value: 'completed', text: 'Completed' }, { value: 'scheduled', text: 'Scheduled' }, { value: 'cancelled', text: 'Cancelled' }];

function frequencyText(value: string): string {
  return FREQUENCIES.find((f) => f.value === value)?.text ?? value;
}

function activityPage(ctx: RequestCtx): Reply {
  const kind = ctx.q('kind');
  const status = ctx.q('status');
  const page = pageNumber(ctx.q('page'));
  if (page === undefined) return ctx.badRequest('The page number must be a positive whole number.');
  if (!KINDS.some((k) => k.value === kind)) return ctx.badRequest(`"${kind}" is not a type of payment.`);
  if (!STATUSES.some((s) => s.value === status)) return ctx.badRequest(`"${status}" is not a payment status.`);
  const list = findPayments(ctx.db, { kind, status: status ? status[0]?.toUpperCase() + status.slice(1) : '' });
  const paged = paginate(list, page, PAYMENTS_PAGE_SIZE);
  if (!paged) return ctx.notFound(`There is no page ${page} of your payments.`);
  const { items: shown, pages } = paged;
  return ctx.render({
    title: 'Payment activity',
    body: html`<form method="get" action="${ctx.href('/payments')}" class="row" aria-label="Filter payments">
${selectField({ label: 'Type', name: 'kind', value: kind, options: KINDS })}${selectField({ label: 'Status', name: 'status', value: status, options: STATUSES })}
${submit('Show payments')}</form>
<p>${list.length} payment${list.length === 1 ? '' : 's'} and transfers</p>
${shown.length ? html`<table><thead><tr><th>Confirmation</th><th>Date</th><th>Type</th><th>From</th><th>To</th><th>Amount</th><th>Status</th></tr></thead><tbody>${shown.map(
  (p) => html`<tr><td><a href="${ctx.href(`/payments/${p.id}`)}">${p.id}</a></td><td>${p.send_on}</td><td>${p.kind === 'transfer' ? 'Transfer' : 'Bill payment'}</td>
<td>${p.from_name}</td><td>${p.to_name}</td><td>${money(p.amount)}</td><td>${p.status}</td></tr>`,
)}</tbody></table>` : html`<p>No payments match.</p>`}
${pager({ page, pages, href: (n) => ctx.href('/payments', { kind, status, page: n === 1 ? '' : n }) })}`,
  });
}

function getPaymentParam(ctx: RequestCtx): PaymentRow | undefined {
  const id = ctx.params.id ?? '';
  return /^[A-Z]{1,4}-\d{1,9}$/.test(id) ? getPayment(ctx.db, id) : undefined;
}

function paymentPage(ctx: RequestCtx): Reply {
  const p = getPaymentParam(ctx);
  if (!p) return ctx.notFound('We could not find a payment with that confirmation number.');
  const rows: Array<[string, string]> = [
    ['Status', p.status], ['Type', p.kind === 'transfer' ? 'Transfer between your accounts' : 'Bill payment'], ['From', p.from_name], ['To', p.to_name],
    ['Amount', money(p.amount)], [p.status === 'Completed' ? 'Sent on' : 'Send on', p.send_on], ['Repeat', frequencyText(p.frequency)],
    ['Memo', p.memo || '—'], ['Set up on', p.created],
  ];
  const actions = p.status === 'Scheduled'
    ? html`<div class="row"><a class="button" href="${ctx.href(`/payments/${p.id}/edit`)}">Edit scheduled payment</a>
${postForm(ctx.href(`/payments/${p.id}/cancel`), submit('Cancel this payment', { variant: 'danger' }), { inline: true })}</div>`
    : '';
  return ctx.render({
    title: `${p.kind === 'transfer' ? 'Transfer' : 'Payment'} ${p.id}`,
    body: html`<table><tbody>${rows.map(([k, v]) => html`<tr><th>${k}</th><td>${v}</td></tr>`)}</tbody></table>${actions}
<p><a href="${ctx.href('/payments')}">All payment activity</a> · <a href="${ctx.href('/scheduled')}">Scheduled payments</a></p>`,
  });
}

function scheduledPage(ctx: RequestCtx): Reply {
  const list = scheduledPayments(ctx.db);
  return ctx.render({
    title: 'Scheduled payments and transfers',
    body: list.length
      ? html`<table><thead><tr><th>Date</th><th>Type</th><th>From</th><th>To</th><th>Amount</th><th>Repeat</th><th>Confirmation</th><th></th></tr></thead><tbody>${list.map(
        (p) => html`<tr><td>${p.send_on}</td><td>${p.kind === 'transfer' ? 'Transfer' : 'Bill payment'}</td><td>${p.from_name}</td><td>${p.to_name}</td>
<td>${money(p.amount)}</td><td>${frequencyText(p.frequency)}</td><td><a href="${ctx.href(`/payments/${p.id}`)}">${p.id}</a></td>
<td><a href="${ctx.href(`/payments/${p.id}/edit`)}" aria-label="Edit ${paymentLabel(p)}">Edit</a>
${postForm(ctx.href(`/payments/${p.id}/cancel`), html`<input type="hidden" name="back" value="scheduled">${submit('Cancel', { label: `Cancel ${paymentLabel(p)}`, variant: 'danger' })}`, { inline: true })}</td></tr>`,
      )}</tbody></table>`
      : html`<p>You have no scheduled payments or transfers.</p>`,
  });
}

function editPage(ctx: RequestCtx, values?: Record<string, string>, errors: Record<string, string> = {}): Reply {
  const p = getPaymentParam(ctx);
  if (!p) return ctx.notFound('We could not find a payment with that confirmation number.');
  if (p.status !== 'Scheduled') {
    ctx.flash(`Payment ${p.id} is ${p.status.toLowerCase()} and can no longer be changed.`);
    return ctx.redirect(`/payments/${p.id}`);
  }
  const v = values ?? { amount: p.amount.toFixed(2), date: p.send_on, frequency: p.frequency, memo: p.memo };
  return ctx.render({
    title: `Edit ${paymentLabel(p)}`,
    status: Object.keys(errors).length ? 422 : 200,
    body: html`<p>From ${p.from_name} to <strong>${p.to_name}</strong> · confirmation ${p.id}</p>${errorSummary(errors)}
${postForm(ctx.href(`/payments/${p.id}`), html`
${textField({ label: 'Amount', name: 'amount', type: 'number', value: v.amount, min: 0, step: '0.01', error: errors.amount })}
${textField({ label: 'Send on', name: 'date', type: 'date', value: v.date, error: errors.date })}
${selectField({ label: 'Repeat', name: 'frequency', value: v.frequency, options: FREQUENCIES, error: errors.frequency })}
${textField({ label: 'Memo', name: 'memo', value: v.memo, error: errors.memo })}
${submit('Save changes')}`, { label: 'Edit scheduled payment' })}
<p><a href="${ctx.href(`/payments/${p.id}`)}">Back to the payment</a></p>`,
  });
}

function savePayment(ctx: RequestCtx): Reply {
  const p = getPaymentParam(ctx);
  if (!p) return ctx.notFound('We could not find a payment with that confirmation number.');
  if (p.status !== 'Scheduled') return editPage(ctx);
  const v = { amount: ctx.field('amount'), date: ctx.field('date'), frequency: ctx.field('frequency'), memo: ctx.field('memo') };
  const errors: Record<string, string> = {};
  const amount = parseAmount(v.amount);
  if (amount === undefined) errors.amount = 'Enter an amount in dollars and cents, like 125.50.';
  if (!isDate(v.date)) errors.date = 'Enter the date as YYYY-MM-DD.';
  else if (v.date <= ctx.site.today) errors.date = 'A scheduled payment must be sent on a later day than today.';
  else if (v.date > addDays(ctx.site.today, 365)) errors.date = 'Choose a date within the next year.';
  if (!FREQUENCIES.some((f) => f.value === v.frequency)) errors.frequency = 'Choose how often to repeat.';
  if (v.memo.length > 60) errors.memo = 'The memo can be at most 60 characters.';
  if (Object.keys(errors).length || amount === undefined) return editPage(ctx, v, errors);
  ctx.db.prepare('UPDATE payments SET amount = ?, send_on = ?, frequency = ?, memo = ? WHERE id = ?').run(amount, v.date, v.frequency, v.memo, p.id);
  ctx.flash(`Saved your changes to ${p.id}: ${money(amount)} to ${p.to_name} on ${v.date}.`);
  return ctx.redirect(`/payments/${p.id}`);
}

function cancelPayment(ctx: RequestCtx): Reply {
  const p = getPaymentParam(ctx);
  if (!p) return ctx.notFound('We could not find a payment with that confirmation number.');
  const back = ctx.field('back') === 'scheduled' ? '/scheduled' : `/payments/${p.id}`;
  if (p.status !== 'Scheduled') {
    ctx.flash(`Payment ${p.id} is ${p.status.toLowerCase()} and cannot be cancelled.`);
    return ctx.redirect(back);
  }
  ctx.db.prepare("UPDATE payments SET status = 'Cancelled' WHERE id = ?").run(p.id);
  ctx.flash(`Cancelled the ${paymentLabel(p)} (${p.id}).`);
  return ctx.redirect(back);
}

/** Registers payment activity, payment pages and scheduled payments. */
export function paymentRoutes(r: Router<Handler>): void {
  r.get('/payments', activityPage);
  r.get('/payments/:id', paymentPage);
  r.get('/payments/:id/edit', (ctx) => editPage(ctx));
  r.post('/payments/:id', savePayment);
  r.post('/payments/:id/cancel', cancelPayment);
  r.get('/scheduled', scheduledPage);
  r.get('/api/scheduled', (ctx) => ctx.json(scheduledPayments(ctx.db)));
}
