/** The shop's tasks: info and action generators over the site's data, each with a verifier and an oracle. @module */
import { money } from '../../layout';
import { answer, firstIsHuman, noRow, request, roundRobin, row, step } from '../../task-kit';
import type { TaskInput, TaskSpec } from '../../template';
import { PAGE_SIZE } from './catalog-pages';
import { SORTS, cartItems, cartSubtotal, categories, findProducts, orders, profile, wishlist, type ProductRow } from './queries';
import { PAYMENT, SHIPPING } from './seed';

const SEARCH = 'Search products';

function openProduct(p: ProductRow) {
  return [step.search(SEARCH, p.name), step.link(p.name)];
}

/** Generates the shop's tasks (about 450 per site); the first of most generators is a human task. */
export function shopTasks({ db, href, faker }: TaskInput): TaskSpec[] {
  const products = findProducts(db, {});
  const cats = categories(db);
  const cart = cartItems(db);
  const wish = wishlist(db);
  const orderList = orders(db);
  const me = profile(db);
  const ordered = new Set((db.prepare('SELECT DISTINCT product_id FROM order_items').all() as Array<{ product_id: number }>).map((r) => r.product_id));
  const inCart = new Set(cart.map((c) => c.product_id));
  const saved = new Set(wish.map((w) => w.product_id));
  const mix = (): ProductRow[] => faker.helpers.shuffle([...products]);
  const info: TaskSpec[][] = [];
  const act: TaskSpec[][] = [];

  info.push(mix().map((p) => ({
    slug: `price-${p.id}`, kind: 'info', instruction: `What does the ${p.name} cost? Report the price.`,
    verifier: { answer: answer.number(p.price) }, oracle: [...openProduct(p), step.done(money(p.price))],
  })));
  info.push(mix().map((p) => ({
    slug: `brand-${p.id}`, kind: 'info', instruction: `Which brand makes the ${p.name}?`,
    verifier: { answer: answer.includes(p.brand) }, oracle: [...openProduct(p), step.done(p.brand)],
  })));
  info.push(mix().filter((p) => p.stock > 0).map((p) => ({
    slug: `stock-${p.id}`, kind: 'info', instruction: `How many units of the ${p.name} are left in stock?`,
    verifier: { answer: answer.number(p.stock, 0) }, oracle: [...openProduct(p), step.done(`${p.stock} left`)],
  })));
  info.push(mix().filter((p) => p.reviews > 0).map((p) => ({
    slug: `reviews-${p.id}`, kind: 'info', instruction: `How many customer reviews does the ${p.name} have?`,
    verifier: { answer: answer.number(p.reviews, 0) }, oracle: [...openProduct(p), step.done(`${p.reviews} reviews`)],
  })));
  const cheapest: TaskSpec[] = [];
  const best: TaskSpec[] = [];
  for (const c of cats) {
    const byPrice = findProducts(db, { category: c.slug, sort: 'price_asc' });
    const [a, b] = byPrice;
    if (a && (!b || b.price > a.price)) cheapest.push({
      slug: `cheapest-${c.slug}`, kind: 'info', instruction: `Which is the cheapest product in the ${c.name} category? Report its name.`,
      verifier: { answer: answer.includes(a.name) },
      oracle: [step.link(c.name), step.select('Sort by', 'Price: low to high'), step.button('Apply filters'), step.done(a.name)],
    });
    const [top, next] = findProducts(db, { category: c.slug, sort: 'rating' });
    if (top?.rating && top.reviews >= 2 && (!next || (next.rating ?? 0) < top.rating)) best.push({
      slug: `top-rated-${c.slug}`, kind: 'info', instruction: `Which ${c.name} product has the best customer rating? Report its name.`,
      verifier: { answer: answer.includes(top.name) },
      oracle: [step.link(c.name), step.select('Sort by', 'Customer rating'), step.button('Apply filters'), step.done(top.name)],
    });
  }
  info.push(cheapest, best);
  info.push(cats.map((c) => ({
    slug: `count-${c.slug}`, kind: 'info', instruction: `How many products are in the ${c.name} category?`,
    verifier: { answer: answer.number(c.products, 0) }, oracle: [step.link(c.name), step.done(`${c.products} products`)],
  })));
  info.push(orderList.map((o) => ({
    slug: `order-status-${o.id}`, kind: 'info', instruction: `What is the status of my order ${o.id}?`,
    verifier: { answer: answer.includes(o.status) }, oracle: [step.link('Orders'), step.link(o.id), step.done(o.status)],
  })));
  info.push(orderList.map((o) => ({
    slug: `order-total-${o.id}`, kind: 'info', instruction: `How much did I pay in total for order ${o.id}, shipping included?`,
    verifier: { answer: answer.number(o.total) }, oracle: [step.link('Orders'), step.link(o.id), step.done(money(o.total))],
  })));
  info.push([{
    slug: 'cart-subtotal', kind: 'info', instruction: 'What is the subtotal of my shopping cart right now?',
    verifier: { answer: answer.number(cartSubtotal(cart)) }, oracle: [step.link('Cart'), step.done(money(cartSubtotal(cart)))],
  }]);

  act.push(mix().filter((p) => p.stock >= 3 && !inCart.has(p.id)).map((p, i) => {
    const qty = 1 + (i % 3);
    return {
      slug: `cart-add-${p.id}`, kind: 'action', instruction: qty === 1 ? `Add the ${p.name} to my cart.` : `Add ${qty} of the ${p.name} to my cart.`,
      verifier: { requests: [request('POST', href('/cart/add'), { product_id: p.id })], state: [row('cart_items', { product_id: p.id }, { quantity: qty })] },
      oracle: [...openProduct(p), ...(qty === 1 ? [] : [step.type('Quantity', String(qty), { role: 'spinbutton' })]), step.button('Add to cart'), step.done()],
    };
  }));
  act.push(mix().filter((p) => !saved.has(p.id)).map((p) => ({
    slug: `wishlist-add-${p.id}`, kind: 'action', instruction: `Save the ${p.name} to my wishlist.`,
    verifier: { state: [row('wishlist', { product_id: p.id })] }, oracle: [...openProduct(p), step.button('Add to wishlist'), step.done()],
  })));
  act.push(mix().slice(0, 40).map((p, i) => {
    const rating = 5 - (i % 5);
    const title = faker.helpers.arrayElement(['Just what I needed', 'Great for the price', 'Not bad at all', 'Would recommend', 'Could be better']);
    const body = faker.helpers.arrayElement(['It arrived on time and works well.', 'Solid build and easy to use.', 'Does what it says.']);
    return {
      slug: `review-${p.id}`, kind: 'action',
      instruction: `Write a ${rating}-star review of the ${p.name} titled "${title}" that says "${body}"`,
      verifier: { state: [row('reviews', { product_id: p.id, title }, { rating, body })] },
      oracle: [...openProduct(p), step.type('Review title', title), step.select('Rating', `${rating} star${rating === 1 ? '' : 's'}`),
        step.type('Your review', body), step.button('Submit review'), step.done()],
    };
  }));
  const terms = [...new Set(products.map((p) => p.name.split(' ').slice(-1)[0]?.toLowerCase() ?? ''))].filter((t) => t.length > 3);
  act.push(terms.map((term, i) => {
    const sort = SORTS[1 + (i % (SORTS.length - 1))] ?? SORTS[1];
    const phrase: Record<string, string> = { price_asc: 'by price from low to high', price_desc: 'by price from high to low', rating: 'with the best rated first', newest: 'with the newest first', name: 'alphabetically by name' };
    return {
      slug: `search-${term.replace(/[^a-z0-9]/g, '')}-${sort.value}`, kind: 'action',
      instruction: `Search for ${term} and sort the results ${phrase[sort.value] ?? sort.text}.`,
      verifier: { requests: [request('GET', href('/products'), { q: term, sort: sort.value })] },
      oracle: [step.search(SEARCH, term), step.select('Sort by', sort.text), step.button('Apply filters'), step.done()],
    };
  }));
  act.push(cats.map((c) => ({
    slug: `in-stock-${c.slug}`, kind: 'action', instruction: `Show me only the ${c.name} products that are in stock.`,
    verifier: { requests: [request('GET', href('/products'), { category: c.slug, in_stock: '1' })] },
    oracle: [step.link(c.name), step.check('In stock only'), step.button('Apply filters'), step.done()],
  })));
  act.push(cats.map((c, i) => {
    const max = [25, 50, 75, 100, 150, 200][i % 6] ?? 50;
    return {
      slug: `max-price-${c.slug}`, kind: 'action', instruction: `List the ${c.name} products that cost at most $${max}.`,
      verifier: { requests: [request('GET', href('/products'), { category: c.slug, max_price: max })] },
      oracle: [step.link(c.name), step.type('Max price', String(max), { role: 'spinbutton' }), step.button('Apply filters'), step.done()],
    };
  }));
  act.push(cats.filter((c) => c.products > PAGE_SIZE).map((c) => ({
    slug: `page2-${c.slug}`, kind: 'action', instruction: `Open the second page of products in the ${c.name} category.`,
    verifier: { requests: [request('GET', href('/products'), { category: c.slug, page: 2 })] },
    oracle: [step.link(c.name), step.link('Next page'), step.done()],
  })));
  act.push(cart.map((c) => ({
    slug: `cart-remove-${c.product_id}`, kind: 'action', instruction: `Remove the ${c.name} from my cart.`,
    verifier: { state: [noRow('cart_items', { product_id: c.product_id })] },
    oracle: [step.link('Cart'), step.button(`Remove ${c.name}`), step.done()],
  })));
  act.push(cart.flatMap((c) => {
    const qty = c.quantity + 2 <= c.stock ? c.quantity + 2 : c.quantity - 1;
    if (qty < 1) return [];
    return [{
      slug: `cart-qty-${c.product_id}`, kind: 'action' as const, instruction: `Change the quantity of the ${c.name} in my cart to ${qty}.`,
      verifier: { state: [row('cart_items', { product_id: c.product_id }, { quantity: qty })] },
      oracle: [step.link('Cart'), step.type(`Quantity for ${c.name}`, String(qty), { role: 'spinbutton' }), step.button(`Update quantity of ${c.name}`), step.done()],
    }];
  }));
  act.push(orderList.filter((o) => o.status === 'Processing').map((o) => ({
    slug: `cancel-${o.id}`, kind: 'action', instruction: `Cancel my order ${o.id}.`,
    verifier: { state: [row('orders', { id: o.id }, { status: 'Cancelled' })] },
    oracle: [step.link('Orders'), step.link(o.id), step.button('Cancel order'), step.done()],
  })));
  const combos = [['express', 'paypal'], ['pickup', 'paypal'], ['express', 'mastercard'], ['standard', 'paypal'], ['express', 'visa']] as const;
  act.push(combos.map(([s, pay]) => {
    const ship = SHIPPING.find((x) => x.value === s) ?? SHIPPING[0];
    const payment = PAYMENT.find((x) => x.value === pay) ?? PAYMENT[0];
    const first = cart[0];
    return {
      slug: `checkout-${s}-${pay}`, kind: 'action',
      instruction: `Check out my cart with ${ship.text.toLowerCase()} and pay with ${{ paypal: 'PayPal', visa: 'my Visa card', mastercard: 'my Mastercard' }[pay]}.`,
      verifier: { state: [row('orders', { shipping: s, payment: pay }, { status: 'Processing' }), ...(first ? [noRow('cart_items', { product_id: first.product_id })] : [])] },
      oracle: [step.link('Cart'), step.link('Proceed to checkout'), step.radio(`${ship.text} (${money(ship.cost)})`), step.select('Payment method', payment.text),
        step.button('Place order'), step.done()],
    };
  }));
  act.push(mix().filter((p) => p.stock > 0 && !ordered.has(p.id) && !inCart.has(p.id)).slice(0, 25).map((p) => ({
    slug: `buy-${p.id}`, kind: 'action', instruction: `Buy one ${p.name} with standard shipping.`,
    verifier: {
      state: [row('order_items', { product_id: p.id }, { quantity: 1 })], requests: [request('POST', href('/checkout'), { shipping: 'standard' })],
      // Buying one product is putting it in the cart and placing one order (the site's checkout does the rest).
      allow: [{ table: 'cart_items', op: 'create', where: { product_id: p.id } }, { table: 'orders', op: 'create', where: { shipping: 'standard' } }],
    },
    oracle: [...openProduct(p), step.button('Add to cart'), step.link('Proceed to checkout'), step.radio(`Standard shipping (${money(4.99)})`), step.button('Place order'), step.done()],
  })));
  const phones = Array.from({ length: 4 }, () => faker.helpers.replaceSymbols('(###) 555-####')).filter((x) => x !== me.phone);
  act.push([
    ...phones.map((phone, i) => ({
      slug: `phone-${i}`, kind: 'action' as const, instruction: `Change the phone number on my account to ${phone}.`,
      verifier: { state: [row('profile', { id: 1 }, { phone })] }, oracle: [step.link('Account'), step.type('Phone', phone), step.button('Save changes'), step.done()],
    })),
    {
      slug: 'newsletter-off', kind: 'action', instruction: 'Unsubscribe me from the newsletter.',
      verifier: { state: [row('profile', { id: 1 }, { newsletter: 0 })] },
      oracle: [step.link('Account'), step.check('Email me the newsletter'), step.button('Save changes'), step.done()],
    },
    ...Array.from({ length: 3 }, (_, i) => {
      const street = faker.location.streetAddress();
      const city = faker.location.city();
      const zip = faker.location.zipCode('#####');
      return {
        slug: `address-${i}`, kind: 'action' as const, instruction: `Update my address to ${street}, ${city} ${zip}.`,
        verifier: { state: [row('profile', { id: 1 }, { street, city, zip })] },
        oracle: [step.link('Account'), step.type('Street address', street), step.type('City', city), step.type('ZIP code', zip), step.button('Save changes'), step.done()],
      };
    }),
  ]);
  act.push(['processing', 'shipped', 'delivered', 'cancelled'].map((s) => ({
    slug: `orders-${s}`, kind: 'action', instruction: `Show only my ${s} orders.`,
    verifier: { requests: [request('GET', href('/orders'), { status: s })] },
    oracle: [step.link('Orders'), step.select('Status', s[0]?.toUpperCase() + s.slice(1)), step.button('Filter orders'), step.done()],
  })));
  act.push(wish.map((w) => ({
    slug: `wishlist-remove-${w.product_id}`, kind: 'action', instruction: `Take the ${w.name} off my wishlist.`,
    verifier: { state: [noRow('wishlist', { product_id: w.product_id })] },
    oracle: [step.link('Wishlist'), step.button(`Remove ${w.name} from wishlist`), step.done()],
  })));

  const humanInfo = new Set([0, 1, 3, 4, 6, 7, 9]);
  const humanAct = new Set([0, 2, 3, 4, 7, 8, 9, 10, 12]);
  const mark = (groups: TaskSpec[][], keep: Set<number>) => groups.map((g, i) => (keep.has(i) ? firstIsHuman(g) : g));
  return roundRobin([...mark(info, humanInfo), ...mark(act, humanAct)]);
}
