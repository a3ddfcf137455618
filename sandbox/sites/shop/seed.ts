/** The shop's tables and seeded data. @module */
import type { SeedInput, SeedResult } from '../../template';
import { slugify } from '../../values';
import { THEMES } from './themes';

/** The shop's tables. Rows carry a `name` (or are keyed by a readable id) so change lines name their item. */
export const SHOP_SCHEMA = `
CREATE TABLE categories (id INTEGER PRIMARY KEY, name TEXT NOT NULL, slug TEXT NOT NULL UNIQUE, description TEXT NOT NULL);
CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, category_id INTEGER NOT NULL REFERENCES categories(id),
  brand TEXT NOT NULL, price REAL NOT NULL, stock INTEGER NOT NULL, description TEXT NOT NULL, added TEXT NOT NULL);
CREATE TABLE reviews (id INTEGER PRIMARY KEY, product_id INTEGER NOT NULL REFERENCES products(id), title TEXT NOT NULL,
  author TEXT NOT NULL, rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5), body TEXT NOT NULL, created TEXT NOT NULL);
CREATE INDEX reviews_by_product ON reviews (product_id);
CREATE TABLE cart_items (id INTEGER PRIMARY KEY, product_id INTEGER NOT NULL UNIQUE REFERENCES products(id), name TEXT NOT NULL,
  price REAL NOT NULL, quantity INTEGER NOT NULL CHECK (quantity > 0));
CREATE TABLE wishlist (id INTEGER PRIMARY KEY, product_id INTEGER NOT NULL UNIQUE REFERENCES products(id), name TEXT NOT NULL, added TEXT NOT NULL);
CREATE TABLE orders (id TEXT PRIMARY KEY, status TEXT NOT NULL, placed TEXT NOT NULL, ship_to TEXT NOT NULL, street TEXT NOT NULL,
  city TEXT NOT NULL, zip TEXT NOT NULL, shipping TEXT NOT NULL, payment TEXT NOT NULL, subtotal REAL NOT NULL,
  shipping_cost REAL NOT NULL, total REAL NOT NULL);
CREATE TABLE order_items (id INTEGER PRIMARY KEY, order_id TEXT NOT NULL REFERENCES orders(id), product_id INTEGER NOT NULL,
  name TEXT NOT NULL, price REAL NOT NULL, quantity INTEGER NOT NULL);
CREATE TABLE profile (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, phone TEXT NOT NULL, street TEXT NOT NULL,
  city TEXT NOT NULL, zip TEXT NOT NULL, newsletter INTEGER NOT NULL);
`;

/** Shipping methods: stored value, label, cost. */
export const SHIPPING = [
  { value: 'standard', text: 'Standard shipping', cost: 4.99 },
  { value: 'express', text: 'Express shipping', cost: 14.99 },
  { value: 'pickup', text: 'Store pickup', cost: 0 },
] as const;

/** Payment methods: stored value and label. */
export const PAYMENT = [
  { value: 'visa', text: 'Visa ending in 4242' },
  { value: 'mastercard', text: 'Mastercard ending in 5454' },
  { value: 'paypal', text: 'PayPal' },
] as const;

/** Order statuses as stored and shown. */
export const ORDER_STATUSES = ['Processing', 'Shipped', 'Delivered', 'Cancelled'] as const;

const STYLES = ['Classic', 'Compact', 'Deluxe', 'Everyday', 'Essential', 'Premium', 'Lightweight', 'Heritage', 'Modern', 'Nordic',
  'Studio', 'Urban', 'Vintage', 'Eco', 'Signature', 'Summit', 'Coastal', 'Artisan', 'Minimalist', 'Pro'];
