/** The bank's reads, shared by its pages and its task generators. @module */
import { cents } from '../../values';
import type { Database } from 'better-sqlite3';
import { monthRange } from './format';
import { HISTORY_START } from './seed';

/** An account. */
export interface AccountRow {
  id: number;
  name: string;
  type: 'checking' | 'savings' | 'credit';
  number: string;
  routing: string;
  balance: number;
  credit_limit: number;
  rate: number;
  opened: string;
}

/** Every account, in display order. */
export function accounts(db: Database): AccountRow[] {
  return db.prepare('SELECT * FROM accounts ORDER BY id').all() as AccountRow[];
}

/** One account. */
export function getAccount(db: Database, id: number): AccountRow | undefined {
  return db.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow | undefined;
}

/** A transaction with its account's name. */
export interface TxRow {
  id: number;
  account_id: number;
  account: string;
  date: string;
  name: string;
  category: string;
  amount: number;
  balance: number;
  method: string;
  reference: string;
  status: string;
  note: string;
}

/** Sort orders of transaction lists. */
export const TX_SORTS = [
  { value: 'newest', text: 'Newest first', sql: 't.date DESC, t.id DESC' },
  { value: 'oldest', text: 'Oldest first', sql: 't.date ASC, t.id ASC' },
  { value: 'amount_desc', text: 'Largest amount first', sql: 'ABS(t.amount) DESC, t.date DESC, t.id DESC' },
  { value: 'amount_asc', text: 'Smallest amount first', sql: 'ABS(t.amount) ASC, t.date DESC, t.id DESC' },
] as const;

/** Money in or out filters. */
export const TX_TYPES = [
  { value: '', text: 'Money in and out' },
  { value: 'in', text: 'Money in' },
  { value: 'out', text: 'Money out' },
] as const;

/** Filters of a transaction list (all optional). */
export interface TxFilter {
  account?: number;
  q?: string;
  category?: string;
  from?: string;
  to?: string;
  type?: string;
  sort?: string;
}

/** Transactions matching a filter, sorted. */
export function findTransactions(db: Database, f: TxFilter): TxRow[] {
  const where: string[] = [];
  const args: Array<string | number> = [];
  const add = (sql: string, ...values: Array<string | number>): void => {
    where.push(sql);
    args.push(...values);
  };
  if (f.account !== undefined) add('t.account_id = ?', f.account);
  if (f.q) {
    const like = `%${f.q.replace(/[%_]/g, '')}%`;
    add('(t.name LIKE ? OR t.category LIKE ? OR t.note LIKE ? OR t.reference = ?)', like, like, like, f.q);
  }
  if (f.category) add('t.category = ?', f.category);
  if (f.from) add('t.date >= ?', f.from);
  if (f.to) add('t.date <= ?', f.to);
  if (f.type === 'in') where.push('t.amount > 0');
  if (f.type === 'out') where.push('t.amount < 0');
  const sort = TX_SORTS.find((s) => s.value === f.sort) ?? TX_SORTS[0];
  const sql = `SELECT t.*, a.name AS account FROM transactions t JOIN accounts a ON a.id = t.account_id
    ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${sort.sql}`;
  return db.prepare(sql).all(...args) as TxRow[];
}

/** One transaction. */
export function getTransaction(db: Database, id: number): TxRow | undefined {
  return db.prepare('SELECT t.*, a.name AS account FROM transactions t JOIN accounts a ON a.id = t.account_id WHERE t.id = ?').get(id) as TxRow | undefined;
}

/** Count and totals of a list of transactions (money out as a positive sum). */
export function txTotals(list: readonly TxRow[]): { count: number; moneyIn: number; moneyOut: number } {
  const moneyIn = cents(list.filter((t) => t.amount > 0).reduce((s, t) => s + t.amount, 0));
  const moneyOut = cents(-list.filter((t) => t.amount < 0).reduce((s, t) => s + t.amount, 0));
  return { count: list.length, moneyIn, moneyOut };
}

/** A payee. */
export interface PayeeRow {
  id: number;
  name: string;
  nickname: string;
  category: string;
  account_number: string;
  address: string;
  added: string;
}

/** Payees by name, optionally matching `q` (name or nickname) and of one category. */
export function findPayees(db: Database, f: { q?: string; category?: string } = {}): PayeeRow[] {
  const like = `%${(f.q ?? '').replace(/[%_]/g, '')}%`;
  const cat = f.category ? 'AND category = ?' : '';
  return db
    .prepare(`SELECT * FROM payees WHERE (name LIKE ? OR nickname LIKE ?) ${cat} ORDER BY name COLLATE NOCASE`)
    .all(...[like, like, ...(f.category ? [f.category] : [])]) as PayeeRow[];
}

/** One payee. */
export function getPayee(db: Database, id: number): PayeeRow | undefined {
  return db.prepare('SELECT * FROM payees WHERE id = ?').get(id) as PayeeRow | undefined;
}

