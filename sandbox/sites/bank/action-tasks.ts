/** The bank's other action tasks: payees, cards, transactions, list filters, statements, accounts and settings. @module */
import { money } from '../../layout';
import { noRow, request, row, step } from '../../task-kit';
import type { TaskSpec } from '../../template';
import { slugify } from '../../values';
import { monthName, monthRange } from './format';
import { statements } from './queries';
import { SEARCH, openTx, txPhrase, type BankData } from './task-data';
import { ATM_LIMITS, CATEGORIES, MERCHANTS, PAYEE_CATEGORIES } from './themes';
import { TX_PAGE_SIZE } from './tx-list';

const NOTES = ['Reimbursable work expense', 'Split with roommate', 'Birthday dinner', 'Tax deductible', 'Ask about this charge', 'Gift for Mom', 'Business trip', 'Return pending'];
const NICKNAMES = ['Main Account', 'Rainy Day Fund', 'Travel Money', 'Household Bills', 'Big Purchases', 'Everyday Spending', 'Holiday Savings', 'Side Hustle'];

/** The payee, card, transaction, list and settings task generators. */
export function actionTasks(d: BankData): TaskSpec[][] {
  const { faker, input } = d;
  const { href } = input;
  const groups: TaskSpec[][] = [];
  const payeeNames = new Set(d.payees.map((p) => p.name.toLowerCase()));

  const newPayee: Record<string, () => string> = {
    Utilities: () => `${faker.location.city()} Gas Company`, 'Phone & internet': () => `${faker.person.lastName()} Telecom`,
    Insurance: () => `${faker.person.lastName()} Insurance Group`, Housing: () => `${faker.person.lastName()} Realty`,
    'Credit card': () => `${faker.person.lastName()} Card Services`, Education: () => `${faker.location.city()} Music School`,
    Health: () => `${faker.person.lastName()} Pediatrics`, Other: () => `${faker.person.lastName()} Plumbing`, Person: () => faker.person.fullName(),
  };
  groups.push(Array.from({ length: 10 }, (_, i) => {
    const category = i % 3 === 2 ? 'Person' : (faker.helpers.arrayElement(PAYEE_CATEGORIES.filter((c) => c !== 'Person')) as string);
    let name = '';
    while (!name || payeeNames.has(name.toLowerCase())) name = (newPayee[category] ?? newPayee.Other ?? (() => 'New Payee'))();
    payeeNames.add(name.toLowerCase());
    const number = category === 'Person' ? faker.string.numeric(9) : faker.helpers.replaceSymbols('#####-####');
    return {
      slug: `payee-add-${i}`, kind: 'action' as const, instruction: `Add ${name} as a new payee in the ${category} category with account number ${number}.`,
      verifier: { state: [row('payees', { name }, { category, account_number: number })] },
      oracle: [step.link('Payees'), step.link('Add a payee'), step.type('Payee name', name), step.select('Category', category), step.type('Account number', number), step.button('Save payee'), step.done()],
    };
  }));
  const deletable = d.payees.filter((p) => !d.scheduled.some((s) => s.payee_id === p.id));
  groups.push(d.mix(deletable).map((p) => ({
    slug: `payee-delete-${p.id}`, kind: 'action', instruction: `Remove ${p.name} from my payees.`,
    verifier: { state: [noRow('payees', { id: p.id })] }, oracle: [step.link('Payees'), step.link(p.name), step.button('Delete payee'), step.done()],
  })));
  groups.push(d.mix(d.payees).map((p) => {
    const number = faker.helpers.replaceSymbols(p.category === 'Person' ? '#########' : '####-######-##');
    return {
      slug: `payee-number-edit-${p.id}`, kind: 'action' as const, instruction: `Update the account number of my payee ${p.name} to ${number}.`,
      verifier: { state: [row('payees', { id: p.id }, { account_number: number })] },
      oracle: [step.link('Payees'), step.link(p.name), step.link('Edit payee'), step.type('Account number', number), step.button('Save payee'), step.done()],
    };
  }));
  const nicknames: Record<string, readonly string[]> = {
    Utilities: ['Utility bill', 'Home utilities'], 'Phone & internet': ['Phone and internet', 'Monthly plan'], Insurance: ['Insurance premium'],
    Housing: ['Landlord', 'Apartment rent'], Education: ['Tuition'], Health: ['Dentist'], Other: ['Monthly service', 'Home services'],
  };
  groups.push(d.mix(d.payees).map((p) => {
    const options = p.category === 'Person' ? [p.name.split(' ')[0] ?? p.name, `${p.name.split(' ')[0] ?? p.name} (friend)`] : (nicknames[p.category] ?? ['Bill']);
    const nick = options.find((o) => o !== p.nickname) ?? 'Regular bill';
    return {
      slug: `payee-nickname-${p.id}`, kind: 'action' as const, instruction: `Give my payee ${p.name} the nickname "${nick}".`,
      verifier: { state: [row('payees', { id: p.id }, { nickname: nick })] },
      oracle: [step.link('Payees'), step.link(p.name), step.link('Edit payee'), step.type('Nickname', nick), step.button('Save payee'), step.done()],
    };
  }));
  groups.push(d.cards.map((c) => ({
    slug: `${c.frozen ? 'unfreeze' : 'freeze'}-${c.id}`, kind: 'action', instruction: c.frozen ? `Unfreeze my ${c.name} so I can use it again.` : `Freeze my ${c.name} for now.`,
    verifier: { state: [row('cards', { id: c.id }, { frozen: c.frozen ? 0 : 1 })] },
    oracle: [step.link('Cards'), step.link(c.name), step.button(c.frozen ? 'Unfreeze card' : 'Freeze card'), step.done()],
  })));
  groups.push(d.cards.flatMap((c) => faker.helpers.arrayElements(ATM_LIMITS.filter((l) => l !== c.atm_limit), 2).map((limit) => ({
    slug: `atm-${c.id}-${limit}`, kind: 'action' as const, instruction: `Set the daily ATM withdrawal limit on my ${c.name} to $${limit.toLocaleString('en-US')}.`,
    verifier: { state: [row('cards', { id: c.id }, { atm_limit: limit })] },
    oracle: [step.link('Cards'), step.link(c.name), step.select('Daily ATM withdrawal limit', money(limit)), step.button('Save card settings'), step.done()],
  }))));
  groups.push(d.cards.flatMap((c) => [
    { field: 'online', on: c.online, text: ['Block online purchases on', 'Allow online purchases with'], box: 'Allow online purchases' },
    { field: 'international', on: c.international, text: ['Turn off international transactions on', 'Turn on international transactions for'], box: 'Allow international transactions' },
  ].map((t) => ({
    slug: `${t.field}-${c.id}`, kind: 'action' as const, instruction: `${t.text[t.on ? 0 : 1]} my ${c.name}.`,
    verifier: { state: [row('cards', { id: c.id }, { [t.field]: t.on ? 0 : 1 })] },
    oracle: [step.link('Cards'), step.link(c.name), step.check(t.box), step.button('Save card settings'), step.done()],
  }))));
  groups.push(d.cards.map((c) => {
    let limit = faker.number.int({ min: 4, max: 30 }) * 250;
    if (limit === c.purchase_limit) limit += 250;
    return {
      slug: `purchase-limit-${c.id}`, kind: 'action' as const, instruction: `Change the daily purchase limit on my ${c.name} to $${limit.toLocaleString('en-US')}.`,
      verifier: { state: [row('cards', { id: c.id }, { purchase_limit: limit })] },
      oracle: [step.link('Cards'), step.link(c.name), step.type('Daily purchase limit', String(limit), { role: 'spinbutton' }), step.button('Save card settings'), step.done()],
    };
  }));
  const purchases = d.mix(d.txs.filter((t) => t.method === 'Debit card' || t.method === 'Credit card'));
  groups.push(purchases.slice(0, 20).map((t) => {
    const category = faker.helpers.arrayElement([...MERCHANTS.map((m) => m.category), 'Bills & Utilities'].filter((c) => c !== t.category));
    return {
      slug: `recategorize-${t.id}`, kind: 'action' as const, instruction: `Recategorize ${txPhrase(t)} as ${category}.`,
      verifier: { state: [row('transactions', { id: t.id }, { category })] },
      oracle: [...openTx(d, t), step.select('Category', category), step.button('Save category'), step.done()],
    };
  }));
  groups.push(purchases.slice(20, 35).map((t) => {
    const note = faker.helpers.arrayElement(NOTES);
    return {
      slug: `note-${t.id}`, kind: 'action' as const, instruction: `Add the note "${note}" to ${txPhrase(t)}.`,
      verifier: { state: [row('transactions', { id: t.id }, { note })] },
      oracle: [...openTx(d, t), step.type('Note', note), step.button('Save note'), step.done()],
    };
  }));
  const present = (accountId: number): string[] => CATEGORIES.filter((c) => d.txs.some((t) => t.account_id === accountId && t.category === c));
  groups.push(d.accounts.flatMap((a) => present(a.id).map((c) => ({
    slug: `filter-${a.id}-${slugify(c)}`, kind: 'action' as const, instruction: `Show only the ${c} transactions of my ${a.name}.`,
    verifier: { requests: [request('GET', href(`/accounts/${a.id}`), { category: slugify(c) })] },
    oracle: [step.link(a.name), step.select('Category', c), step.button('Apply filters'), step.done()],
  }))));
  groups.push(d.accounts.flatMap((a) => d.periods.map((period) => {
    const [from, to] = monthRange(period);
    return {
      slug: `month-${a.id}-${period}`, kind: 'action' as const, instruction: `List the transactions on my ${a.name} from ${monthName(period)}.`,
      verifier: { requests: [request('GET', href(`/accounts/${a.id}`), { from, to })] },
      oracle: [step.link(a.name), step.type('From', from), step.type('To', to), step.button('Apply filters'), step.done()],
    };
  })));
  const sorts = [['amount_desc', 'Largest amount first', 'with the largest amounts first'], ['amount_asc', 'Smallest amount first', 'from the smallest amount up'], ['oldest', 'Oldest first', 'with the oldest first']] as const;
  groups.push(d.accounts.flatMap((a) => sorts.map(([value, text, phrase]) => ({
    slug: `sort-${a.id}-${value}`, kind: 'action' as const, instruction: `Sort the transactions of my ${a.name} ${phrase}.`,
    verifier: { requests: [request('GET', href(`/accounts/${a.id}`), { sort: value })] },
    oracle: [step.link(a.name), step.select('Sort by', text), step.button('Apply filters'), step.done()],
  }))));
  groups.push(d.accounts.flatMap((a) => {
    const n = d.txs.filter((t) => t.account_id === a.id).length;
    const tasks: TaskSpec[] = [{
      slug: `money-in-${a.id}`, kind: 'action', instruction: `Show only the money that came into my ${a.name}.`,
      verifier: { requests: [request('GET', href(`/accounts/${a.id}`), { type: 'in' })] },
      oracle: [step.link(a.name), step.select('Show', 'Money in'), step.button('Apply filters'), step.done()],
    }];
    if (n > TX_PAGE_SIZE) tasks.push({
      slug: `page2-${a.id}`, kind: 'action', instruction: `Open the second page of transactions of my ${a.name}.`,
      verifier: { requests: [request('GET', href(`/accounts/${a.id}`), { page: 2 })] }, oracle: [step.link(a.name), step.link('Next page'), step.done()],
    });
    return tasks;
  }));
  const merchants = [...new Set(d.txs.filter((t) => t.method.endsWith('card')).map((t) => t.name))].filter((m) => MERCHANTS.some((g) => g.names.includes(m)));
  groups.push(d.mix(merchants).slice(0, 15).map((m) => ({
    slug: `search-${m.toLowerCase().replace(/[^a-z0-9]+/g, '')}`, kind: 'action' as const, instruction: `Find every transaction I made at ${m}.`,
    verifier: { requests: [request('GET', href('/search'), { q: m })] }, oracle: [step.search(SEARCH, m), step.done()],
  })));
  const taken = new Set(d.accounts.map((a) => a.name.toLowerCase()));
  groups.push(d.accounts.map((a, i) => {
    const nick = NICKNAMES.filter((n) => !taken.has(n.toLowerCase()))[i % NICKNAMES.length] ?? `Account ${i + 1}`;
    return {
      slug: `rename-${a.id}`, kind: 'action' as const, instruction: `Rename my ${a.name} account to "${nick}".`,
      verifier: { state: [row('accounts', { id: a.id }, { name: nick })] },
      oracle: [step.link(a.name), step.type('Account nickname', nick), step.button('Rename account'), step.done()],
    };
  }));
  groups.push(d.accounts.flatMap((a) => [...new Set(statements(input.db, a.id, d.today).map((s) => s.period.slice(0, 4)))].map((year) => ({
    slug: `statements-${a.id}-${year}`, kind: 'action' as const, instruction: `Show the ${year} statements of my ${a.name}.`,
    verifier: { requests: [request('GET', href('/statements'), { account: a.id, year })] },
    oracle: [step.link('Statements'), step.select('Account', a.name), step.select('Year', year), step.button('Show statements'), step.done()],
  }))));
  groups.push(settingsTasks(d));
  groups.push([
    ...[['cancelled', 'Cancelled'], ['scheduled', 'Scheduled'], ['completed', 'Completed']].map(([value, text]) => ({
      slug: `activity-${value}`, kind: 'action' as const, instruction: `Show only my ${value} payments and transfers.`,
      verifier: { requests: [request('GET', href('/payments'), { status: value as string })] },
      oracle: [step.link('Activity'), step.select('Status', text as string), step.button('Show payments'), step.done()],
    })),
    ...[['transfer', 'Transfers', 'transfers between my accounts'], ['payment', 'Bill payments', 'bill payments']].map(([value, text, phrase]) => ({
      slug: `activity-${value}`, kind: 'action' as const, instruction: `List only my ${phrase} in the payment activity.`,
      verifier: { requests: [request('GET', href('/payments'), { kind: value as string })] },
      oracle: [step.link('Activity'), step.select('Type', text as string), step.button('Show payments'), step.done()],
    })),
    ...PAYEE_CATEGORIES.filter((c) => d.payees.some((p) => p.category === c)).map((c) => ({
      slug: `payees-${slugify(c)}`, kind: 'action' as const, instruction: `List my payees in the ${c} category.`,
      verifier: { requests: [request('GET', href('/payees'), { category: c })] },
      oracle: [step.link('Payees'), step.select('Category', c), step.button('Find payees'), step.done()],
    })),
  ]);
  return groups;
}

