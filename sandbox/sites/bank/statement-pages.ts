/** The bank's monthly statements and the customer's settings (contact details, paperless, alerts). @module */
import { html } from '../../html';
import { checkbox, errorSummary, idOf, money, postForm, radioGroup, selectField, submit, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { balanceText, isOn, monthName, monthRange, txLabel } from './format';
import { accounts, findTransactions, getAccount, profile, statement, statements } from './queries';

function statementsPage(ctx: RequestCtx): Reply {
  const all = accounts(ctx.db);
  const rawAccount = ctx.q('account');
  const year = ctx.q('year');
  const account = rawAccount ? all.find((a) => String(a.id) === rawAccount) : all[0];
  if (!account) return ctx.notFound('That account does not exist.');
  const list = statements(ctx.db, account.id, ctx.site.today);
  const years = [...new Set(list.map((s) => s.period.slice(0, 4)))];
  if (year && !years.includes(year)) return ctx.badRequest(`There are no statements for "${year}".`);
  const shown = year ? list.filter((s) => s.period.startsWith(year)) : list;
  return ctx.render({
    title: 'Statements',
    body: html`<form method="get" action="${ctx.href('/statements')}" class="row" aria-label="Choose statements">
${selectField({ label: 'Account', name: 'account', value: String(account.id), options: all.map((a) => ({ value: String(a.id), text: a.name })) })}
${selectField({ label: 'Year', name: 'year', value: year, options: [{ value: '', text: 'All years' }, ...years.map((y) => ({ value: y, text: y }))] })}
${submit('Show statements')}</form>
<h2>${account.name}</h2>
${shown.length ? html`<table><thead><tr><th>Statement</th><th>Opening balance</th><th>Money in</th><th>Money out</th><th>Closing balance</th></tr></thead><tbody>${shown.map(
  (s) => html`<tr><td><a href="${ctx.href(`/statements/${account.id}/${s.period}`)}">${monthName(s.period)}</a></td><td>${balanceText(account.type, s.opening)}</td>
<td>${money(s.moneyIn)}</td><td>${money(s.moneyOut)}</td><td>${balanceText(account.type, s.closing)}</td></tr>`,
)}</tbody></table>` : html`<p>No statements yet.</p>`}`,
  });
}

function statementPage(ctx: RequestCtx): Reply {
  const id = idOf(ctx.params.account);
  const a = id === undefined ? undefined : getAccount(ctx.db, id);
  const period = ctx.params.period ?? '';
  if (!a || !/^\d{4}-(0[1-9]|1[0-2])$/.test(period) || period >= ctx.site.today.slice(0, 7)) return ctx.notFound('There is no such statement.');
  const s = statement(ctx.db, a.id, period);
  if (!s) return ctx.notFound('There is no such statement.');
  const [from, to] = monthRange(period);
  const list = findTransactions(ctx.db, { account: a.id, from, to, sort: 'oldest' });
  const facts: Array<[string, string]> = [
    ['Statement period', `${from} to ${to}`], ['Opening balance', balanceText(a.type, s.opening)], ['Money in', money(s.moneyIn)],
    ['Money out', money(s.moneyOut)], ['Closing balance', balanceText(a.type, s.closing)], ['Transactions', String(s.count)],
  ];
  return ctx.render({
    title: `${a.name} statement, ${monthName(period)}`,
    body: html`<p>Account ${a.number} · routing ${a.routing}</p><table><tbody>${facts.map(([k, v]) => html`<tr><th>${k}</th><td>${v}</td></tr>`)}</tbody></table>
<h2>Transactions</h2><table><thead><tr><th>Date</th><th>Description</th><th>Amount</th><th>Balance</th></tr></thead><tbody>${list.map(
      (t) => html`<tr><td>${t.date}</td><td><a href="${ctx.href(`/transactions/${t.id}`)}" aria-label="${txLabel(t)}">${t.name}</a></td><td>${money(t.amount)}</td><td>${money(t.balance)}</td></tr>`,
    )}</tbody></table><p><a href="${ctx.href('/statements')}">All statements</a></p>`,
  });
}

const ALERT_CHANNELS = [{ value: 'email', text: 'Email' }, { value: 'text', text: 'Text message' }];
const FIELDS = ['email', 'phone', 'street', 'city', 'zip', 'alert_below', 'alert_by'] as const;

function settingsPage(ctx: RequestCtx, values?: Record<string, string>, errors: Record<string, string> = {}): Reply {
  const me = profile(ctx.db);
  const v = values ?? { email: me.email, phone: me.phone, street: me.street, city: me.city, zip: me.zip, alert_below: String(me.alert_below), alert_by: me.alert_by, paperless: String(me.paperless) };
  return ctx.render({
    title: 'Settings',
    status: Object.keys(errors).length ? 422 : 200,
    body: html`<p>Signed in as <strong>${me.name}</strong> · customer since ${me.member_since}</p>${errorSummary(errors)}
${postForm(ctx.href('/settings'), html`<h2>Contact details</h2>
${textField({ label: 'Email', name: 'email', type: 'email', value: v.email, error: errors.email })}
${textField({ label: 'Phone', name: 'phone', type: 'tel', value: v.phone, error: errors.phone })}
${textField({ label: 'Street address', name: 'street', value: v.street, error: errors.street })}
${textField({ label: 'City', name: 'city', value: v.city, error: errors.city })}
${textField({ label: 'ZIP code', name: 'zip', value: v.zip, error: errors.zip })}
<h2>Statements and alerts</h2>
${checkbox({ label: 'Paperless statements', name: 'paperless', checked: isOn(v.paperless ?? '') })}
${textField({ label: 'Low balance alert amount', name: 'alert_below', type: 'number', value: v.alert_below, min: 0, max: 10000, step: '1', error: errors.alert_below })}
${radioGroup({ legend: 'Send alerts by', name: 'alert_by', value: v.alert_by, options: ALERT_CHANNELS, error: errors.alert_by })}
${submit('Save settings')}`, { label: 'Settings' })}`,
  });
}

function saveSettings(ctx: RequestCtx): Reply {
  const v: Record<string, string> = Object.fromEntries(FIELDS.map((k) => [k, ctx.field(k)]));
  v.paperless = isOn(ctx.field('paperless')) ? '1' : '0';
  const errors: Record<string, string> = {};
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(v.email ?? '') || (v.email ?? '').length > 100) errors.email = 'Enter a valid email address.';
  if (!/^[0-9()+\-. ]{7,20}$/.test(v.phone ?? '')) errors.phone = 'Enter a phone number (digits, spaces, dashes, parentheses).';
  if (!v.street || v.street.length > 100) errors.street = 'Enter a street address.';
  if (!v.city || v.city.length > 60) errors.city = 'Enter a city.';
  if (!/^\d{5}$/.test(v.zip ?? '')) errors.zip = 'Enter a 5-digit ZIP code.';
  if (!/^\d{1,5}$/.test(v.alert_below ?? '') || Number(v.alert_below) > 10000) errors.alert_below = 'Enter a whole number of dollars from 0 to 10,000.';
  if (!ALERT_CHANNELS.some((c) => c.value === v.alert_by)) errors.alert_by = 'Choose how to get alerts.';
  if (Object.keys(errors).length) return settingsPage(ctx, v, errors);
  ctx.db.prepare('UPDATE profile SET email = ?, phone = ?, street = ?, city = ?, zip = ?, paperless = ?, alert_below = ?, alert_by = ? WHERE id = 1')
    .run(v.email, v.phone, v.street, v.city, v.zip, Number(v.paperless), Number(v.alert_below), v.alert_by);
  ctx.flash('Your settings were saved.');
  return ctx.redirect('/settings');
}

/** Registers statements and settings. */
export function statementRoutes(r: Router<Handler>): void {
  r.get('/statements', statementsPage);
  r.get('/statements/:account/:period', statementPage);
  r.get('/settings', (ctx) => settingsPage(ctx));
  r.post('/settings', saveSettings);
}
