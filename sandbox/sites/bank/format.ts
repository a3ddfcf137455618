/** The bank's shared wording and input parsing: labels of accounts, transactions and payments; amounts and dates. @module */
import { money } from '../../layout';
import { slugify } from '../../values';
import { CATEGORIES } from './themes';

/** `Everyday Checking (••4821)`: how accounts appear in choices. */
export function accountLabel(a: { name: string; number: string }): string {
  return `${a.name} (••${a.number.slice(-4)})`;
}

/** A balance as the customer reads it: credit card balances are shown as the amount owed. */
export function balanceText(type: string, value: number): string {
  return type === 'credit' ? `${money(-value)} owed` : money(value);
}

/** `Whole Foods Market, 2026-02-14, -$82.14`: a transaction link's accessible name (unique on its pages). */
export function txLabel(t: { name: string; date: string; amount: number }): string {
  return `${t.name}, ${t.date}, ${money(t.amount)}`;
}

/** `payment to Bayside Electric on 2026-03-20`: how a scheduled payment or transfer is named in controls. */
export function paymentLabel(p: { kind: string; to_name: string; send_on: string }): string {
  return `${p.kind === 'transfer' ? 'transfer' : 'payment'} to ${p.to_name} on ${p.send_on}`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `2026-02` → `February 2026`. */
export function monthName(period: string): string {
  return `${MONTHS[Number(period.slice(5, 7)) - 1] ?? ''} ${period.slice(0, 4)}`;
}

/** The first and last day of a `YYYY-MM` period. */
export function monthRange(period: string): [string, string] {
  const [y, m] = [Number(period.slice(0, 4)), Number(period.slice(5, 7))];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return [`${period}-01`, `${period}-${String(last).padStart(2, '0')}`];
}

/** The category a slug stands for, if any. */
export function categoryOf(slug: string): (typeof CATEGORIES)[number] | undefined {
  return CATEGORIES.find((c) => slugify(c) === slug);
}

/** A positive amount of money from a form (`1,250.50`, `$80`), at most $1,000,000; `undefined` when it is not one. */
export function parseAmount(raw: string): number | undefined {
  const text = raw.replace(/[$,\s]/g, '');
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(text)) return undefined;
  const n = Number(text);
  return n > 0 && n <= 1_000_000 ? n : undefined;
}

/** Whether a form's value is a checked checkbox. */
export function isOn(raw: string): boolean {
  return raw === '1';
}
