/** The bank's info tasks: questions about balances, transactions, spending, statements, payees, payments and cards. @module */
import { money } from '../../layout';
import { answer, step } from '../../task-kit';
import type { TaskSpec } from '../../template';
import { slugify } from '../../values';
import { balanceText, monthName, monthRange } from './format';
import { findTransactions, statements, txTotals, type AccountRow, type TxRow } from './queries';
import { openTx, txPhrase, type BankData } from './task-data';
import { CATEGORIES, MERCHANTS } from './themes';

/** Oracle steps that filter an account's activity to a category and a month. */
function monthFilter(a: AccountRow, category: string, period: string, extra: ReturnType<typeof step.select>[] = []) {
  const [from, to] = monthRange(period);
  return [step.link(a.name), step.select('Category', category), ...extra, step.type('From', from), step.type('To', to), step.button('Apply filters')];
}

function monthTxs(d: BankData, a: AccountRow, category: string, period: string): TxRow[] {
  const [from, to] = monthRange(period);
  return findTransactions(d.input.db, { account: a.id, category, from, to, sort: 'amount_desc' });
}

/** The info task generators, each a list in the bank's order. */
export function infoTasks(d: BankData): TaskSpec[][] {
  const groups: TaskSpec[][] = [];
  const spending = d.accounts.filter((a) => a.type === 'credit' || a.id === d.accounts[0]?.id);
  const shopping = CATEGORIES.filter((c) => MERCHANTS.some((m) => m.category === c));
  const spent = [...shopping, 'Bills & Utilities'];
  const counted = CATEGORIES.filter((c) => c !== 'Transfers');

  groups.push(d.accounts.map((a) => {
    const owed = a.type === 'credit';
    return {
      slug: `balance-${a.id}`, kind: 'info', instruction: owed ? `How much do I currently owe on my ${a.name}?` : `What is the current balance of my ${a.name}?`,
      verifier: { answer: answer.number(owed ? -a.balance : a.balance) }, oracle: [step.link(a.name), step.done(balanceText(a.type, a.balance))],
    };
  }));
  const described = d.mix(d.txs);
  groups.push(described.slice(0, 40).map((t) => ({
    slug: `tx-amount-${t.id}`, kind: 'info', instruction: `How much was ${txPhrase(t)}?`,
    verifier: { answer: answer.number(Math.abs(t.amount)) }, oracle: [...openTx(d, t), step.done(money(Math.abs(t.amount)))],
  })));
  groups.push(spending.flatMap((a) => d.periods.flatMap((period) => spent.flatMap((c) => {
    const list = monthTxs(d, a, c, period);
    const { moneyOut } = txTotals(list);
    if (list.filter((t) => t.amount < 0).length < 2) return [];
    return [{
      slug: `spend-${a.id}-${slugify(c)}-${period}`, kind: 'info' as const,
      instruction: `How much did I spend on ${c} with my ${a.name} in ${monthName(period)}?`,
      verifier: { answer: answer.number(moneyOut) }, oracle: [...monthFilter(a, c, period), step.done(money(moneyOut))],
    }];
  }))));
  groups.push(d.accounts.flatMap((a) => statements(d.input.db, a.id, d.today).flatMap((s) => {
    if (a.type === 'credit' && s.closing > 0) return [];
    const value = a.type === 'credit' ? -s.closing : s.closing;
    return [{
      slug: `statement-${a.id}-${s.period}`, kind: 'info' as const,
      instruction: a.type === 'credit' ? `What balance did my ${a.name} statement for ${monthName(s.period)} close with?` : `What was the closing balance on my ${a.name} statement for ${monthName(s.period)}?`,
      verifier: { answer: answer.number(value) },
      oracle: [step.link('Statements'), step.select('Account', a.name), step.button('Show statements'), step.link(monthName(s.period)), step.done(balanceText(a.type, s.closing))],
    }];
  })));
  groups.push(d.mix(d.payees).map((p) => ({
    slug: `payee-number-${p.id}`, kind: 'info', instruction: `What account number do I have on file for my payee ${p.name}?`,
    verifier: { answer: answer.includes(p.account_number) }, oracle: [step.link('Payees'), step.link(p.name), step.done(p.account_number)],
  })));
  const soleTarget = d.scheduled.filter((p) => d.scheduled.filter((q) => q.to_name === p.to_name && q.kind === p.kind).length === 1);
  groups.push(soleTarget.map((p) => ({
    slug: `scheduled-date-${p.id}`, kind: 'info', instruction: `When is my next scheduled ${p.kind} to ${p.to_name} going out? Answer with the date.`,
    verifier: { answer: answer.includes(p.send_on) }, oracle: [step.link('Scheduled'), step.done(p.send_on)],
  })));
  groups.push(described.slice(40).filter((t) => t.method === 'Debit card' || t.method === 'Credit card').slice(0, 25).map((t) => ({
    slug: `tx-category-${t.id}`, kind: 'info', instruction: `Which spending category is ${txPhrase(t)} filed under?`,
    verifier: { answer: answer.includes(t.category) }, oracle: [...openTx(d, t), step.done(t.category)],
  })));
  groups.push(spending.flatMap((a) => d.periods.flatMap((period) => shopping.flatMap((c) => {
    const list = monthTxs(d, a, c, period).filter((t) => t.amount < 0);
    const [top, next] = list;
    if (!top || !next || Math.abs(next.amount) === Math.abs(top.amount)) return [];
    return [{
      slug: `top-${a.id}-${slugify(c)}-${period}`, kind: 'info' as const,
      instruction: `What was my most expensive ${c} purchase on my ${a.name} in ${monthName(period)}? Tell me where it was.`,
      verifier: { answer: answer.includes(top.name) },
      oracle: [...monthFilter(a, c, period, [step.select('Show', 'Money out'), step.select('Sort by', 'Largest amount first')]), step.done(top.name)],
    }];
  }))).slice(0, 20));
  groups.push(spending.flatMap((a) => d.periods.slice(0, 2).flatMap((period) => counted.flatMap((c) => {
    const n = monthTxs(d, a, c, period).length;
    if (n < 2) return [];
    return [{
      slug: `count-${a.id}-${slugify(c)}-${period}`, kind: 'info' as const,
      instruction: `How many ${c} transactions were there on my ${a.name} in ${monthName(period)}?`,
      verifier: { answer: answer.number(n, 0) }, oracle: [...monthFilter(a, c, period), step.done(`${n} transactions`)],
    }];
  }))).slice(0, 15));
  groups.push(d.cards.flatMap((c) => [
    { slug: `card-atm-${c.id}`, kind: 'info' as const, instruction: `What is the daily ATM withdrawal limit on my ${c.name}?`,
      verifier: { answer: answer.number(c.atm_limit, 0) }, oracle: [step.link('Cards'), step.link(c.name), step.done(money(c.atm_limit))] },
    { slug: `card-expiry-${c.id}`, kind: 'info' as const, instruction: `When does my ${c.name} expire? Answer as MM/YY.`,
      verifier: { answer: answer.includes(c.expires) }, oracle: [step.link('Cards'), step.link(c.name), step.done(c.expires)] },
  ]));
  groups.push(d.accounts.flatMap((a) => [
    { slug: `number-${a.id}`, kind: 'info' as const, instruction: `What is the full account number of my ${a.name}?`,
      verifier: { answer: answer.includes(a.number) }, oracle: [step.link(a.name), step.done(a.number)] },
    ...(a.type === 'savings' ? [{ slug: `rate-${a.id}`, kind: 'info' as const, instruction: `What interest rate does my ${a.name} earn?`,
      verifier: { answer: answer.number(a.rate, 0.001) }, oracle: [step.link(a.name), step.done(`${a.rate.toFixed(2)}% APY`)] }] : []),
    ...(a.type === 'credit' ? [{ slug: `available-${a.id}`, kind: 'info' as const, instruction: `How much available credit is left on my ${a.name}?`,
      verifier: { answer: answer.number(a.credit_limit + a.balance) }, oracle: [step.link(a.name), step.done(money(a.credit_limit + a.balance))] }] : []),
  ]));
  const paid = d.payments.filter((p) => p.kind === 'payment' && p.status === 'Completed' && p.payee_id !== null);
  const soleDay = paid.filter((p) => paid.filter((q) => q.payee_id === p.payee_id && q.send_on === p.send_on).length === 1);
  groups.push(d.mix(soleDay).slice(0, 15).map((p) => ({
    slug: `confirmation-${p.id}`, kind: 'info', instruction: `What was the confirmation number of my ${p.send_on} payment to ${p.to_name}?`,
    verifier: { answer: answer.includes(p.id) }, oracle: [step.link('Payees'), step.link(p.to_name), step.done(p.id)],
  })));
  const cash = d.accounts.filter((a) => a.type !== 'credit').reduce((s, a) => s + a.balance, 0);
  groups.push([{
    slug: 'total-cash', kind: 'info', instruction: 'How much money do I have across my checking and savings accounts in total?',
    verifier: { answer: answer.number(Math.round(cash * 100) / 100) }, oracle: [step.done(money(cash))],
  }]);
  return groups;
}
