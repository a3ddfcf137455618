/** The shop's order history and account settings. @module */
import { html } from '../../html';
import { checkbox, errorSummary, money, postForm, selectField, submit, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { orderItems, orders, profile, type OrderRow } from './queries';
import { ORDER_STATUSES, PAYMENT, SHIPPING } from './seed';

function ordersPage(ctx: RequestCtx): Reply {
  const status = ctx.q('status').toLowerCase();
  if (status && !ORDER_STATUSES.some((s) => s.toLowerCase() === status)) return ctx.badRequest(`"${status}" is not an order status.`);
  const list = orders(ctx.db, status);
  return ctx.render({
    title: 'Your orders',
    body: html`<form method="get" action="${ctx.href('/orders')}" class="row" aria-label="Filter orders">
${selectField({ label: 'Status', name: 'status', value: status, options: [{ value: '', text: 'All orders' }, ...ORDER_STATUSES.map((s) => ({ value: s.toLowerCase(), text: s }))] })}
${submit('Filter orders')}</form>
${list.length ? html`<table><thead><tr><th>Order</th><th>Placed</th><th>Status</th><th>Total</th></tr></thead><tbody>${list.map(
  (o) => html`<tr><td><a href="${ctx.href(`/orders/${o.id}`)}">${o.id}</a></td><td>${o.placed}</td><td>${o.status}</td><td>${money(o.total)}</td></tr>`,
)}</tbody></table>` : html`<p>No orders${status ? ` with status ${status}` : ''}.</p>`}`,
  });
}

function getOrder(ctx: RequestCtx): OrderRow | undefined {
  return ctx.db.prepare('SELECT * FROM orders WHERE id = ?').get(ctx.params.id ?? '') as OrderRow | undefined;
}

function orderPage(ctx: RequestCtx): Reply {
  const o = getOrder(ctx);
  if (!o) return ctx.notFound('We could not find that order.');
  const items = orderItems(ctx.db, o.id);
  const ship = SHIPPING.find((s) => s.value === o.shipping);
  const pay = PAYMENT.find((p) => p.value === o.payment);
  return ctx.render({
    title: `Order ${o.id}`,
    body: html`<p>Placed on ${o.placed} · Status: <strong>${o.status}</strong></p>
<table><thead><tr><th>Item</th><th>Quantity</th><th>Price</th></tr></thead><tbody>${items.map(
      (i) => html`<tr><td><a href="${ctx.href(`/products/${i.product_id}`)}">${i.name}</a></td><td>${i.quantity}</td><td>${money(i.price * i.quantity)}</td></tr>`,
    )}</tbody></table>
<p>Subtotal: ${money(o.subtotal)} · Shipping (${ship?.text ?? o.shipping}): ${money(o.shipping_cost)} · <strong>Total: ${money(o.total)}</strong></p>
<h2>Shipping to</h2><p>${o.ship_to}<br>${o.street}<br>${o.city} ${o.zip}</p><p>Paid with ${pay?.text ?? o.payment}</p>
${o.status === 'Processing' ? postForm(ctx.href(`/orders/${o.id}/cancel`), submit('Cancel order', { variant: 'danger' })) : ''}
<p><a href="${ctx.href('/orders')}">Back to your orders</a></p>`,
  });
}

function cancelOrder(ctx: RequestCtx): Reply {
  const o = getOrder(ctx);
  if (!o) return ctx.notFound('We could not find that order.');
  if (o.status !== 'Processing') {
    ctx.flash(`Order ${o.id} is ${o.status.toLowerCase()} and can no longer be cancelled.`);
    return ctx.redirect(`/orders/${o.id}`);
  }
  ctx.db.prepare("UPDATE orders SET status = 'Cancelled' WHERE id = ?").run(o.id);
  const restock = ctx.db.prepare('UPDATE products SET stock = stock + ? WHERE id = ?');
  for (const i of orderItems(ctx.db, o.id)) restock.run(i.quantity, i.product_id);
  ctx.flash(`Order ${o.id} has been cancelled.`);
  return ctx.redirect(`/orders/${o.id}`);
}

const FIELDS = ['name', 'email', 'phone', 'street', 'city', 'zip'] as const;

function accountPage(ctx: RequestCtx, values?: Record<string, string>, errors: Record<string, string> = {}): Reply {
  const me = profile(ctx.db);
  const v: Record<string, string> = values ?? { name: me.name, email: me.email, phone: me.phone, street: me.street, city: me.city, zip: me.zip };
  const newsletter = values ? values.newsletter === '1' : me.newsletter === 1;
  return ctx.render({
    title: 'Your account',
    status: Object.keys(errors).length ? 422 : 200,
    body: html`${errorSummary(errors)}${postForm(ctx.href('/account'), html`
${textField({ label: 'Full name', name: 'name', value: v.name, error: errors.name })}
${textField({ label: 'Email', name: 'email', type: 'email', value: v.email, error: errors.email })}
${textField({ label: 'Phone', name: 'phone', type: 'tel', value: v.phone, error: errors.phone })}
${textField({ label: 'Street address', name: 'street', value: v.street, error: errors.street })}
${textField({ label: 'City', name: 'city', value: v.city, error: errors.city })}
${textField({ label: 'ZIP code', name: 'zip', value: v.zip, error: errors.zip })}
${checkbox({ label: 'Email me the newsletter', name: 'newsletter', checked: newsletter })}
${submit('Save changes')}`, { label: 'Account details' })}`,
  });
}

function saveAccount(ctx: RequestCtx): Reply {
  const values: Record<string, string> = Object.fromEntries(FIELDS.map((k) => [k, ctx.field(k)]));
  values.newsletter = ctx.field('newsletter') === '1' ? '1' : '0';
  const errors: Record<string, string> = {};
  if (!values.name) errors.name = 'Enter your name.';
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(values.email ?? '')) errors.email = 'Enter a valid email address.';
  if (!/^[0-9()+\-. ]{7,20}$/.test(values.phone ?? '')) errors.phone = 'Enter a phone number (digits, spaces, dashes, parentheses).';
  if (!values.street) errors.street = 'Enter a street address.';
  if (!values.city) errors.city = 'Enter a city.';
  if (!/^\d{5}$/.test(values.zip ?? '')) errors.zip = 'Enter a 5-digit ZIP code.';
  if (Object.keys(errors).length) return accountPage(ctx, values, errors);
  ctx.db
    .prepare('UPDATE profile SET name = ?, email = ?, phone = ?, street = ?, city = ?, zip = ?, newsletter = ? WHERE id = 1')
    .run(values.name, values.email, values.phone, values.street, values.city, values.zip, Number(values.newsletter));
  ctx.flash('Your account details were saved.');
  return ctx.redirect('/account');
}

/** Registers the order history and the account page. */
export function accountRoutes(r: Router<Handler>): void {
  r.get('/orders', ordersPage);
  r.get('/orders/:id', orderPage);
  r.post('/orders/:id/cancel', cancelOrder);
  r.get('/account', (ctx) => accountPage(ctx));
  r.post('/account', saveAccount);
}
