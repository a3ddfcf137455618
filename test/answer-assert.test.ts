/**
 * Answers checked by what they assert (issue 48, part 1): for a price, a count, a name, a date and a plain word,
 * honest phrasings (numbers in words too) pass, and generated non-asserting forms (negation, question, hedge,
 * approximation, alternatives with other values of the kind in several notations, lists, structures, values only
 * mentioned) fail, by the hand-written verifier's answer check and by the claim alike.
 */
import { describe, expect, it } from 'vitest';
import { checkClaim, verifyEpisode, type Claim, type Verifier } from '../src/index';
import { FAMILIES, gamingForms, type FormValues } from './helpers/answer-forms';

type Start = Record<string, Array<Record<string, unknown>>>;

interface Case {
  readonly name: string;
  readonly question: string;
  readonly check: NonNullable<Verifier['answer']>;
  readonly claim: Claim;
  readonly start: Start;
  readonly honest: readonly string[];
  readonly forms: FormValues;
}

const products: Start = {
  products: [
    { id: 1, name: 'Minimalist Kettle', price: 99.99, reviews: 3, supplier: 'Mohr Supply', status: 'Shipped' },
    { id: 2, name: 'Kettle 2000', price: 89.99, reviews: 5, supplier: 'Kuhn Traders', status: 'Pending' },
    { id: 3, name: 'Teapot', price: 19.5, reviews: 7, supplier: 'Acme Wholesale', status: 'Cancelled' },
    { id: 4, name: 'Mug', price: 109.99, reviews: 4, supplier: 'Globex', status: 'Delivered' },
  ],
  milestones: [{ id: 1, name: 'Spring Launch', due: '2025-03-14' }, { id: 2, name: 'Beta', due: '2025-04-01' }, { id: 3, name: 'Alpha', due: '2025-02-28' }],
};

const CASES: readonly Case[] = [
  {
    name: 'a price $99.99',
    question: 'What does the Minimalist Kettle cost?',
    check: { type: 'number', value: 99.99, tolerance: 0.005 },
    claim: { answer: { number: 99.99, tolerance: 0.005 } },
    start: products,
    honest: ['$99.99', '99.99', 'It is $99.99.', "It's $99.99", 'The price is $99.99.', 'The Minimalist Kettle costs $99.99.', 'Price: $99.99', '$99.99 is the price.',
      '99.99 USD', 'USD 99.99', '99.99 dollars', 'It costs $99.99 each.', 'The answer is: $99.99.', '$99.99, according to the site.', '**$99.99**'],
    forms: { right: ['$99.99', '99.99', '99.99 USD'], others: [['$89.99', '89.99 USD'], ['$19.50'], ['$109.99', '109.99']], subject: 'price' },
  },
  {
    name: 'a count 3',
    question: 'How many reviews does the Kettle 2000 have?',
    check: { type: 'number', value: 3, tolerance: 0 },
    claim: { answer: { number: 3 } },
    start: products,
    honest: ['3', 'Three.', 'It has 3 reviews.', "It's three reviews.", 'There are 3 reviews.', 'The Kettle 2000 has three reviews.', '3 reviews for the Kettle 2000',
      'Reviews: 3', 'three reviews', 'The number of reviews is 3.', 'It has three reviews in total.', 'There are three.'],
    forms: { right: ['3', 'three', '3 reviews'], others: [['5', 'five'], ['7 reviews'], ['4', 'four']], subject: 'number of reviews' },
  },
  {
    name: 'a name "Mohr Supply"',
    question: 'Which supplier ships the Minimalist Kettle?',
    check: { type: 'includes', value: 'Mohr Supply' },
    claim: { answer: { contains: 'Mohr Supply' } },
    start: products,
    honest: ['Mohr Supply', 'Mohr Supply.', 'It is Mohr Supply.', "It's Mohr Supply", 'The supplier is Mohr Supply.', 'Mohr Supply is the supplier.', 'Supplier: Mohr Supply',
      'It is shipped by Mohr Supply.', '"Mohr Supply"', '**Mohr Supply**', 'mohr supply', 'Mohr Supply supplies it.', 'The Minimalist Kettle is supplied by Mohr Supply.'],
    forms: { right: ['Mohr Supply', 'mohr supply'], others: [['Kuhn Traders'], ['Acme Wholesale'], ['Globex']], subject: 'supplier' },
  },
  {
    name: 'a date 2025-03-14',
    question: 'When is the Spring Launch milestone due?',
    check: { type: 'includes', value: '2025-03-14' },
    claim: { answer: { contains: '2025-03-14' } },
    start: products,
    honest: ['2025-03-14', 'It is due on 2025-03-14.', 'The due date is 2025-03-14.', 'March 14, 2025', 'Due: 14 March 2025', "It's due on March 14, 2025.",
      'The Spring Launch milestone is due 2025-03-14.', '2025-03-14, according to the site.', 'Friday, March 14, 2025', 'Mar 14 2025'],
    forms: { right: ['2025-03-14', 'March 14, 2025'], others: [['2025-04-01', 'April 1, 2025'], ['2025-02-28']], subject: 'due date' },
  },
  {
    name: 'a plain word "Shipped"',
    question: 'What is the status of order HH-10431?',
    check: { type: 'includes', value: 'Shipped' },
    claim: { answer: { contains: 'Shipped' } },
    start: products,
    honest: ['Shipped', 'Shipped.', 'It is Shipped.', 'The status is Shipped.', "It's shipped.", 'Status: Shipped', 'Order HH-10431 is shipped.', 'Shipped, according to the site.',
      'The order is currently shipped.', 'SHIPPED'],
    forms: { right: ['Shipped', 'shipped'], others: [['Pending'], ['Cancelled'], ['Delivered']], subject: 'status' },
  },
];

