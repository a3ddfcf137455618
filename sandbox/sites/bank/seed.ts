/** The bank's tables and seeded data: six months of activity on the customer's accounts. @module */
import type { Faker } from '@faker-js/faker';
import type { SeedInput, SeedResult } from '../../template';
import { addDays, cents } from '../../values';
import { ATM_LIMITS, MERCHANTS, type PAYEE_CATEGORIES, SUBSCRIPTIONS, THEMES, type BankTheme } from './themes';

/**
 * The bank's tables. Changed rows carry a `name` (payments a readable confirmation number as `id`), so change
 * lines name their item. Credit card balances are negative (the amount owed); amounts are signed (money out < 0).
 */
export const BANK_SCHEMA = `
CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, type TEXT NOT NULL CHECK (type IN ('checking', 'savings', 'credit')),
  number TEXT NOT NULL UNIQUE, routing TEXT NOT NULL, balance REAL NOT NULL, credit_limit REAL NOT NULL DEFAULT 0, rate REAL NOT NULL DEFAULT 0,
  opened TEXT NOT NULL);
CREATE TABLE transactions (id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL REFERENCES accounts(id), date TEXT NOT NULL, name TEXT NOT NULL,
  category TEXT NOT NULL, amount REAL NOT NULL, balance REAL NOT NULL, method TEXT NOT NULL, reference TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL, note TEXT NOT NULL DEFAULT '');
CREATE TABLE payees (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, nickname TEXT NOT NULL DEFAULT '', category TEXT NOT NULL,
  account_number TEXT NOT NULL, address TEXT NOT NULL DEFAULT '', added TEXT NOT NULL);
CREATE TABLE payments (id TEXT PRIMARY KEY, kind TEXT NOT NULL CHECK (kind IN ('transfer', 'payment')),
  from_account_id INTEGER NOT NULL REFERENCES accounts(id), from_name TEXT NOT NULL, to_account_id INTEGER REFERENCES accounts(id),
  payee_id INTEGER REFERENCES payees(id) ON DELETE SET NULL, to_name TEXT NOT NULL, amount REAL NOT NULL, send_on TEXT NOT NULL,
  frequency TEXT NOT NULL, memo TEXT NOT NULL DEFAULT '', status TEXT NOT NULL CHECK (status IN ('Completed', 'Scheduled', 'Cancelled')),
  created TEXT NOT NULL);
CREATE TABLE cards (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, account_id INTEGER NOT NULL REFERENCES accounts(id), kind TEXT NOT NULL,
  last4 TEXT NOT NULL, holder TEXT NOT NULL, expires TEXT NOT NULL, frozen INTEGER NOT NULL DEFAULT 0, atm_limit INTEGER NOT NULL,
  purchase_limit INTEGER NOT NULL, online INTEGER NOT NULL DEFAULT 1, international INTEGER NOT NULL DEFAULT 0);
CREATE TABLE profile (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, phone TEXT NOT NULL, street TEXT NOT NULL,
  city TEXT NOT NULL, zip TEXT NOT NULL, paperless INTEGER NOT NULL, alert_below INTEGER NOT NULL, alert_by TEXT NOT NULL,
  member_since TEXT NOT NULL);
`;

/** The first day of seeded activity. */
export const HISTORY_START = '2025-10-01';

/** `YYYY-MM-DD` of a date. */
export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

interface Acct {
  id: number;
  name: string;
  type: 'checking' | 'savings' | 'credit';
  balance: number;
  rate: number;
}

interface Payee {
  id: number;
  name: string;
  category: string;
}

/** The running state of the seed: balances, names used, references and confirmation numbers. */
class Ledger {
  private readonly refs = new Set<string>();
  private readonly used = new Set<string>();
  private confirmation: number;
  private readonly addTx;
  private readonly addPayment;

