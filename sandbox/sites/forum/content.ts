/** The forum's words: thread titles, opening posts and replies by board kind, and usernames. @module */
import type { Faker } from '@faker-js/faker';
import type { BoardKind } from './themes';

const TITLES: Record<BoardKind, readonly string[]> = {
  question: [
    'Best {thing} for a beginner?', 'Trouble with my {thing} after a week', 'How do I choose a {thing}?', 'Is a {thing} worth it in 2026?',
    'Help: my {thing} is acting up', '{Thing} or {other}: which should I get?', 'Tips for getting started with a {thing}', 'Strange problem with my {thing}',
    'Which {thing} would you buy under ${n}?', 'Upgrading my {thing}: advice wanted', 'Common mistakes with a {thing}?', 'Can someone explain how a {thing} works?',
  ],
  topic: [
    'Struggling with {thing}', 'Advice on {thing}?', '{Thing}: what worked for you?', 'Anyone else dealing with {thing}?',
    'Best resources for learning about {thing}?', 'Thoughts on {thing}?', 'Need help with {thing}', 'What I wish I knew about {thing}',
    'Beginner questions about {thing}', 'Common mistakes with {thing}?', 'A question about {thing}', 'Getting better at {thing}',
  ],
  showcase: [
    'My first {thing}', 'Finished my {thing} project!', 'Build log: {thing} from scratch', 'Feedback wanted on my {thing}', '{Thing} project, {n} hours later',
    'Restored an old {thing}', 'Weekend {thing} project', 'Show us your {thing}', 'Year two of my {thing}', 'A {thing} I am proud of',
  ],
  story: [
    'My {thing}, finally', 'Photos: our {thing}', 'Sharing our {thing} story', 'A {thing} I am proud of', 'First time sharing a {thing}',
    'Feedback wanted on my {thing}', 'My {thing} from last weekend', 'Update on our {thing}', 'Looking back on a {thing}',
  ],
  market: [
    'FS: {thing}, barely used', 'WTB: {thing} in good condition', 'Selling my {thing} for ${n}', 'Trade: {thing} for a {other}',
    'Price check on a used {thing}', 'Looking for a cheap {thing}', 'Free to a good home: {thing}', 'Group buy for a {thing}?',
  ],
  chat: [
    'Favorite {thing} of the year?', 'Recommend me a {thing}', 'Poll: which {thing} do you prefer?', 'Tell us about your {thing}',
    'Your {thing} story', 'Hello from a {thing} fan', 'Best {thing} you have found lately?', 'What makes a good {thing}?',
  ],
};

const OPENERS: Record<BoardKind, readonly string[]> = {
  question: [
    'I have been at this for about {n} months and finally picked up a {thing}.', 'Long-time lurker, first post here.',
    'Quick question for the experts about my {thing}.', 'I have read the wiki twice and I am still stuck on the {thing}.',
  ],
  topic: [
    'I have been reading up on {thing} for about {n} weeks.', 'Long-time lurker, first post here.',
    'Quick question for the experts about {thing}.', 'I have read the wiki twice and I am still stuck on {thing}.',
  ],
  showcase: [
    'After {n} weekends of work my {thing} is finally done.', 'Sharing my {thing} with you all.',
    'This {thing} started as a small idea and grew from there.', 'Here is the {thing} I mentioned in the chat thread.',
  ],
  story: [
    'It has been {n} days since our {thing} and I finally sorted the photos.', 'Sharing our {thing} with you all.',
    'This {thing} did not go to plan, but it was worth it.', 'A few of you asked about the {thing}, so here it is.',
  ],
  market: [
    'Clearing out the garage: one {thing}, works perfectly.', 'Looking to buy a {thing} from someone local.',
    'Asking ${n} for my {thing}, shipping not included.', 'I have a spare {thing} that needs a new home.',
  ],
  chat: ['Curious what everyone thinks.', 'Let us have a relaxed thread about this.', 'Saw a great {thing} today and had to share.', 'Random thought for a slow afternoon.'],
};

const DETAILS: Record<BoardKind, readonly string[]> = {
  question: ['My budget is around ${n}.', 'It worked fine at first, but now it acts up whenever I change anything.', 'The manual is not much help here.'],
  topic: ['I have tried two different approaches and neither felt right.', 'Most guides I found skip the part I am stuck on.', 'I practise a little every day.'],
  showcase: ['Photos are in the album linked in my profile.', 'Happy to answer questions about it.', 'Parts list and notes are at the end.'],
  story: ['Photos are in the album linked in my profile.', 'It took longer than planned, as always.', 'Thanks to everyone who gave advice earlier.'],
  market: ['Pickup preferred, can ship at cost.', 'Comes with the original box.', 'Cash or bank transfer.'],
  chat: ['No wrong answers.', 'Mine changes every month.', 'Pictures welcome.'],
};

const ASKS = ['Any advice is appreciated!', 'What would you do?', 'Thanks in advance.', 'Let me know what you think.', 'Comments welcome.'];

