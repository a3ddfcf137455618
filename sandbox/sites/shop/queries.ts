/** The shop's reads, shared by its pages and its task generators. @module */
import type { Database } from 'better-sqlite3';

/** A product with its category and review figures. */
export interface ProductRow {
  id: number;
  name: string;
  brand: string;
  price: number;
  stock: number;
  description: string;
  added: string;
  category_id: number;
  category: string;
  category_slug: string;
  rating: number | null;
  reviews: number;
}

/** A category with its product count. */
export interface CategoryRow {
  id: number;
  name: string;
  slug: string;
  description: string;
  products: number;
}

/** Sort orders of the catalog: value, label, SQL. */
export const SORTS = [
  { value: 'featured', text: 'Featured', sql: 'p.id' },
  { value: 'price_asc', text: 'Price: low to high', sql: 'p.price ASC, p.id' },
  { value: 'price_desc', text: 'Price: high to low', sql: 'p.price DESC, p.id' },
  { value: 'rating', text: 'Customer rating', sql: 'rating IS NULL, rating DESC, reviews DESC, p.id' },
  { value: 'newest', text: 'Newest arrivals', sql: 'p.added DESC, p.id' },
  { value: 'name', text: 'Name: A to Z', sql: 'p.name COLLATE NOCASE, p.id' },
] as const;

const PRODUCT_SELECT = `SELECT p.*, c.name AS category, c.slug AS category_slug, r.rating AS rating, COALESCE(r.reviews, 0) AS reviews
  FROM products p JOIN categories c ON c.id = p.category_id
  LEFT JOIN (SELECT product_id, ROUND(AVG(rating), 1) AS rating, COUNT(*) AS reviews FROM reviews GROUP BY product_id) r ON r.product_id = p.id`;

/** The catalog's filters. */
export interface ProductFilter {
  q?: string;
  category?: string;
  inStock?: boolean;
  maxPrice?: number;
  sort?: string;
}

/** Products matching a filter, sorted. */
export function findProducts(db: Database, f: ProductFilter): ProductRow[] {
  const where: string[] = [];
  const args: Array<string | number> = [];
  if (f.q) {
    where.push('(p.name LIKE ? OR p.brand LIKE ? OR c.name LIKE ?)');
    const like = `%${f.q.replace(/[%_]/g, '')}%`;
    args.push(like, like, like);
  }
  if (f.category) {
    where.push('c.slug = ?');
    args.push(f.category);
  }
  if (f.inStock) where.push('p.stock > 0');
  if (f.maxPrice !== undefined) {
    where.push('p.price <= ?');
    args.push(f.maxPrice);
  }
  const sort = SORTS.find((s) => s.value === f.sort) ?? SORTS[0];
  const sql = `${PRODUCT_SELECT}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${sort.sql}`;
  return db.prepare(sql).all(...args) as ProductRow[];
}

/** One product, or `undefined`. */
export function getProduct(db: Database, id: number): ProductRow | undefined {
  return db.prepare(`${PRODUCT_SELECT} WHERE p.id = ?`).get(id) as ProductRow | undefined;
}

/** Every category with its product count, in display order. */
export function categories(db: Database): CategoryRow[] {
  return db
    .prepare('SELECT c.*, (SELECT COUNT(*) FROM products p WHERE p.category_id = c.id) AS products FROM categories c ORDER BY c.id')
    .all() as CategoryRow[];
}

/** A review. */
export interface ReviewRow {
  id: number;
  product_id: number;
  title: string;
  author: string;
  rating: number;
  body: string;
  created: string;
}

/** A product's reviews, newest first. */
export function reviewsOf(db: Database, productId: number): ReviewRow[] {
  return db.prepare('SELECT * FROM reviews WHERE product_id = ? ORDER BY created DESC, id DESC').all(productId) as ReviewRow[];
}

/** A cart line. */
export interface CartRow {
  id: number;
  product_id: number;
  name: string;
  price: number;
  quantity: number;
  stock: number;
}

/** The cart's lines in the order they were added. */
export function cartItems(db: Database): CartRow[] {
  return db
    .prepare('SELECT ci.*, p.stock FROM cart_items ci JOIN products p ON p.id = ci.product_id ORDER BY ci.id')
    .all() as CartRow[];
}

/** The sum of the cart's lines. */
export function cartSubtotal(items: readonly CartRow[]): number {
  return Math.round(items.reduce((s, i) => s + i.price * i.quantity, 0) * 100) / 100;
}

/** A wishlist entry. */
export interface WishRow {
  id: number;
  product_id: number;
  name: string;
  added: string;
}

/** The wishlist. */
export function wishlist(db: Database): WishRow[] {
  return db.prepare('SELECT * FROM wishlist ORDER BY id').all() as WishRow[];
}

/** An order. */
export interface OrderRow {
  id: string;
  status: string;
  placed: string;
  ship_to: string;
  street: string;
  city: string;
  zip: string;
  shipping: string;
  payment: string;
  subtotal: number;
  shipping_cost: number;
  total: number;
}

/** Orders, newest first, optionally of one status (lower-case). */
export function orders(db: Database, status = ''): OrderRow[] {
  return (
    status
      ? db.prepare('SELECT * FROM orders WHERE lower(status) = ? ORDER BY placed DESC, id DESC').all(status)
      : db.prepare('SELECT * FROM orders ORDER BY placed DESC, id DESC').all()
  ) as OrderRow[];
}

/** An order's lines. */
export function orderItems(db: Database, orderId: string): Array<{ product_id: number; name: string; price: number; quantity: number }> {
  return db.prepare('SELECT product_id, name, price, quantity FROM order_items WHERE order_id = ? ORDER BY id').all(orderId) as Array<{
    product_id: number;
    name: string;
    price: number;
    quantity: number;
  }>;
}

/** The signed-in customer. */
export interface ProfileRow {
  name: string;
  email: string;
  phone: string;
  street: string;
  city: string;
  zip: string;
  newsletter: number;
}

/** The customer's profile. */
export function profile(db: Database): ProfileRow {
  return db.prepare('SELECT * FROM profile WHERE id = 1').get() as ProfileRow;
}
