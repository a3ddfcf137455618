/** The bank's money movement tasks: transfers and bill payments (now, later, repeating) and scheduled payment changes. @module */
import { money } from '../../layout';
import { row, step } from '../../task-kit';
import type { TaskSpec } from '../../template';
import { addDays, cents } from '../../values';
import { accountLabel, paymentLabel } from './format';
import type { AccountRow, PayeeRow } from './queries';
import type { BankData } from './task-data';

/** `$250` or `$84.20`, as a person would write an amount. */
function say(amount: number): string {
  return Number.isInteger(amount) ? `$${amount.toLocaleString('en-US')}` : money(amount);
}

/** An amount a customer might move: whole dollars mostly, sometimes with cents, at most `max`. */
function pickAmount(d: BankData, max: number): number {
  const whole = d.faker.number.int({ min: 2, max: Math.max(3, Math.min(40, Math.floor(max / 25))) }) * 25;
  return d.faker.datatype.boolean({ probability: 0.3 }) ? cents(whole - d.faker.number.int({ min: 1, max: 99 }) / 100) : whole;
}

function transferSteps(from: AccountRow, to: AccountRow, amount: number, extra: ReturnType<typeof step.type>[] = []) {
  return [step.link('Transfer'), step.select('From account', accountLabel(from)), step.select('To account', accountLabel(to)),
    step.type('Amount', String(amount), { role: 'spinbutton' }), ...extra, step.button('Review transfer'), step.button('Confirm transfer'), step.done()];
}

function paySteps(d: BankData, from: AccountRow, payee: PayeeRow, amount: number, extra: ReturnType<typeof step.type>[] = []) {
  const pickFrom = from.id === d.sources[0]?.id ? [] : [step.select('Pay from', accountLabel(from))];
  return [step.link('Pay bills'), ...pickFrom, step.select('Payee', payee.name), step.type('Amount', String(amount), { role: 'spinbutton' }), ...extra,
    step.button('Review payment'), step.button('Confirm payment'), step.done()];
}