/** A transfer or bill payment, done, scheduled or cancelled. */
export interface PaymentRow {
  id: string;
  kind: 'transfer' | 'payment';
  from_account_id: number;
  from_name: string;
  to_account_id: number | null;
  payee_id: number | null;
  to_name: string;
  amount: number;
  send_on: string;
  frequency: string;
  memo: string;
  status: 'Completed' | 'Scheduled' | 'Cancelled';
  created: string;
}

/** Payments and transfers, newest first, optionally of one kind, status or payee. */
export function findPayments(db: Database, f: { kind?: string; status?: string; payee?: number } = {}): PaymentRow[] {
  const conds: Array<[string, string | number | undefined]> = [['kind = ?', f.kind || undefined], ['status = ?', f.status || undefined], ['payee_id = ?', f.payee]];
  const used = conds.filter(([, v]) => v !== undefined);
  const where = used.length ? `WHERE ${used.map(([sql]) => sql).join(' AND ')}` : '';
  return db.prepare(`SELECT * FROM payments ${where} ORDER BY send_on DESC, id DESC`).all(...used.map(([, v]) => v)) as PaymentRow[];
}

/** Scheduled payments and transfers, soonest first. */
export function scheduledPayments(db: Database): PaymentRow[] {
  return db.prepare("SELECT * FROM payments WHERE status = 'Scheduled' ORDER BY send_on, id").all() as PaymentRow[];
}

/** One payment. */
export function getPayment(db: Database, id: string): PaymentRow | undefined {
  return db.prepare('SELECT * FROM payments WHERE id = ?').get(id) as PaymentRow | undefined;
}

/** A debit or credit card. */
export interface CardRow {
  id: number;
  name: string;
  account_id: number;
  account: string;
  kind: string;
  last4: string;
  holder: string;
  expires: string;
  frozen: number;
  atm_limit: number;
  purchase_limit: number;
  online: number;
  international: number;
}

/** Every card with its account's name. */
export function cards(db: Database): CardRow[] {
  return db.prepare('SELECT c.*, a.name AS account FROM cards c JOIN accounts a ON a.id = c.account_id ORDER BY c.id').all() as CardRow[];
}

/** One card. */
export function getCard(db: Database, id: number): CardRow | undefined {
  return db.prepare('SELECT c.*, a.name AS account FROM cards c JOIN accounts a ON a.id = c.account_id WHERE c.id = ?').get(id) as CardRow | undefined;
}

/** The signed-in customer. */
export interface ProfileRow {
  name: string;
  email: string;
  phone: string;
  street: string;
  city: string;
  zip: string;
  paperless: number;
  alert_below: number;
  alert_by: string;
  member_since: string;
}

/** The customer's profile and preferences. */
export function profile(db: Database): ProfileRow {
  return db.prepare('SELECT * FROM profile WHERE id = 1').get() as ProfileRow;
}

/** A monthly statement of an account. */
export interface StatementRow {
  period: string;
  opening: number;
  moneyIn: number;
  moneyOut: number;
  closing: number;
  count: number;
}

/** The statements of an account: one per full month since the history began, newest first. */
export function statements(db: Database, accountId: number, today: string): StatementRow[] {
  const out: StatementRow[] = [];
  for (let period = HISTORY_START.slice(0, 7); period < today.slice(0, 7); period = nextPeriod(period)) {
    const s = statement(db, accountId, period);
    if (s) out.push(s);
  }
  return out.reverse();
}

function nextPeriod(period: string): string {
  const [y, m] = [Number(period.slice(0, 4)), Number(period.slice(5, 7))];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/** An account's statement for a `YYYY-MM` period, from its transactions; `undefined` before any activity. */
export function statement(db: Database, accountId: number, period: string): StatementRow | undefined {
  const [from, to] = monthRange(period);
  const list = db.prepare('SELECT amount, balance FROM transactions WHERE account_id = ? AND date BETWEEN ? AND ? ORDER BY date, id').all(accountId, from, to) as Array<{ amount: number; balance: number }>;
  const before = db.prepare('SELECT balance FROM transactions WHERE account_id = ? AND date < ? ORDER BY date DESC, id DESC LIMIT 1').get(accountId, from) as { balance: number } | undefined;
  const firstTx = list[0];
  if (!firstTx && !before) return undefined;
  const opening = before?.balance ?? cents((firstTx?.balance ?? 0) - (firstTx?.amount ?? 0));
  const closing = list.length ? (list[list.length - 1] as { balance: number }).balance : opening;
  const moneyIn = cents(list.filter((t) => t.amount > 0).reduce((s, t) => s + t.amount, 0));
  const moneyOut = cents(-list.filter((t) => t.amount < 0).reduce((s, t) => s + t.amount, 0));
  return { period, opening, moneyIn, moneyOut, closing, count: list.length };
}
