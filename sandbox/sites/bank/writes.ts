/** The bank's shared writes: booking a transaction on an account and numbering new payments. @module */
import { cents } from '../../values';
import type { Database } from 'better-sqlite3';

/** Books a posted transaction on an account and moves its balance. */
export function bookTransaction(
  db: Database,
  t: { account: { id: number }; date: string; name: string; category: string; amount: number; method: string; note?: string },
): void {
  const { balance } = db.prepare('SELECT balance FROM accounts WHERE id = ?').get(t.account.id) as { balance: number };
  const after = cents(balance + t.amount);
  const { ref } = db.prepare('SELECT MAX(CAST(reference AS INTEGER)) AS ref FROM transactions').get() as { ref: number | null };
  db.prepare('UPDATE accounts SET balance = ? WHERE id = ?').run(after, t.account.id);
  db.prepare(`INSERT INTO transactions (account_id, date, name, category, amount, balance, method, reference, status, note)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'Posted', ?)`).run(t.account.id, t.date, t.name, t.category, cents(t.amount), after, t.method, String((ref ?? 1_000_000_000) + 1), t.note ?? '');
}

/** The next confirmation number (`HB-204877`): the bank's prefix and one more than the highest so far. */
export function newConfirmation(db: Database): string {
  const rows = db.prepare('SELECT id FROM payments').all() as Array<{ id: string }>;
  let prefix = 'PM';
  let max = 204100;
  for (const { id } of rows) {
    const m = /^([A-Z]+)-(\d+)$/.exec(id);
    if (!m) continue;
    prefix = m[1] as string;
    max = Math.max(max, Number(m[2]));
  }
  return `${prefix}-${max + 1}`;
}