function settingsTasks(d: BankData): TaskSpec[] {
  const { faker, me } = d;
  const go = step.link('Settings');
  const save = step.button('Save settings');
  const phones = Array.from({ length: 3 }, () => faker.helpers.replaceSymbols('(###) 555-####')).filter((p) => p !== me.phone);
  const alerts = [50, 150, 300, 750, 1000].filter((n) => n !== me.alert_below).slice(0, 3);
  const other = me.alert_by === 'email' ? { value: 'text', text: 'Text message', say: 'text message' } : { value: 'email', text: 'Email', say: 'email' };
  return [
    { slug: 'paperless', kind: 'action', instruction: me.paperless ? 'Switch me back to paper statements by mail.' : 'Turn on paperless statements.',
      verifier: { state: [row('profile', { id: 1 }, { paperless: me.paperless ? 0 : 1 })] }, oracle: [go, step.check('Paperless statements'), save, step.done()] },
    ...phones.map((phone, i) => ({ slug: `phone-${i}`, kind: 'action' as const, instruction: `Change the phone number the bank has for me to ${phone}.`,
      verifier: { state: [row('profile', { id: 1 }, { phone })] }, oracle: [go, step.type('Phone', phone), save, step.done()] })),
    ...alerts.map((n) => ({ slug: `alert-${n}`, kind: 'action' as const, instruction: `Alert me when a balance drops below $${n.toLocaleString('en-US')}.`,
      verifier: { state: [row('profile', { id: 1 }, { alert_below: n })] }, oracle: [go, step.type('Low balance alert amount', String(n), { role: 'spinbutton' }), save, step.done()] })),
    { slug: 'alert-by', kind: 'action', instruction: `Send my account alerts by ${other.say} instead.`,
      verifier: { state: [row('profile', { id: 1 }, { alert_by: other.value })] }, oracle: [go, step.radio(other.text), save, step.done()] },
    ...Array.from({ length: 2 }, (_, i) => {
      const email = `${me.name.split(' ')[0]?.toLowerCase() ?? 'me'}.${faker.word.noun().toLowerCase()}${i}@example.net`;
      return { slug: `email-${i}`, kind: 'action' as const, instruction: `Update my email address to ${email}.`,
        verifier: { state: [row('profile', { id: 1 }, { email })] }, oracle: [go, step.type('Email', email), save, step.done()] };
    }),
    ...Array.from({ length: 2 }, (_, i) => {
      const [street, city, zip] = [faker.location.streetAddress(), faker.location.city(), faker.location.zipCode('#####')];
      return { slug: `address-${i}`, kind: 'action' as const, instruction: `I moved: change my mailing address to ${street}, ${city} ${zip}.`,
        verifier: { state: [row('profile', { id: 1 }, { street, city, zip })] },
        oracle: [go, step.type('Street address', street), step.type('City', city), step.type('ZIP code', zip), save, step.done()] };
    }),
  ];
}