  constructor(db: SeedInput['db'], private readonly faker: Faker, private readonly theme: BankTheme, private readonly today: string) {
    this.confirmation = 204100 + faker.number.int({ min: 10, max: 90 });
    this.addTx = db.prepare(`INSERT INTO transactions (account_id, date, name, category, amount, balance, method, reference, status)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.addPayment = db.prepare(`INSERT INTO payments (id, kind, from_account_id, from_name, to_account_id, payee_id, to_name, amount,
      send_on, frequency, memo, status, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  }

  /** Whether the account already has a transaction with this name on this day. */
  taken(a: Acct, name: string, date: string): boolean {
    return this.used.has(`${a.id}|${name}|${date}`);
  }

  tx(a: Acct, date: string, name: string, category: string, amount: number, method: string): void {
    if (this.taken(a, name, date)) return;
    this.used.add(`${a.id}|${name}|${date}`);
    let ref = '';
    while (!ref || this.refs.has(ref)) ref = this.faker.string.numeric({ length: 10, allowLeadingZeros: false });
    this.refs.add(ref);
    a.balance = cents(a.balance + amount);
    const card = method === 'Debit card' || method === 'Credit card';
    const status = card && date >= addDays(this.today, -1) ? 'Pending' : 'Posted';
    this.addTx.run(a.id, date, name, category, cents(amount), a.balance, method, ref, status);
  }

  payment(p: { kind: 'transfer' | 'payment'; from: Acct; to?: Acct; payee?: Payee; amount: number; date: string; frequency?: string; memo?: string; status: string; created?: string }): string {
    this.confirmation += this.faker.number.int({ min: 3, max: 41 });
    const id = `${this.theme.prefix}-${this.confirmation}`;
    this.addPayment.run(id, p.kind, p.from.id, p.from.name, p.to?.id ?? null, p.payee?.id ?? null, p.to?.name ?? p.payee?.name ?? '', cents(p.amount),
      p.date, p.frequency ?? 'once', p.memo ?? '', p.status, p.created ?? p.date);
    return id;
  }

  /** A completed transfer between two accounts: both transactions and the payment record. */
  transfer(from: Acct, to: Acct, amount: number, date: string, memo = ''): void {
    this.tx(from, date, `Transfer to ${to.name}`, 'Transfers', -amount, 'Online transfer');
    this.tx(to, date, `Transfer from ${from.name}`, 'Transfers', amount, 'Online transfer');
    this.payment({ kind: 'transfer', from, to, amount, date, memo, status: 'Completed' });
  }

  /** A completed bill payment: the transaction and the payment record. */
  pay(from: Acct, payee: Payee, category: string, amount: number, date: string): void {
    this.tx(from, date, `Payment to ${payee.name}`, category, -amount, 'Bill payment');
    this.payment({ kind: 'payment', from, payee, amount, date, status: 'Completed' });
  }
}

function seedPayees(db: SeedInput['db'], faker: Faker, theme: BankTheme): Payee[] {
  const [electric, water, internet, mobile, insurance] = theme.billers;
  const landlord = `${faker.person.lastName()} Property Management`;
  const list: Array<[string, (typeof PAYEE_CATEGORIES)[number]]> = [
    [electric, 'Utilities'], [water, 'Utilities'], [internet, 'Phone & internet'], [mobile, 'Phone & internet'], [insurance, 'Insurance'],
    [landlord, 'Housing'], [faker.person.fullName(), 'Person'], [faker.person.fullName(), 'Person'], [faker.person.fullName(), 'Person'],
    [`${faker.location.city()} Community College`, 'Education'], [`${faker.person.lastName()} Family Dentistry`, 'Health'],
    [`${faker.person.lastName()} Lawn Care`, 'Other'], [`${faker.location.city()} Fitness Club`, 'Other'],
  ];
  const add = db.prepare('INSERT INTO payees (name, nickname, category, account_number, address, added) VALUES (?, ?, ?, ?, ?, ?)');
  const names = new Set<string>();
  const out: Payee[] = [];
  for (const [name, category] of list) {
    if (names.has(name)) continue;
    names.add(name);
    const number = category === 'Person' ? faker.string.numeric(9) : faker.helpers.replaceSymbols('####-######-##');
    const address = `${faker.location.streetAddress()}, ${faker.location.city()} ${faker.location.zipCode('#####')}`;
    const nickname = name === landlord ? 'Rent' : category === 'Person' && faker.datatype.boolean() ? (name.split(' ')[0] ?? '') : '';
    const added = isoDay(faker.date.between({ from: '2023-01-01T00:00:00Z', to: '2025-09-01T00:00:00Z' }));
    out.push({ id: Number(add.run(name, nickname, category, number, address, added).lastInsertRowid), name, category });
  }
  return out;
}

/** Fills a bank: theme by variant, accounts, six months of transactions, payees, payments, cards and a profile. */
export function seedBank({ db, faker, variant, today }: SeedInput): SeedResult {
  const theme = THEMES[(variant - 1) % THEMES.length] ?? (THEMES[0] as BankTheme);
  const first = faker.person.firstName();
  const last = faker.person.lastName();
  const name = `${first} ${last}`;
  db.prepare(`INSERT INTO profile (id, name, email, phone, street, city, zip, paperless, alert_below, alert_by, member_since)
    VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
    name, faker.internet.email({ firstName: first, lastName: last, provider: 'example.com' }).toLowerCase(),
    faker.helpers.replaceSymbols('(###) 555-####'), faker.location.streetAddress(), faker.location.city(), faker.location.zipCode('#####'),
    faker.datatype.boolean() ? 1 : 0, faker.helpers.arrayElement([100, 250, 500]), faker.helpers.arrayElement(['email', 'text']),
    String(faker.number.int({ min: 2009, max: 2021 })),
  );

  const addAccount = db.prepare('INSERT INTO accounts (name, type, number, routing, balance, credit_limit, rate, opened) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const numbers = new Set<string>();
  const accts: Acct[] = theme.accounts.map((spec, i) => {
    let number = '';
    while (!number || numbers.has(number)) number = faker.string.numeric({ length: 10, allowLeadingZeros: false });
    numbers.add(number);
    const opening = spec.type === 'credit' ? -faker.number.int({ min: 300, max: 1400 }) : spec.type === 'checking'
      ? faker.number.int({ min: i ? 400 : 2600, max: i ? 1200 : 6200 }) : faker.number.int({ min: i > 1 ? 600 : 4000, max: i > 1 ? 5000 : 24000 });
    const balance = cents(opening + faker.number.int({ min: 0, max: 99 }) / 100);
    const opened = isoDay(faker.date.between({ from: '2012-01-01T00:00:00Z', to: '2024-12-31T00:00:00Z' }));
    const id = Number(addAccount.run(spec.name, spec.type, number, theme.routing, balance, spec.limit ?? 0, spec.rate ?? 0, opened).lastInsertRowid);
    return { id, name: spec.name, type: spec.type, balance, rate: spec.rate ?? 0 };
  });
  const primary = accts[0] as Acct;
  const bills = accts.find((a, i) => i > 0 && a.type === 'checking') ?? primary;
  const savings = accts.filter((a) => a.type === 'savings');
  const credit = accts.find((a) => a.type === 'credit') as Acct;

  const payees = seedPayees(db, faker, theme);
  const byCat = (c: string): Payee[] => payees.filter((p) => p.category === c);
  const [electric, water, internet, mobile, insurance] = payees as [Payee, Payee, Payee, Payee, Payee];
  const landlord = byCat('Housing')[0] as Payee;
  const people = byCat('Person');
  const ledger = new Ledger(db, faker, theme, today);

  const employer = faker.company.name().replace(/,.*$/, '');
  const pay = cents(faker.number.int({ min: 2300, max: 3100 }) + faker.number.int({ min: 0, max: 99 }) / 100);
  const rent = faker.number.int({ min: 24, max: 40 }) * 50;
  const fixed = { internet: faker.number.int({ min: 55, max: 95 }) - 0.01, mobile: faker.number.int({ min: 35, max: 85 }) + 0.5, insurance: faker.number.int({ min: 90, max: 210 }) + 0.25 };
  const toSavings = faker.number.int({ min: 4, max: 12 }) * 50;
  const toGoal = faker.number.int({ min: 2, max: 8 }) * 25;
  const subs = faker.helpers.arrayElements(SUBSCRIPTIONS, 3).map(([n, amt], i) => ({ name: n, amount: amt, day: 4 + i * 7 }));
  const purchase = (a: Acct, date: string, cats: readonly string[]): void => {
    for (let tries = 0; tries < 5; tries++) {
      const group = MERCHANTS.find((m) => m.category === faker.helpers.arrayElement(cats)) ?? MERCHANTS[0];
      if (!group) return;
      const merchant = faker.helpers.arrayElement(group.names);
      if (ledger.taken(a, merchant, date)) continue;
      const amount = cents(faker.number.float({ min: group.amount[0], max: group.amount[1] }));
      ledger.tx(a, date, merchant, group.category, -amount, a.type === 'credit' ? 'Credit card' : 'Debit card');
      return;
    }
  };

  for (let date = HISTORY_START; date <= today; date = addDays(date, 1)) {
    const day = Number(date.slice(8, 10));
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    const lastOfMonth = addDays(date, 1).slice(8, 10) === '01';
    if (weekday === 5 && Math.round((Date.parse(date) - Date.parse('2025-10-03')) / 86400_000) % 14 === 0) {
      ledger.tx(primary, date, `${employer} Payroll`, 'Income', pay, 'Direct deposit');
    }
    if (day === 1) ledger.pay(primary, landlord, 'Housing', rent, date);
    if (day === 2 && bills !== primary) ledger.transfer(primary, bills, 650, date, 'Monthly bills');
    if (day === 3 && savings[0]) ledger.transfer(primary, savings[0], toSavings, date);
    if (day === 5 && savings[1]) ledger.transfer(primary, savings[1], toGoal, date, 'Saving up');
    if (day === 8) ledger.pay(bills, internet, 'Bills & Utilities', fixed.internet, date);
    if (day === 12) ledger.pay(bills, electric, 'Bills & Utilities', cents(faker.number.float({ min: 48, max: 190 })), date);
    if (day === 15) ledger.pay(bills, insurance, 'Bills & Utilities', fixed.insurance, date);
    if (day === 18) ledger.pay(bills, water, 'Bills & Utilities', cents(faker.number.float({ min: 28, max: 76 })), date);
    if (day === 22) ledger.pay(bills, mobile, 'Bills & Utilities', fixed.mobile, date);
    if (day === 25 && credit.balance < 0) ledger.transfer(primary, credit, -credit.balance, date, 'Card payment');
    if (day === 20 && people.length) ledger.pay(primary, faker.helpers.arrayElement(people.slice(0, 2)), 'Transfers', faker.number.int({ min: 3, max: 30 }) * 5, date);
    for (const s of subs) if (day === s.day) ledger.tx(credit, date, s.name, 'Entertainment', -s.amount, 'Credit card');
    if (faker.number.float() < 0.38) purchase(primary, date, ['Groceries', 'Groceries', 'Dining', 'Transport', 'Health', 'Shopping']);
    if (faker.number.float() < 0.45) purchase(credit, date, ['Dining', 'Dining', 'Shopping', 'Shopping', 'Entertainment', 'Transport', 'Groceries']);
    if (faker.number.float() < 0.03) purchase(credit, date, ['Travel']);
    if (faker.number.float() < 0.07) {
      ledger.tx(primary, date, 'ATM withdrawal', 'Cash', -faker.helpers.arrayElement([40, 60, 80, 100, 200]), 'ATM');
      if (faker.number.float() < 0.4) ledger.tx(primary, date, 'Out-of-network ATM fee', 'Fees', -3, 'Fee');
    }
    if (faker.number.float() < 0.02) {
      const shop = MERCHANTS.find((m) => m.category === 'Shopping');
      if (shop) ledger.tx(credit, date, `${faker.helpers.arrayElement(shop.names)} refund`, 'Shopping', cents(faker.number.float({ min: 12, max: 120 })), 'Credit card');
    }
    if (lastOfMonth) for (const s of savings) ledger.tx(s, date, 'Interest payment', 'Interest', cents((s.balance * s.rate) / 100 / 12), 'Interest');
  }
  const setBalance = db.prepare('UPDATE accounts SET balance = ? WHERE id = ?');
  for (const a of accts) setBalance.run(a.balance, a.id);

  const later = (days: number): string => addDays(today, days);
  const nextMonth = (day: number): string => `2026-04-${String(day).padStart(2, '0')}`;
  const sched = (p: Omit<Parameters<Ledger['payment']>[0], 'status' | 'created'>): void => {
    ledger.payment({ ...p, status: 'Scheduled', created: addDays(today, -faker.number.int({ min: 1, max: 20 })) });
  };
  sched({ kind: 'payment', from: primary, payee: landlord, amount: rent, date: nextMonth(1), frequency: 'monthly', memo: 'Rent' });
  if (savings[0]) sched({ kind: 'transfer', from: primary, to: savings[0], amount: toSavings, date: nextMonth(3), frequency: 'monthly' });
  sched({ kind: 'payment', from: bills, payee: internet, amount: fixed.internet, date: nextMonth(8), frequency: 'monthly' });
  sched({ kind: 'payment', from: bills, payee: insurance, amount: fixed.insurance, date: nextMonth(15), frequency: 'monthly' });
  sched({ kind: 'payment', from: bills, payee: mobile, amount: fixed.mobile, date: later(6), frequency: 'monthly' });
  sched({ kind: 'payment', from: bills, payee: electric, amount: cents(faker.number.float({ min: 48, max: 190 })), date: later(faker.number.int({ min: 3, max: 7 })) });
  sched({ kind: 'payment', from: bills, payee: water, amount: cents(faker.number.float({ min: 28, max: 76 })), date: later(faker.number.int({ min: 8, max: 12 })) });
  sched({ kind: 'transfer', from: primary, to: credit, amount: faker.number.int({ min: 150, max: 600 }), date: later(9), memo: 'Card payment' });
  const friend = people[2] ?? people[0];
  if (friend) {
    sched({ kind: 'payment', from: primary, payee: friend, amount: faker.number.int({ min: 4, max: 40 }) * 5, date: later(faker.number.int({ min: 2, max: 5 })), memo: faker.helpers.arrayElement(['Concert tickets', 'Dinner split', 'Birthday gift', 'Babysitting']) });
    ledger.payment({ kind: 'payment', from: primary, payee: friend, amount: 60, date: addDays(today, -9), memo: 'Ski trip', status: 'Cancelled', created: addDays(today, -14) });
  }

  const addCard = db.prepare(`INSERT INTO cards (name, account_id, kind, last4, holder, expires, frozen, atm_limit, purchase_limit, online, international)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const expires = (): string => `${String(faker.number.int({ min: 1, max: 12 })).padStart(2, '0')}/${faker.number.int({ min: 26, max: 30 })}`;
  const last4 = (): string => faker.string.numeric({ length: 4, allowLeadingZeros: false });
  const limits = ATM_LIMITS.filter((l) => l >= 300 && l <= 1000);
  addCard.run(`${theme.network} Debit Card`, primary.id, 'Debit', last4(), name, expires(), 0, faker.helpers.arrayElement(limits), faker.number.int({ min: 5, max: 10 }) * 500, 1, faker.datatype.boolean() ? 1 : 0);
  addCard.run(credit.name, credit.id, 'Credit', last4(), name, expires(), 0, 300, faker.number.int({ min: 6, max: 16 }) * 500, 1, 1);
  addCard.run(`${theme.network} Virtual Card`, credit.id, 'Credit', last4(), name, expires(), faker.datatype.boolean() ? 1 : 0, 200, 1000, 1, 0);
  if (bills !== primary) {
    addCard.run(`${bills.name} Card`, bills.id, 'Debit', last4(), `${faker.person.firstName()} ${last}`, expires(), faker.datatype.boolean() ? 1 : 0, 300, 2000, 0, 0);
  }
  return { title: theme.title };
}