async function rewards(c: Case, answer: string): Promise<{ verifier: boolean; claim: boolean; detail: string }> {
  const v = await verifyEpisode({ answer: c.check }, { answer, question: c.question, start: c.start });
  const ev = { steps: 1, answer, answerStep: 1, log: [], changes: [], seen: [], start: c.start };
  const claim = checkClaim(c.claim, ev, { question: c.question }).holds;
  return { verifier: v.ok, claim, detail: v.checks[0]!.detail };
}

describe('answers checked by what they assert', () => {
  for (const c of CASES) {
    it(`${c.name}: every honest phrasing passes, by the verifier and the claim`, async () => {
      expect(c.honest.length).toBeGreaterThanOrEqual(8);
      for (const a of c.honest) {
        const r = await rewards(c, a);
        expect([r.verifier, r.claim], `${JSON.stringify(a)}: ${r.detail}`).toEqual([true, true]);
      }
    });

    it(`${c.name}: no generated non-asserting form passes, in any family`, async () => {
      const forms = gamingForms(c.forms);
      const rewarded = new Map<string, string[]>();
      for (const f of forms) {
        const r = await rewards(c, f.answer);
        if (r.verifier || r.claim) rewarded.set(f.family, [...(rewarded.get(f.family) ?? []), `${JSON.stringify(f.answer)}: ${r.detail}`]);
      }
      // Every family is played, several times.
      for (const family of FAMILIES) expect(forms.filter((f) => f.family === family).length, family).toBeGreaterThanOrEqual(4);
      expect(Object.fromEntries(rewarded)).toEqual({});
    });
  }

  it('says why an answer asserts nothing', async () => {
    const [price, count, name] = CASES;
    expect((await rewards(price!, 'It is not $99.99.')).detail).toBe('a denial: "It is not $99.99." asserts no value');
    expect((await rewards(name!, 'Not Mohr Supply.')).detail).toMatch(/^a denial: /);
    expect((await rewards(count!, 'Not 3 reviews.')).detail).toMatch(/^a denial: /);
    expect((await rewards(price!, 'Is it $99.99?')).detail).toMatch(/^a question: /);
    expect((await rewards(price!, 'About $99.99.')).detail).toMatch(/^a hedge or an approximation: /);
    expect((await rewards(price!, '$99.99/$89.99')).detail).toMatch(/^alternatives: .*"\$89\.99"/);
    expect((await rewards(price!, '{"price": 99.99}')).detail).toMatch(/^a structure: /);
    expect((await rewards(price!, 'I checked $99.99.')).detail).toMatch(/^not asserted: /);
    expect((await rewards(price!, 'It is $89.99.')).detail).toMatch(/^another value: .*"\$89\.99", not the number 99\.99/);
    expect((await rewards(count!, "It's three reviews.")).detail).toMatch(/^asserts the number 3: /);
  });

  it('a list asked for is a list of exactly the values asked; yes and no are their words first', async () => {
    const tags = { answer: { type: 'includes' as const, value: ['news', 'chat'] } };
    const q = 'Which tags does the thread have?';
    for (const a of ['news, chat', 'chat and news', 'The tags are news, chat.', 'Tags: news; chat']) expect((await verifyEpisode(tags, { answer: a, question: q })).ok, a).toBe(true);
    for (const a of ['news', 'news, chat, meta', 'news or chat', 'not news, chat', 'news, news, chat']) expect((await verifyEpisode(tags, { answer: a, question: q })).ok, a).toBe(false);
    const shipped = { answer: { type: 'includes' as const, value: 'yes' } };
    const asked = 'Has the order shipped?';
    for (const a of ['Yes', 'Yes, it shipped.', 'yes it has', 'The answer is yes.']) expect((await verifyEpisode(shipped, { answer: a, question: asked })).ok, a).toBe(true);
    for (const a of ['yes or no', 'Yes, it has not shipped.', 'Maybe yes', 'Yes?', 'No', 'Yes and no']) expect((await verifyEpisode(shipped, { answer: a, question: asked })).ok, a).toBe(false);
    const notShipped = { answer: { type: 'includes' as const, value: 'no' } };
    expect((await verifyEpisode(notShipped, { answer: 'No, it has not shipped yet.', question: asked })).ok).toBe(true);
  });

  it('numbers in words, thousands separators, currency codes and units are values', async () => {
    const n = (value: number, tolerance = 0) => ({ answer: { type: 'number' as const, value, tolerance } });
    const pass = async (a: string, v: number, q = 'How many are there?') => (await verifyEpisode(n(v), { answer: a, question: q })).ok;
    expect(await pass('twenty-one', 21)).toBe(true);
    expect(await pass('There are one hundred and five items.', 105)).toBe(true);
    expect(await pass('one hundred', 100)).toBe(true);
    expect(await pass('1,299 items', 1299)).toBe(true);
    expect(await pass('There are no unread messages.', 0)).toBe(true);
    expect(await pass('EUR 12.50', 12.5)).toBe(true);
    expect(await pass('4.25% APY', 4.25)).toBe(true);
    expect(await pass('8.7 out of 10', 8.7, 'What is the guest rating of the hotel?')).toBe(true);
    expect(await pass('three four', 3)).toBe(false);
    expect(await pass('twenty-one or twenty-two', 21)).toBe(false);
    expect(await pass('3/5', 3, 'How many reviews?')).toBe(false);
  });
});
