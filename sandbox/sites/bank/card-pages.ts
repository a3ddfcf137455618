/** The bank's cards: list, card settings (freeze or unfreeze, ATM and purchase limits, online and abroad use). @module */
import { html } from '../../html';
import { checkbox, errorSummary, idOf, money, postForm, selectField, submit, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { isOn } from './format';
import { cards, getCard, type CardRow } from './queries';
import { ATM_LIMITS } from './themes';

function cardsPage(ctx: RequestCtx): Reply {
  const list = cards(ctx.db);
  return ctx.render({
    title: 'Cards',
    body: html`<table><thead><tr><th>Card</th><th>Type</th><th>Number</th><th>Account</th><th>Status</th></tr></thead><tbody>${list.map(
      (c) => html`<tr><td><a href="${ctx.href(`/cards/${c.id}`)}">${c.name}</a></td><td>${c.kind}</td><td>•••• ${c.last4}</td><td>${c.account}</td><td>${c.frozen ? 'Frozen' : 'Active'}</td></tr>`,
    )}</tbody></table>`,
  });
}

function getCardParam(ctx: RequestCtx): CardRow | undefined {
  const id = idOf(ctx.params.id);
  return id === undefined ? undefined : getCard(ctx.db, id);
}

function cardPage(ctx: RequestCtx, values?: Record<string, string>, errors: Record<string, string> = {}): Reply {
  const c = getCardParam(ctx);
  if (!c) return ctx.notFound('That card does not exist.');
  const v = values ?? { atm_limit: String(c.atm_limit), purchase_limit: String(c.purchase_limit), online: String(c.online), international: String(c.international) };
  const facts: Array<[string, string]> = [
    ['Status', c.frozen ? 'Frozen: new purchases and withdrawals are declined' : 'Active'], ['Card number', `•••• •••• •••• ${c.last4}`],
    ['Type', `${c.kind} card`], ['Cardholder', c.holder], ['Expires', c.expires], ['Linked account', c.account],
    ['Daily ATM withdrawal limit', money(c.atm_limit)], ['Daily purchase limit', money(c.purchase_limit)],
    ['Online purchases', c.online ? 'Allowed' : 'Blocked'], ['International transactions', c.international ? 'Allowed' : 'Blocked'],
  ];
  return ctx.render({
    title: c.name,
    status: Object.keys(errors).length ? 422 : 200,
    body: html`<table><tbody>${facts.map(([k, val]) => html`<tr><th>${k}</th><td>${val}</td></tr>`)}</tbody></table>
${postForm(ctx.href(`/cards/${c.id}/freeze`), html`<input type="hidden" name="frozen" value="${c.frozen ? '0' : '1'}">${submit(c.frozen ? 'Unfreeze card' : 'Freeze card', { variant: c.frozen ? undefined : 'danger' })}`)}
<h2>Card settings</h2>${errorSummary(errors)}${postForm(ctx.href(`/cards/${c.id}`), html`
${selectField({ label: 'Daily ATM withdrawal limit', name: 'atm_limit', value: v.atm_limit, error: errors.atm_limit, options: ATM_LIMITS.map((l) => ({ value: String(l), text: money(l) })) })}
${textField({ label: 'Daily purchase limit', name: 'purchase_limit', type: 'number', value: v.purchase_limit, min: 100, max: 20000, step: '1', error: errors.purchase_limit })}
${checkbox({ label: 'Allow online purchases', name: 'online', checked: isOn(v.online ?? '') })}
${checkbox({ label: 'Allow international transactions', name: 'international', checked: isOn(v.international ?? '') })}
${submit('Save card settings')}`, { label: 'Card settings' })}
<p><a href="${ctx.href('/cards')}">All cards</a></p>`,
  });
}

function freeze(ctx: RequestCtx): Reply {
  const c = getCardParam(ctx);
  if (!c) return ctx.notFound('That card does not exist.');
  const want = ctx.field('frozen');
  if (want !== '0' && want !== '1') return ctx.badRequest('Say whether to freeze or unfreeze the card.');
  ctx.db.prepare('UPDATE cards SET frozen = ? WHERE id = ?').run(Number(want), c.id);
  ctx.flash(want === '1' ? `${c.name} is frozen. Unfreeze it here whenever you like.` : `${c.name} is active again.`);
  return ctx.redirect(`/cards/${c.id}`);
}

function saveCard(ctx: RequestCtx): Reply {
  const c = getCardParam(ctx);
  if (!c) return ctx.notFound('That card does not exist.');
  const v = { atm_limit: ctx.field('atm_limit'), purchase_limit: ctx.field('purchase_limit').replace(/[$,\s]/g, ''), online: isOn(ctx.field('online')) ? '1' : '0', international: isOn(ctx.field('international')) ? '1' : '0' };
  const errors: Record<string, string> = {};
  if (!ATM_LIMITS.some((l) => String(l) === v.atm_limit)) errors.atm_limit = 'Choose one of the ATM limits.';
  const purchase = /^\d{3,5}$/.test(v.purchase_limit) ? Number(v.purchase_limit) : NaN;
  if (!(purchase >= 100 && purchase <= 20000)) errors.purchase_limit = 'The daily purchase limit is a whole number of dollars from 100 to 20,000.';
  if (Object.keys(errors).length) return cardPage(ctx, v, errors);
  ctx.db.prepare('UPDATE cards SET atm_limit = ?, purchase_limit = ?, online = ?, international = ? WHERE id = ?')
    .run(Number(v.atm_limit), purchase, Number(v.online), Number(v.international), c.id);
  ctx.flash(`Saved the settings of ${c.name}.`);
  return ctx.redirect(`/cards/${c.id}`);
}

/** Registers the card pages. */
export function cardRoutes(r: Router<Handler>): void {
  r.get('/cards', cardsPage);
  r.get('/cards/:id', (ctx) => cardPage(ctx));
  r.post('/cards/:id/freeze', freeze);
  r.post('/cards/:id', saveCard);
}