const BRAND_SUFFIX = ['Works', '& Co.', 'Goods', 'Supply', 'Studio', 'Labs'];
const REVIEW_TITLES: Record<number, readonly string[]> = {
  5: ['Absolutely love it', 'Exceeded my expectations', 'Best purchase this year', 'Five stars, no question', 'Perfect gift'],
  4: ['Very good overall', 'Solid and well made', 'Happy with it', 'Great value', 'Does the job well'],
  3: ['Decent but not great', 'It is okay', 'Average quality', 'Mixed feelings'],
  2: ['Disappointed', 'Not as described', 'Broke after a month'],
  1: ['Would not buy again', 'Poor quality', 'Returned it'],
};
const REVIEW_BODIES: Record<number, readonly string[]> = {
  5: ['Arrived quickly and works exactly as promised.', 'The quality is outstanding for the price.', 'I bought a second one for my sister.'],
  4: ['Good quality, shipping took a little longer than expected.', 'Works well, the color is slightly different from the photos.', 'Nice design and sturdy.'],
  3: ['It works, but the finish feels cheap.', 'Fine for occasional use.', 'Smaller than I expected.'],
  2: ['The instructions were confusing and one part was missing.', 'Stopped working properly after a few weeks.'],
  1: ['Arrived damaged and customer service was slow.', 'Nothing like the pictures.'],
};

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Fills a shop: theme by variant, about 75 products, reviews, a cart, a wishlist, past orders and a profile. */
export function seedShop({ db, faker, variant, today }: SeedInput): SeedResult {
  const theme = THEMES[(variant - 1) % THEMES.length] ?? (THEMES[0] as (typeof THEMES)[number]);
  const ref = new Date(`${today}T12:00:00Z`);
  const past = (days: number): string => day(faker.date.recent({ days, refDate: ref }));
  const brands = Array.from({ length: 6 }, () => `${faker.person.lastName()} ${faker.helpers.arrayElement(BRAND_SUFFIX)}`);

  const addCategory = db.prepare('INSERT INTO categories (name, slug, description) VALUES (?, ?, ?)');
  const addProduct = db.prepare(
    'INSERT INTO products (name, category_id, brand, price, stock, description, added) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const addReview = db.prepare('INSERT INTO reviews (product_id, title, author, rating, body, created) VALUES (?, ?, ?, ?, ?, ?)');
  const names = new Set<string>();
  const productIds: Array<{ id: number; name: string; price: number; stock: number }> = [];
  for (const cat of theme.categories) {
    const catId = Number(
      addCategory.run(cat.name, slugify(cat.name), `Our ${cat.name.toLowerCase()} range, picked for quality and value.`).lastInsertRowid,
    );
    for (const good of cat.goods) {
      for (let k = 0; k < 2; k++) {
        let name = '';
        for (let tries = 0; tries < 20 && (!name || names.has(name)); tries++) name = `${faker.helpers.arrayElement(STYLES)} ${good}`;
        if (names.has(name)) continue;
        names.add(name);
        const [lo, hi] = cat.price;
        const price = Math.max(1, Math.floor(faker.number.float({ min: lo, max: hi }))) + 0.99;
        const stock = faker.number.int({ min: 0, max: 9 }) < 2 ? 0 : faker.number.int({ min: 1, max: 60 });
        const material = faker.commerce.productMaterial().toLowerCase();
        const description = `${name} by ${faker.helpers.arrayElement(brands)}: ${material} construction, built for daily use. ${faker.helpers.arrayElement(['Backed by a two-year warranty.', 'Ships in recyclable packaging.', 'Easy to clean.', 'A customer favorite.'])}`;
        const id = Number(addProduct.run(name, catId, faker.helpers.arrayElement(brands), price, stock, description, past(150)).lastInsertRowid);
        productIds.push({ id, name, price, stock });
        const nReviews = faker.number.int({ min: 0, max: 5 });
        for (let r = 0; r < nReviews; r++) {
          const rating = faker.helpers.weightedArrayElement([
            { weight: 5, value: 5 }, { weight: 4, value: 4 }, { weight: 2, value: 3 }, { weight: 1, value: 2 }, { weight: 1, value: 1 },
          ]);
          addReview.run(id, faker.helpers.arrayElement(REVIEW_TITLES[rating] ?? []), faker.person.fullName(), rating,
            faker.helpers.arrayElement(REVIEW_BODIES[rating] ?? []), past(120));
        }
      }
    }
  }

  const picks = faker.helpers.arrayElements(productIds, 12);
  const stocked = faker.helpers.arrayElements(productIds.filter((p) => p.stock >= 5 && !picks.includes(p)), 2);
  const addCart = db.prepare('INSERT INTO cart_items (product_id, name, price, quantity) VALUES (?, ?, ?, ?)');
  stocked.forEach((p, i) => addCart.run(p.id, p.name, p.price, i + 1));
  const addWish = db.prepare('INSERT INTO wishlist (product_id, name, added) VALUES (?, ?, ?)');
  for (const p of picks.slice(2, 4)) addWish.run(p.id, p.name, past(30));

  const first = faker.person.firstName();
  const last = faker.person.lastName();
  const profile = {
    name: `${first} ${last}`,
    email: faker.internet.email({ firstName: first, lastName: last, provider: 'example.com' }).toLowerCase(),
    phone: faker.helpers.replaceSymbols('(###) 555-####'),
    street: faker.location.streetAddress(),
    city: faker.location.city(),
    zip: faker.location.zipCode('#####'),
  };
  db.prepare('INSERT INTO profile (id, name, email, phone, street, city, zip, newsletter) VALUES (1, ?, ?, ?, ?, ?, ?, 1)').run(
    profile.name, profile.email, profile.phone, profile.street, profile.city, profile.zip,
  );

  const statuses = ['Delivered', 'Delivered', 'Cancelled', 'Shipped', 'Delivered', 'Processing', 'Processing'] as const;
  const addOrder = db.prepare(`INSERT INTO orders (id, status, placed, ship_to, street, city, zip, shipping, payment, subtotal, shipping_cost, total)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const addItem = db.prepare('INSERT INTO order_items (order_id, product_id, name, price, quantity) VALUES (?, ?, ?, ?, ?)');
  let number = 10200 + faker.number.int({ min: 10, max: 90 });
  statuses.forEach((status, i) => {
    number += faker.number.int({ min: 3, max: 40 });
    const id = `${theme.prefix}-${number}`;
    const items = faker.helpers.arrayElements(picks.slice(4), faker.number.int({ min: 1, max: 3 }));
    const qty = items.map(() => faker.number.int({ min: 1, max: 2 }));
    const subtotal = Math.round(items.reduce((s, p, k) => s + p.price * (qty[k] ?? 1), 0) * 100) / 100;
    const ship = i % 3 === 2 ? SHIPPING[2] : SHIPPING[0];
    const placed = day(new Date(ref.getTime() - (statuses.length - i) * 9 * 86400_000));
    addOrder.run(id, status, placed, profile.name, profile.street, profile.city, profile.zip, ship.value, i % 2 ? 'mastercard' : 'visa',
      subtotal, ship.cost, Math.round((subtotal + ship.cost) * 100) / 100);
    items.forEach((p, k) => addItem.run(id, p.id, p.name, p.price, qty[k] ?? 1));
  });
  return { title: theme.title };
}
