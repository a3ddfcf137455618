/** The shop's browsing pages: home, catalog, categories, product details with reviews and the JSON API. @module */
import { html, type SafeHtml } from '../../html';
import { checkbox, errorSummary, money, pageNumber, pager, paginate, postForm, ratingText, selectField, submit, textArea, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { SORTS, categories, findProducts, getProduct, reviewsOf, wishlist, type ProductRow } from './queries';

/** Products per catalog page. */
export const PAGE_SIZE = 12;

function stockText(stock: number): string {
  return stock > 0 ? `In stock (${stock} left)` : 'Out of stock';
}

function card(ctx: RequestCtx, p: ProductRow): SafeHtml {
  return html`<div class="card"><a href="${ctx.href(`/products/${p.id}`)}">${p.name}</a>
<div><strong>${money(p.price)}</strong></div><div class="muted">${ratingText(p)}</div><div>${stockText(p.stock)}</div></div>`;
}

function home(ctx: RequestCtx): Reply {
  const cats = categories(ctx.db);
  const top = findProducts(ctx.db, { sort: 'rating' }).slice(0, 8);
  const fresh = findProducts(ctx.db, { sort: 'newest' }).slice(0, 4);
  return ctx.render({
    title: `Welcome to ${ctx.site.title}`,
    body: html`<h2>Shop by category</h2><div class="grid">${cats.map(
      (c) => html`<div class="card"><a href="${ctx.href('/products', { category: c.slug })}">${c.name}</a><div class="muted">${c.products} products</div></div>`,
    )}</div>
<h2>Top rated</h2><div class="grid">${top.map((p) => card(ctx, p))}</div>
<h2>New arrivals</h2><div class="grid">${fresh.map((p) => card(ctx, p))}</div>`,
  });
}

function catalog(ctx: RequestCtx): Reply {
  const cats = categories(ctx.db);
  const q = ctx.q('q');
  const category = ctx.q('category');
  const sort = ctx.q('sort') || 'featured';
  const inStock = ctx.q('in_stock') === '1';
  const maxRaw = ctx.q('max_price');
  const page = pageNumber(ctx.q('page'));
  if (page === undefined) return ctx.badRequest('The page number must be a positive whole number.');
  const cat = cats.find((c) => c.slug === category);
  if (category && !cat) return ctx.notFound(`There is no category "${category}".`);
  const errors: Record<string, string> = {};
  const maxPrice = maxRaw === '' ? undefined : Number(maxRaw);
  if (maxPrice !== undefined && !(Number.isFinite(maxPrice) && maxPrice >= 0)) errors.max_price = 'Max price must be a number of dollars, like 50.';
  if (!SORTS.some((s) => s.value === sort)) errors.sort = 'Unknown sort order; showing featured products.';
  const all = findProducts(ctx.db, { q, category, inStock, maxPrice: errors.max_price ? undefined : maxPrice, sort });
  const paged = paginate(all, page, PAGE_SIZE);
  if (!paged) return ctx.notFound(`There is no page ${page} of these results.`);
  const { items: shown, pages, first: from } = paged;
  const query = { q, category, sort: sort === 'featured' ? '' : sort, in_stock: inStock ? '1' : '', max_price: maxRaw };
  const title = cat ? cat.name : q ? `Results for "${q}"` : 'All products';
  return ctx.render({
    title,
    status: Object.keys(errors).length ? 400 : 200,
    body: html`${errorSummary(errors)}<form method="get" action="${ctx.href('/products')}" aria-label="Filter products" class="row">
${q ? html`<input type="hidden" name="q" value="${q}">` : ''}
${selectField({ label: 'Category', name: 'category', value: category, options: [{ value: '', text: 'All categories' }, ...cats.map((c) => ({ value: c.slug, text: c.name }))] })}
${selectField({ label: 'Sort by', name: 'sort', value: sort, options: SORTS })}
${textField({ label: 'Max price', name: 'max_price', type: 'number', value: maxRaw, min: 0, step: '0.01' })}
${checkbox({ label: 'In stock only', name: 'in_stock', checked: inStock })}
${submit('Apply filters')} <a href="${ctx.href('/products')}">Clear filters</a></form>
<p>${all.length ? `Showing ${from}–${from + shown.length - 1} of ${all.length} products` : 'No products match your search.'}</p>
<div class="grid">${shown.map((p) => card(ctx, p))}</div>
${pager({ page, pages, href: (n) => ctx.href('/products', { ...query, page: n === 1 ? '' : n }) })}`,
  });
}

function categoryList(ctx: RequestCtx): Reply {
  const cats = categories(ctx.db);
  return ctx.render({
    title: 'Categories',
    body: html`<table><thead><tr><th>Category</th><th>Products</th><th>About</th></tr></thead><tbody>${cats.map(
      (c) => html`<tr><td><a href="${ctx.href('/products', { category: c.slug })}">${c.name}</a></td><td>${c.products}</td><td>${c.description}</td></tr>`,
    )}</tbody></table>`,
  });
}

/** The review form's values and errors, when shown again after a failed post. */
interface ReviewForm {
  values: Record<string, string>;
  errors: Record<string, string>;
}

/** The product page; `cartError` or `review` when a form posted from it is shown again. */
export function productPage(ctx: RequestCtx, id: number, opts: { cartError?: string; quantity?: string; review?: ReviewForm } = {}): Reply {
  const p = getProduct(ctx.db, id);
  if (!p) return ctx.notFound('That product does not exist or is no longer sold.');
  const reviews = reviewsOf(ctx.db, p.id);
  const saved = wishlist(ctx.db).some((w) => w.product_id === p.id);
  const rv = opts.review ?? { values: {}, errors: {} };
  const status = opts.cartError || opts.review ? 422 : 200;
  const ratingOptions = [{ value: '', text: 'Choose a rating' }, ...[5, 4, 3, 2, 1].map((n) => ({ value: String(n), text: `${n} star${n === 1 ? '' : 's'}` }))];
  return ctx.render({
    title: p.name,
    status,
    body: html`<p><a href="${ctx.href('/products', { category: p.category_slug })}">${p.category}</a> · Brand: ${p.brand}</p>
<p><strong>${money(p.price)}</strong> · ${stockText(p.stock)} · ${ratingText(p)}</p><p>${p.description}</p>
${postForm(ctx.href('/cart/add'), html`<input type="hidden" name="product_id" value="${p.id}">
${textField({ label: 'Quantity', name: 'quantity', type: 'number', value: opts.quantity ?? '1', min: 1, max: 99, error: opts.cartError })}
${submit('Add to cart')}`, { label: 'Add to cart' })}
${postForm(ctx.href(saved ? '/wishlist/remove' : '/wishlist/add'), html`<input type="hidden" name="product_id" value="${p.id}">${submit(saved ? 'Remove from wishlist' : 'Add to wishlist', { variant: 'secondary' })}`)}
<h2 id="reviews">Customer reviews (${reviews.length})</h2>
${reviews.length ? reviews.map((r) => html`<div class="card"><strong>${r.title}</strong> · ${r.rating} of 5 stars<div class="muted">${r.author}, ${r.created}</div><p>${r.body}</p></div>`) : html`<p>No reviews yet.</p>`}
<h2>Write a review</h2>${errorSummary(rv.errors)}
${postForm(ctx.href(`/products/${p.id}/reviews`), html`${textField({ label: 'Review title', name: 'title', value: rv.values.title, error: rv.errors.title })}
${selectField({ label: 'Rating', name: 'rating', value: rv.values.rating, options: ratingOptions, error: rv.errors.rating })}
${textArea({ label: 'Your review', name: 'body', value: rv.values.body, error: rv.errors.body })}${submit('Submit review')}`, { label: 'Write a review' })}`,
  });
}

function productId(raw: string | undefined): number | undefined {
  return raw && /^\d{1,9}$/.test(raw) ? Number(raw) : undefined;
}

function postReview(ctx: RequestCtx): Reply {
  const id = productId(ctx.params.id);
  if (id === undefined || !getProduct(ctx.db, id)) return ctx.notFound('That product does not exist.');
  const values = { title: ctx.field('title'), rating: ctx.field('rating'), body: ctx.field('body') };
  const errors: Record<string, string> = {};
  if (!values.title) errors.title = 'Enter a title for your review.';
  else if (values.title.length > 120) errors.title = 'The title can be at most 120 characters.';
  if (!/^[1-5]$/.test(values.rating)) errors.rating = 'Choose a rating from 1 to 5 stars.';
  if (!values.body) errors.body = 'Write a few words about the product.';
  else if (values.body.length > 4000) errors.body = 'The review can be at most 4000 characters.';
  if (Object.keys(errors).length) return productPage(ctx, id, { review: { values, errors } });
  const author = (ctx.db.prepare('SELECT name FROM profile WHERE id = 1').get() as { name: string }).name;
  ctx.db
    .prepare('INSERT INTO reviews (product_id, title, author, rating, body, created) VALUES (?, ?, ?, ?, ?, ?)')
    .run(id, values.title, author, Number(values.rating), values.body, ctx.site.today);
  ctx.flash('Thanks! Your review was posted.');
  return ctx.redirect(`/products/${id}`);
}

function apiProduct(p: ProductRow, ctx: RequestCtx): Record<string, unknown> {
  return { id: p.id, name: p.name, brand: p.brand, category: p.category, price: p.price, stock: p.stock, rating: p.rating, reviews: p.reviews, url: ctx.href(`/products/${p.id}`) };
}

/** Registers the browsing pages. */
export function catalogRoutes(r: Router<Handler>): void {
  r.get('/', home);
  r.get('/products', catalog);
  r.get('/categories', categoryList);
  r.get('/products/:id', (ctx) => {
    const id = productId(ctx.params.id);
    return id === undefined ? ctx.notFound('That product does not exist.') : productPage(ctx, id);
  });
  r.post('/products/:id/reviews', postReview);
  r.get('/api/products', (ctx) => {
    const list = findProducts(ctx.db, { q: ctx.q('q'), category: ctx.q('category'), sort: ctx.q('sort'), inStock: ctx.q('in_stock') === '1' });
    return ctx.json({ total: list.length, products: list.map((p) => apiProduct(p, ctx)) });
  });
  r.get('/api/products/:id', (ctx) => {
    const id = productId(ctx.params.id);
    const p = id === undefined ? undefined : getProduct(ctx.db, id);
    return p ? ctx.json(apiProduct(p, ctx)) : ctx.json({ error: 'no such product' }, 404);
  });
}