const REPLIES = [
  '+1, following this thread.', 'Great question. The wiki has a section on exactly this.', 'Nice work! How long did it take you?',
  'Thanks for posting this, it saved me an afternoon.', 'Could you post a photo? Hard to say without seeing it.', 'Bookmarked. Very helpful write-up.',
  'Seconding the advice above.', 'I went through the same thing last year. Patience pays off.', 'That looks fantastic, well done.',
  'Interesting, I always assumed the opposite.', 'Check the pinned FAQ, it covers most of this.', 'Would you do anything differently next time?',
  'Welcome to the forum!', 'I disagree a little: it depends on how often you do it.', 'Solved it for me, thanks!',
];

const THING_REPLIES: Partial<Record<BoardKind, readonly string[]>> = {
  question: ['I had the same problem with my {thing}. Check the basics first, it is usually something simple.',
    'Have you tried a different {thing}? Mine has been rock solid for {n} months.', 'I would spend a little more; the cheap ones do not last.',
    'The {thing} is underrated in my opinion.'],
  topic: ['{Thing} took me ages to get right too. Stick with it.', 'There is a good guide on {thing} linked in the sidebar.',
    'What helped me most with {thing} was going slowly for the first {n} weeks.'],
  market: ['Good price, I would grab it if I lived closer.', 'Still available? Sent you a message.', 'Would you ship the {thing}?'],
};

/** `a`/`an` for a noun phrase. */
export function article(noun: string): string {
  const acronym = /^[A-Z0-9]{2}/.test(noun);
  return (acronym ? /^[AEFHILMNOSX8]/.test(noun) : /^[aeiou]/i.test(noun)) ? 'an' : 'a';
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function fill(text: string, slots: { thing: string; other?: string; n: number }): string {
  const cap = capital(slots.thing);
  const other = slots.other ?? 'spare one';
  return text
    .replace(/\b([Aa]) \{thing\}/g, (_, a: string) => `${a === 'A' ? capital(article(slots.thing)) : article(slots.thing)} {thing}`)
    .replace(/\ba \{other\}/g, `${article(other)} {other}`)
    .replaceAll('{Thing}', cap).replaceAll('{thing}', slots.thing).replaceAll('{other}', other).replaceAll('{n}', String(slots.n));
}

/** A thread title of a board's kind about one of its things. */
export function threadTitle(faker: Faker, kind: BoardKind, things: readonly string[]): { title: string; thing: string } {
  const [thing, other] = faker.helpers.arrayElements(things, 2);
  const n = faker.helpers.arrayElement([20, 30, 40, 50, 75, 100, 150, 200, 250, 300]);
  return { title: fill(faker.helpers.arrayElement(TITLES[kind]), { thing: thing ?? 'thing', other, n }), thing: thing ?? 'thing' };
}

/** The opening post of a thread. */
export function openingPost(faker: Faker, kind: BoardKind, thing: string): string {
  const n = faker.number.int({ min: 2, max: 40 }) * (kind === 'market' ? 10 : 1);
  const parts = [faker.helpers.arrayElement(OPENERS[kind]), faker.helpers.arrayElement(DETAILS[kind]), faker.helpers.arrayElement(ASKS)];
  return fill(parts.join(' '), { thing, n });
}

/** A reply in a thread of a board's kind about `thing`. */
export function replyText(faker: Faker, kind: BoardKind, thing: string): string {
  const own = THING_REPLIES[kind] ?? [];
  return fill(faker.helpers.arrayElement([...REPLIES, ...own, ...own]), { thing, n: faker.number.int({ min: 2, max: 30 }) });
}

/** Where members say they live. */
export const PLACES = [
  'Portland, Oregon', 'Leeds, UK', 'Austin, Texas', 'Melbourne, Australia', 'Toronto, Canada', 'Denver, Colorado', 'Bristol, UK',
  'Auckland, New Zealand', 'Dublin, Ireland', 'Minneapolis, Minnesota', 'Cape Town, South Africa', 'Vancouver, Canada', 'Glasgow, UK',
  'Raleigh, North Carolina', 'Brisbane, Australia', 'Halifax, Canada', 'Boise, Idaho', 'Cork, Ireland', 'Sacramento, California',
  'Wellington, New Zealand', 'Pittsburgh, Pennsylvania', 'Ottawa, Canada', 'Norwich, UK', 'Tucson, Arizona', 'Perth, Australia',
  'Madison, Wisconsin', 'Calgary, Canada', 'Cardiff, UK', 'Asheville, North Carolina', 'Hobart, Australia',
];

/** A forum username from a person's names: `maria_lopez`, `jkowalski88`, `tomw`. */
export function username(faker: Faker, first: string, last: string): string {
  const f = first.toLowerCase().replace(/[^a-z]/g, '');
  const l = last.toLowerCase().replace(/[^a-z]/g, '');
  return faker.helpers.arrayElement([
    `${f}_${l}`, `${f[0]}${l}${faker.number.int({ min: 10, max: 99 })}`, `${f}${l[0]}`, `${l}.${f}`, `${f}${faker.number.int({ min: 70, max: 99 })}`,
  ]);
}