/** The money movement task generators. */
export function moneyTasks(d: BankData): TaskSpec[][] {
  const groups: TaskSpec[][] = [];
  const seen = new Set(d.payments.map((p) => `${p.kind}|${p.from_account_id}|${p.to_account_id ?? p.payee_id}|${p.amount}`));
  const fresh = (kind: string, from: number, to: number, amount: number): boolean => {
    const key = `${kind}|${from}|${to}|${amount}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  const pairs = d.sources.flatMap((from) => d.accounts.filter((to) => to.id !== from.id).map((to) => [from, to] as const));
  const futureDay = (): string => addDays(d.today, d.faker.number.int({ min: 2, max: 40 }));

  groups.push(d.mix([...pairs, ...pairs]).flatMap(([from, to]) => {
    const amount = pickAmount(d, Math.min(from.balance, 1500));
    if (amount > from.balance || !fresh('transfer', from.id, to.id, amount)) return [];
    const instruction = to.type === 'credit'
      ? `Pay ${say(amount)} toward my ${to.name} from my ${from.name} right now.`
      : `Transfer ${say(amount)} from my ${from.name} to my ${to.name} now.`;
    return [{
      slug: `transfer-${from.id}-${to.id}-${Math.round(amount * 100)}`, kind: 'action' as const, instruction,
      verifier: { state: [row('payments', { kind: 'transfer', from_account_id: from.id, to_account_id: to.id, amount }, { status: 'Completed', send_on: d.today })] },
      oracle: transferSteps(from, to, amount),
    }];
  }).slice(0, 14));
  groups.push(d.mix(d.payees).map((payee, i) => {
    const from = d.sources[i % 3 === 2 ? 1 : 0] ?? (d.sources[0] as AccountRow);
    const date = futureDay();
    const amount = pickAmount(d, 600);
    const memo = d.faker.helpers.arrayElement(['March bill', 'Invoice 2231', 'Thanks!', 'Spring term', 'Account top-up', 'Final balance']);
    return {
      slug: `pay-later-${payee.id}`, kind: 'action' as const,
      instruction: `Schedule a payment of ${say(amount)} to ${payee.name} from my ${from.name} on ${date} with the memo "${memo}".`,
      verifier: { state: [row('payments', { kind: 'payment', payee_id: payee.id, send_on: date }, { amount, memo, from_account_id: from.id, status: 'Scheduled' })] },
      oracle: paySteps(d, from, payee, amount, [step.type('Payment date', date), step.type('Memo', memo)]),
    };
  }));
  groups.push(d.mix(d.payees).flatMap((payee, i) => {
    const from = d.sources[i % 4 === 3 ? 1 : 0] ?? (d.sources[0] as AccountRow);
    const amount = pickAmount(d, Math.min(from.balance, 400));
    if (amount > from.balance || !fresh('payment', from.id, payee.id, amount)) return [];
    return [{
      slug: `pay-now-${payee.id}`, kind: 'action' as const, instruction: `Pay ${payee.name} ${say(amount)} from my ${from.name} today.`,
      verifier: { state: [row('payments', { kind: 'payment', payee_id: payee.id, amount }, { from_account_id: from.id, status: 'Completed', send_on: d.today })] },
      oracle: paySteps(d, from, payee, amount),
    }];
  }));
  groups.push(d.scheduled.map((p) => ({
    slug: `cancel-${p.id}`, kind: 'action' as const, instruction: `Cancel my scheduled ${paymentLabel(p)}.`,
    verifier: { state: [row('payments', { id: p.id }, { status: 'Cancelled' })] },
    oracle: [step.link('Scheduled'), step.button(`Cancel ${paymentLabel(p)}`), step.done()],
  })));
  groups.push(d.mix(pairs).flatMap(([from, to]) => {
    const date = futureDay();
    const amount = pickAmount(d, 1000);
    const monthly = d.faker.datatype.boolean();
    if (!fresh('transfer', from.id, to.id, amount)) return [];
    return [{
      slug: `transfer-${monthly ? 'monthly' : 'later'}-${from.id}-${to.id}`, kind: 'action' as const,
      instruction: monthly
        ? `Set up a monthly transfer of ${say(amount)} from my ${from.name} to my ${to.name}, starting ${date}.`
        : `Schedule a one-time transfer of ${say(amount)} from my ${from.name} to my ${to.name} for ${date}.`,
      verifier: { state: [row('payments', { kind: 'transfer', from_account_id: from.id, to_account_id: to.id, amount }, { send_on: date, frequency: monthly ? 'monthly' : 'once', status: 'Scheduled' })] },
      oracle: transferSteps(from, to, amount, [step.type('Transfer date', date), ...(monthly ? [step.select('Repeat', 'Every month')] : [])]),
    }];
  }).slice(0, 10));
  groups.push(d.mix(d.scheduled).map((p) => {
    let amount = pickAmount(d, 900);
    if (amount === p.amount) amount += 10;
    return {
      slug: `reschedule-amount-${p.id}`, kind: 'action' as const, instruction: `Change the amount of my scheduled ${paymentLabel(p)} to ${say(amount)}.`,
      verifier: { state: [row('payments', { id: p.id }, { amount, send_on: p.send_on, status: 'Scheduled' })] },
      oracle: [step.link('Scheduled'), step.link(`Edit ${paymentLabel(p)}`), step.type('Amount', String(amount), { role: 'spinbutton' }), step.button('Save changes'), step.done()],
    };
  }));
  groups.push(d.mix(d.scheduled).map((p) => {
    const date = addDays(p.send_on, d.faker.helpers.arrayElement([-1, 1, 2, 3, 5, 7]));
    const moved = date > d.today ? date : addDays(p.send_on, 2);
    return {
      slug: `reschedule-date-${p.id}`, kind: 'action' as const, instruction: `Move my scheduled ${paymentLabel(p)} to ${moved}.`,
      verifier: { state: [row('payments', { id: p.id }, { send_on: moved, amount: p.amount, status: 'Scheduled' })] },
      oracle: [step.link('Scheduled'), step.link(`Edit ${paymentLabel(p)}`), step.type('Send on', moved), step.button('Save changes'), step.done()],
    };
  }));
  return groups;
}
