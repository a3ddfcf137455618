/**
 * The fake `e-commerce` site (ShopHub): products (keyed by `asin`, as MiniWeb's), a cart collection, and a checkout
 * that asks for a mailed code (`purchase`); on the right code the order is saved (`orders`, its `items` a JSON list)
 * and the cart emptied.
 * @module
 */
import type { Row, TableSpec } from '../db';
import { esc, money, page } from '../html';
import { errorPage, html, json, redirect, type Ctx, type Reply, type Route } from '../http';
import { request2fa, type Events } from '../payments';
import { round2 } from '../pyjson';
import { currentUid, intOf, today, type SiteModule } from '../site';

const SITE = 'e-commerce';
const BRAND = 'ShopHub';
const HOME = '/sites/e-commerce/';

const TABLES: TableSpec[] = [
  {
    collection: 'products',
    table: 'e_commerce_products',
    pk: 'asin',
    columns: [
      ['id', 'INTEGER NOT NULL DEFAULT 0'],
      ['asin', 'TEXT PRIMARY KEY'],
      ['name', "TEXT NOT NULL DEFAULT ''"],
      ['brand', "TEXT NOT NULL DEFAULT ''"],
      ['price', 'REAL NOT NULL DEFAULT 0.0'],
      ['category', "TEXT NOT NULL DEFAULT ''"],
      ['images', "TEXT NOT NULL DEFAULT ''"],
      ['availability_quantity', 'INTEGER NOT NULL DEFAULT 0'],
    ],
    indexes: ['id', 'category'],
    rows: [
      { id: 1, asin: 'B0FAKE0001', name: 'Trail Water Bottle 1L', brand: 'Cascadia Gear', price: 18.99, category: 'Sports & Outdoors', images: ['bottle.jpg'], availability_quantity: 40 },
      { id: 2, asin: 'B0FAKE0002', name: 'Wireless Earbuds', brand: 'Soundwave', price: 59.5, category: 'Electronics', images: ['earbuds.jpg', 'earbuds-case.jpg'], availability_quantity: 12 },
      { id: 3, asin: 'B0FAKE0003', name: 'Cast Iron Skillet', brand: 'Lakeport Kitchen', price: 34.0, category: 'Home & Kitchen', images: [], availability_quantity: 7 },
    ],
  },
  {
    collection: 'users',
    table: 'e_commerce_users',
    columns: [
      ['id', 'INTEGER PRIMARY KEY'],
      ['root_user_id', 'INTEGER NOT NULL DEFAULT 0'],
      ['username', "TEXT NOT NULL DEFAULT ''"],
      ['name', "TEXT NOT NULL DEFAULT ''"],
      ['email', "TEXT NOT NULL DEFAULT ''"],
    ],
    rows: [{ id: 1, root_user_id: 1, username: 'user1', name: 'Alex Rivera', email: 'alex.rivera@meridiansystems.com' }],
  },
  {
    collection: 'cart',
    table: 'e_commerce_cart',
    columns: [
      ['id', 'INTEGER PRIMARY KEY'],
      ['user_id', 'INTEGER NOT NULL DEFAULT 0'],
      ['product_id', 'INTEGER NOT NULL DEFAULT 0'],
      ['quantity', 'INTEGER NOT NULL DEFAULT 1'],
    ],
    indexes: ['user_id'],
    rows: [],
  },
  {
    collection: 'orders',
    table: 'e_commerce_orders',
    columns: [
      ['id', 'TEXT PRIMARY KEY'],
      ['user_id', 'INTEGER NOT NULL DEFAULT 0'],
      ['date', "TEXT NOT NULL DEFAULT ''"],
      ['items', "TEXT NOT NULL DEFAULT '[]'"],
      ['total', 'REAL NOT NULL DEFAULT 0.0'],
      ['status', "TEXT NOT NULL DEFAULT ''"],
    ],
    indexes: ['user_id'],
    rows: [{ id: 'ORD-20260601-001', user_id: 1, date: '2026-06-01', items: [{ product_id: 3, name: 'Cast Iron Skillet', price: 34.0, quantity: 1 }], total: 34.0, status: 'delivered' }],
  },
];

