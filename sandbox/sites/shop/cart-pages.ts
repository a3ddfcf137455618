/** The shop's cart, wishlist and checkout. @module */
import { html } from '../../html';
import { errorSummary, money, postForm, radioGroup, selectField, submit, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { productPage } from './catalog-pages';
import { cartItems, cartSubtotal, getProduct, profile, wishlist } from './queries';
import { PAYMENT, SHIPPING } from './seed';
import { THEMES } from './themes';

function intField(raw: string, min: number, max: number): number | undefined {
  if (!/^\d{1,4}$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= min && n <= max ? n : undefined;
}

function cartPage(ctx: RequestCtx, errors: Record<string, string> = {}): Reply {
  const items = cartItems(ctx.db);
  const subtotal = cartSubtotal(items);
  const rows = items.map(
    (i) => html`<tr><td><a href="${ctx.href(`/products/${i.product_id}`)}">${i.name}</a></td><td>${money(i.price)}</td>
<td>${postForm(ctx.href('/cart/update'), html`<input type="hidden" name="item_id" value="${i.id}">
<input type="number" name="quantity" min="0" max="99" value="${i.quantity}" aria-label="Quantity for ${i.name}">
${submit('Update', { label: `Update quantity of ${i.name}`, variant: 'secondary' })}`, { inline: true })}</td>
<td>${money(i.price * i.quantity)}</td>
<td>${postForm(ctx.href('/cart/remove'), html`<input type="hidden" name="item_id" value="${i.id}">${submit('Remove', { label: `Remove ${i.name}`, variant: 'danger' })}`, { inline: true })}</td></tr>`,
  );
  return ctx.render({
    title: 'Shopping cart',
    status: Object.keys(errors).length ? 422 : 200,
    body: items.length
      ? html`${errorSummary(errors)}<table><thead><tr><th>Product</th><th>Price</th><th>Quantity</th><th>Total</th><th></th></tr></thead>
<tbody>${rows}</tbody></table><p>Subtotal (${items.reduce((s, i) => s + i.quantity, 0)} items): <strong>${money(subtotal)}</strong></p>
<p><a class="button" href="${ctx.href('/checkout')}">Proceed to checkout</a></p>`
      : html`<p>Your cart is empty.</p><p><a href="${ctx.href('/products')}">Continue shopping</a></p>`,
  });
}

function addToCart(ctx: RequestCtx): Reply {
  const id = intField(ctx.field('product_id'), 1, 1e9);
  const product = id === undefined ? undefined : getProduct(ctx.db, id);
  if (!product) return ctx.notFound('That product does not exist.');
  const raw = ctx.field('quantity') || '1';
  const qty = intField(raw, 1, 99);
  const inCart = (ctx.db.prepare('SELECT quantity FROM cart_items WHERE product_id = ?').get(product.id) as { quantity: number } | undefined)?.quantity ?? 0;
  let error: string | undefined;
  if (qty === undefined) error = 'Enter a quantity from 1 to 99.';
  else if (product.stock === 0) error = 'This product is out of stock.';
  else if (qty + inCart > product.stock) error = `Only ${product.stock} left in stock${inCart ? ` (you already have ${inCart} in your cart)` : ''}.`;
  if (error || qty === undefined) return productPage(ctx, product.id, { cartError: error, quantity: raw });
  if (inCart) ctx.db.prepare('UPDATE cart_items SET quantity = quantity + ? WHERE product_id = ?').run(qty, product.id);
  else ctx.db.prepare('INSERT INTO cart_items (product_id, name, price, quantity) VALUES (?, ?, ?, ?)').run(product.id, product.name, product.price, qty);
  ctx.flash(`Added ${qty} × ${product.name} to your cart.`);
  return ctx.redirect('/cart');
}

function cartItem(ctx: RequestCtx): { id: number; name: string; product_id: number } | undefined {
  const id = intField(ctx.field('item_id'), 1, 1e9);
  return id === undefined ? undefined : (ctx.db.prepare('SELECT id, name, product_id FROM cart_items WHERE id = ?').get(id) as { id: number; name: string; product_id: number } | undefined);
}

function updateCart(ctx: RequestCtx): Reply {
  const item = cartItem(ctx);
  if (!item) return ctx.notFound('That item is not in your cart any more.');
  const qty = intField(ctx.field('quantity'), 0, 99);
  if (qty === undefined) return cartPage(ctx, { quantity: `Enter a quantity from 0 to 99 for ${item.name}.` });
  if (qty === 0) {
    ctx.db.prepare('DELETE FROM cart_items WHERE id = ?').run(item.id);
    ctx.flash(`Removed ${item.name} from your cart.`);
    return ctx.redirect('/cart');
  }
  const stock = getProduct(ctx.db, item.product_id)?.stock ?? 0;
  if (qty > stock) return cartPage(ctx, { quantity: `Only ${stock} of ${item.name} left in stock.` });
  ctx.db.prepare('UPDATE cart_items SET quantity = ? WHERE id = ?').run(qty, item.id);
  ctx.flash(`Updated the quantity of ${item.name} to ${qty}.`);
  return ctx.redirect('/cart');
}

function removeFromCart(ctx: RequestCtx): Reply {
  const item = cartItem(ctx);
  if (!item) return ctx.notFound('That item is not in your cart any more.');
  ctx.db.prepare('DELETE FROM cart_items WHERE id = ?').run(item.id);
  ctx.flash(`Removed ${item.name} from your cart.`);
  return ctx.redirect('/cart');
}

function wishlistPage(ctx: RequestCtx): Reply {
  const items = wishlist(ctx.db);
  return ctx.render({
    title: 'Wishlist',
    body: items.length
      ? html`<table><tbody>${items.map(
          (w) => html`<tr><td><a href="${ctx.href(`/products/${w.product_id}`)}">${w.name}</a></td><td class="muted">Saved ${w.added}</td>
<td>${postForm(ctx.href('/wishlist/remove'), html`<input type="hidden" name="product_id" value="${w.product_id}">${submit('Remove', { label: `Remove ${w.name} from wishlist`, variant: 'secondary' })}`, { inline: true })}</td></tr>`,
        )}</tbody></table>`
      : html`<p>Your wishlist is empty.</p>`,
  });
}

function wishlistChange(add: boolean): Handler {
  return (ctx) => {
    const id = intField(ctx.field('product_id'), 1, 1e9);
    const product = id === undefined ? undefined : getProduct(ctx.db, id);
    if (!product) return ctx.notFound('That product does not exist.');
    if (add) {
      ctx.db.prepare('INSERT OR IGNORE INTO wishlist (product_id, name, added) VALUES (?, ?, ?)').run(product.id, product.name, ctx.site.today);
      ctx.flash(`Saved ${product.name} to your wishlist.`);
      return ctx.redirect(`/products/${product.id}`);
    }
    ctx.db.prepare('DELETE FROM wishlist WHERE product_id = ?').run(product.id);
    ctx.flash(`Removed ${product.name} from your wishlist.`);
    return ctx.redirect('/wishlist');
  };
}

function checkoutPage(ctx: RequestCtx, values: Record<string, string> = {}, errors: Record<string, string> = {}): Reply {
  const items = cartItems(ctx.db);
  if (!items.length) return ctx.render({ title: 'Checkout', body: html`<p>Your cart is empty.</p><p><a href="${ctx.href('/products')}">Continue shopping</a></p>` });
  const me = profile(ctx.db);
  const v = { name: me.name, street: me.street, city: me.city, zip: me.zip, shipping: 'standard', payment: 'visa', ...values };
  return ctx.render({
    title: 'Checkout',
    status: Object.keys(errors).length ? 422 : 200,
    body: html`${errorSummary(errors)}<h2>Order summary</h2><ul>${items.map((i) => html`<li>${i.quantity} × ${i.name} — ${money(i.price * i.quantity)}</li>`)}</ul>
<p>Subtotal: ${money(cartSubtotal(items))}</p>
${postForm(ctx.href('/checkout'), html`<h2>Shipping address</h2>
${textField({ label: 'Full name', name: 'name', value: v.name, required: true, error: errors.name })}
${textField({ label: 'Street address', name: 'street', value: v.street, required: true, error: errors.street })}
${textField({ label: 'City', name: 'city', value: v.city, required: true, error: errors.city })}
${textField({ label: 'ZIP code', name: 'zip', value: v.zip, required: true, error: errors.zip })}
${radioGroup({ legend: 'Shipping method', name: 'shipping', value: v.shipping, error: errors.shipping, options: SHIPPING.map((s) => ({ value: s.value, text: `${s.text} (${money(s.cost)})` })) })}
${selectField({ label: 'Payment method', name: 'payment', value: v.payment, error: errors.payment, options: PAYMENT })}
${submit('Place order')}`, { label: 'Checkout' })}`,
  });
}

function placeOrder(ctx: RequestCtx): Reply {
  const items = cartItems(ctx.db);
  if (!items.length) return checkoutPage(ctx);
  const values = Object.fromEntries(['name', 'street', 'city', 'zip', 'shipping', 'payment'].map((k) => [k, ctx.field(k)]));
  const errors: Record<string, string> = {};
  if (!values.name) errors.name = 'Enter the name of the person receiving the order.';
  if (!values.street) errors.street = 'Enter a street address.';
  if (!values.city) errors.city = 'Enter a city.';
  if (!/^\d{5}$/.test(values.zip ?? '')) errors.zip = 'Enter a 5-digit ZIP code.';
  const ship = SHIPPING.find((s) => s.value === values.shipping);
  if (!ship) errors.shipping = 'Choose a shipping method.';
  if (!PAYMENT.some((p) => p.value === values.payment)) errors.payment = 'Choose a payment method.';
  for (const i of items) if (i.quantity > i.stock) errors[`stock${i.id}`] = `Only ${i.stock} of ${i.name} left in stock; update your cart.`;
  if (Object.keys(errors).length || !ship) return checkoutPage(ctx, values, errors);
  const prefix = THEMES[(ctx.site.variant - 1) % THEMES.length]?.prefix ?? 'SO';
  const last = ctx.db.prepare('SELECT id FROM orders ORDER BY CAST(substr(id, 4) AS INTEGER) DESC LIMIT 1').get() as { id: string } | undefined;
  const id = `${prefix}-${Number(last?.id.slice(3) ?? 10000) + 1}`;
  const subtotal = cartSubtotal(items);
  ctx.db
    .prepare(`INSERT INTO orders (id, status, placed, ship_to, street, city, zip, shipping, payment, subtotal, shipping_cost, total)
      VALUES (?, 'Processing', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(id, ctx.site.today, values.name, values.street, values.city, values.zip, ship.value, values.payment, subtotal, ship.cost,
      Math.round((subtotal + ship.cost) * 100) / 100);
  for (const i of items) {
    ctx.db.prepare('INSERT INTO order_items (order_id, product_id, name, price, quantity) VALUES (?, ?, ?, ?, ?)').run(id, i.product_id, i.name, i.price, i.quantity);
    ctx.db.prepare('UPDATE products SET stock = stock - ? WHERE id = ?').run(i.quantity, i.product_id);
  }
  ctx.db.prepare('DELETE FROM cart_items').run();
  ctx.flash(`Thank you! Your order ${id} has been placed.`);
  return ctx.redirect(`/orders/${id}`);
}

/** Registers the cart, wishlist and checkout. */
export function cartRoutes(r: Router<Handler>): void {
  r.get('/cart', (ctx) => cartPage(ctx));
  r.post('/cart/add', addToCart);
  r.post('/cart/update', updateCart);
  r.post('/cart/remove', removeFromCart);
  r.get('/wishlist', wishlistPage);
  r.post('/wishlist/add', wishlistChange(true));
  r.post('/wishlist/remove', wishlistChange(false));
  r.get('/checkout', (ctx) => checkoutPage(ctx));
  r.post('/checkout', placeOrder);
}
