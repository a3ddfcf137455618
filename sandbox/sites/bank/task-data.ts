/** What the bank's task generators share: the site's pristine data and the oracle steps that reach its items. @module */
import type { Faker } from '@faker-js/faker';
import type { OracleStep } from '../../oracle';
import { step } from '../../task-kit';
import type { TaskInput } from '../../template';
import { txLabel } from './format';
import {
  accounts, cards, findPayees, findPayments, findTransactions, profile, scheduledPayments,
  type AccountRow, type CardRow, type PayeeRow, type PaymentRow, type ProfileRow, type TxRow,
} from './queries';
import { TX_PAGE_SIZE } from './tx-list';

/** The header search box's name. */
export const SEARCH = 'Search transactions';

/** A site's data as task generators read it. */
export interface BankData {
  readonly input: TaskInput;
  readonly faker: Faker;
  readonly today: string;
  readonly accounts: AccountRow[];
  /** Checking and savings accounts: where money can be sent from. */
  readonly sources: AccountRow[];
  readonly txs: TxRow[];
  readonly payees: PayeeRow[];
  readonly payments: PaymentRow[];
  readonly scheduled: PaymentRow[];
  readonly cards: CardRow[];
  readonly me: ProfileRow;
  /** The last three full months, newest first (`2026-02`...). */
  readonly periods: string[];
  /** A fresh shuffled copy of a list (the task faker's order). */
  mix<T>(list: readonly T[]): T[];
  account(id: number): AccountRow;
}

/** Reads a site's data for its task generators. */
export function bankData(input: TaskInput): BankData {
  const { db, faker } = input;
  const all = accounts(db);
  const today = input.site.today;
  const periods: string[] = [];
  for (let y = Number(today.slice(0, 4)), m = Number(today.slice(5, 7)) - 1; periods.length < 3; m--) {
    if (m === 0) {
      y--;
      m = 12;
    }
    periods.push(`${y}-${String(m).padStart(2, '0')}`);
  }
  return {
    input,
    faker,
    today,
    accounts: all,
    sources: all.filter((a) => a.type !== 'credit'),
    txs: findTransactions(db, {}),
    payees: findPayees(db),
    payments: findPayments(db),
    scheduled: scheduledPayments(db),
    cards: cards(db),
    me: profile(db),
    periods,
    mix: <T>(list: readonly T[]): T[] => faker.helpers.shuffle([...list]),
    account: (id) => all.find((a) => a.id === id) as AccountRow,
  };
}

/**
 * Steps from the home page to a transaction's page: through the header search when the transaction is on the
 * first page of results for its name, else through its account's activity filtered to its day.
 */
export function openTx(d: BankData, t: TxRow): OracleStep[] {
  const hits = findTransactions(d.input.db, { q: t.name });
  if (hits.slice(0, TX_PAGE_SIZE).some((h) => h.id === t.id)) return [step.search(SEARCH, t.name), step.link(txLabel(t))];
  return [step.link(t.account), step.type('From', t.date), step.type('To', t.date), step.button('Apply filters'), step.link(txLabel(t))];
}

/**
 * How the customer names a transaction: `the Starbucks charge on 2026-02-14 on my Harbor Rewards Card`,
 * `my payment to Bayside Electric on 2026-02-12 from my Everyday Checking`.
 */
export function txPhrase(t: TxRow): string {
  const where = t.amount > 0 ? `into my ${t.account}` : t.method === 'Debit card' || t.method === 'Credit card' ? `on my ${t.account}` : `from my ${t.account}`;
  if (t.method === 'Bill payment') return `my ${t.name.replace(/^Payment/, 'payment')} on ${t.date} ${where}`;
  if (t.method === 'Online transfer') return `the ${t.name.replace(/^Transfer/, 'transfer')} on ${t.date} ${where}`;
  if (t.method === 'Interest') return `the interest payment on ${t.date} ${where}`;
  if (t.method === 'ATM') return `the ATM withdrawal on ${t.date} ${where}`;
  if (t.method === 'Fee') return `the ${t.name} on ${t.date} ${where}`;
  const noun = t.amount > 0 ? (t.name.endsWith('refund') ? 'credit' : 'deposit') : 'charge';
  return `the ${t.name} ${noun} on ${t.date} ${where}`;
}