function view(title: string, body: string): Reply {
  const nav = [
    { href: '/sites/e-commerce/cart', text: 'Cart' },
    { href: '/sites/e-commerce/orders', text: 'Orders' },
  ];
  return html(page({ title: `${title} - ${BRAND}`, brand: BRAND, home: HOME, nav, body }));
}

function product(ctx: Ctx, id: unknown): Row | null {
  return ctx.data.query(SITE, 'products', { where: { id }, limit: 1 })[0] ?? null;
}

function cartOf(ctx: Ctx, uid: number): { row: Row; product: Row }[] {
  return ctx.data
    .query(SITE, 'cart', { where: { user_id: uid }, sort: 'id' })
    .map((row) => ({ row, product: product(ctx, row.product_id) }))
    .filter((c): c is { row: Row; product: Row } => c.product !== null);
}

const signIn = (): Reply => view('Sign In', '<h1>Please sign in</h1>');

function routes(events: Events): Route[] {
  events.on('purchase', function placeOrder(ctx, kwargs) {
    const uid = Number(kwargs.user_id ?? 1);
    const order = { id: kwargs.order_id, user_id: uid, date: today(), items: kwargs.items ?? [], total: kwargs.amount, status: 'processing' };
    ctx.data.saveItem(SITE, 'orders', order.id, order);
    for (const c of ctx.data.query(SITE, 'cart', { where: { user_id: uid } })) ctx.data.deleteItem(SITE, 'cart', c.id);
  });
  return [
    {
      method: 'GET',
      path: '/sites/e-commerce/',
      handle: (ctx) => {
        const items = ctx.data.query(SITE, 'products', { sort: 'name' });
        const list = items.map((p) => `<li class="card"><a href="/sites/e-commerce/product/${esc(p.id)}">${esc(p.name)}</a> — ${money(p.price)}</li>`);
        return html(page({ title: `${BRAND} - Online Marketplace`, brand: BRAND, home: HOME, nav: [{ href: '/sites/e-commerce/cart', text: 'Cart' }], body: `<h1>Products</h1><ul>${list.join('')}</ul>` }));
      },
    },
    {
      method: 'GET',
      path: '/sites/e-commerce/product/:id',
      handle: (ctx) => {
        const p = product(ctx, intOf(ctx.params.id));
        if (!p) return errorPage(404);
        return view(
          String(p.name),
          `<h1>${esc(p.name)}</h1><p>${esc(p.brand)} · ${money(p.price)}</p>
<form method="post" action="/sites/e-commerce/cart/add"><input type="hidden" name="product_id" value="${esc(p.id)}">
<label for="quantity">Quantity</label><input type="number" id="quantity" name="quantity" value="1" min="1"><p><button type="submit">Add to cart</button></p></form>`,
        );
      },
    },
    {
      method: 'POST',
      path: '/sites/e-commerce/cart/add',
      handle: (ctx) => {
        const uid = currentUid(ctx);
        if (uid === null) return signIn();
        const productId = intOf(ctx.field('product_id'));
        const quantity = intOf(ctx.field('quantity') || '1') ?? 1;
        if (!productId || quantity < 1 || !product(ctx, productId)) return redirect(HOME);
        const existing = ctx.data.query(SITE, 'cart', { where: { user_id: uid, product_id: productId }, limit: 1 })[0];
        if (existing) ctx.data.saveItem(SITE, 'cart', existing.id, { ...existing, quantity: Number(existing.quantity) + quantity });
        else {
          const id = ctx.data.nextId(SITE, 'cart');
          ctx.data.saveItem(SITE, 'cart', id, { id, user_id: uid, product_id: productId, quantity });
        }
        return redirect('/sites/e-commerce/cart');
      },
    },
    {
      method: 'GET',
      path: '/sites/e-commerce/cart',
      handle: (ctx) => {
        const uid = currentUid(ctx);
        if (uid === null) return signIn();
        const cart = cartOf(ctx, uid);
        if (!cart.length) return view('Shopping Cart', '<h1>Your cart is empty</h1>');
        const total = round2(cart.reduce((s, c) => s + Number(c.product.price) * Number(c.row.quantity), 0));
        const rows = cart.map((c) => `<tr><td>${esc(c.product.name)}</td><td>${esc(c.row.quantity)}</td><td>${money(Number(c.product.price) * Number(c.row.quantity))}</td></tr>`);
        return view(
          'Shopping Cart',
          `<h1>Shopping cart</h1><table>${rows.join('')}</table><p>Total: <strong>${money(total)}</strong></p>
<form method="post" action="/sites/e-commerce/checkout"><button type="submit">Checkout</button></form>`,
        );
      },
    },
    {
      method: 'POST',
      path: '/sites/e-commerce/checkout',
      handle: (ctx) => {
        const uid = currentUid(ctx);
        if (uid === null) return signIn();
        const cart = cartOf(ctx, uid);
        if (!cart.length) return redirect('/sites/e-commerce/cart');
        const items = cart.map((c) => ({ product_id: c.product.id, name: c.product.name, price: c.product.price, quantity: c.row.quantity }));
        const total = round2(items.reduce((s, i) => s + Number(i.price) * Number(i.quantity), 0));
        const count = ctx.data.query(SITE, 'orders', { where: { user_id: uid } }).length;
        const orderId = `ORD-${today().replace(/-/g, '')}-${String(count + 1).padStart(3, '0')}`;
        const kwargs = {
          user_id: uid,
          merchant: 'MiniWeb Store',
          amount: total,
          item_description: items.slice(0, 3).map((i) => String(i.name)).join(', '),
          order_id: orderId,
          account_type: 'checking',
          items,
        };
        return redirect(request2fa(ctx, events, 'purchase', `/sites/e-commerce/orders/${orderId}`, kwargs));
      },
    },
    {
      method: 'GET',
      path: '/sites/e-commerce/orders',
      handle: (ctx) => {
        const uid = currentUid(ctx);
        if (uid === null) return signIn();
        const orders = ctx.data.query(SITE, 'orders', { where: { user_id: uid }, sort: '-date' });
        const list = orders.map((o) => `<li class="card"><a href="/sites/e-commerce/orders/${esc(o.id)}">${esc(o.id)}</a> — ${money(o.total)} — ${esc(o.status)}</li>`);
        return view('Your Orders', `<h1>Your orders</h1><ul>${list.join('')}</ul>`);
      },
    },
    {
      method: 'GET',
      path: '/sites/e-commerce/orders/:id',
      handle: (ctx) => {
        const o = ctx.data.getItem(SITE, 'orders', ctx.params.id);
        if (!o || o.user_id !== currentUid(ctx)) return errorPage(404);
        const items = Array.isArray(o.items) ? (o.items as Row[]) : [];
        const placed = o.status === 'processing' ? '<p class="ok">Order placed</p>' : '';
        const lines = items.map((i) => `<li>${esc(i.quantity)} × ${esc(i.name)} — ${money(i.price)}</li>`).join('');
        return view(`Order ${String(o.id)}`, `<h1>Order ${esc(o.id)}</h1>${placed}<ul>${lines}</ul><p>Total: ${money(o.total)}</p><p>Status: ${esc(o.status)}</p>`);
      },
    },
    { method: 'GET', path: '/sites/e-commerce/api/products', handle: (ctx) => json(ctx.data.query(SITE, 'products', { sort: 'name' })) },
  ];
}

/** ShopHub. */
export const ecommerce: SiteModule = {
  id: SITE,
  name: 'E-commerce',
  description: 'E-commerce - Shopping & transactional',
  tables: TABLES,
  install: routes,
};
