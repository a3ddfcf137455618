/**
 * The mail template's message topics: each makes a subject, a body, a label and, for most, a fact the body
 * states (what info tasks ask about).
 * @module
 */
import type { Faker } from '@faker-js/faker';

/** A fact a message states: the question (about that message) and the answer check. */
export interface MessageFact {
  /** Asked as `In the email "<subject>", <question>` */
  readonly question: string;
  readonly answer: string;
  /** `number` facts are checked as numbers, others as included text. */
  readonly kind: 'text' | 'number';
}

/** A message's content. */
export interface MessageContent {
  readonly subject: string;
  readonly body: string;
  readonly label: string;
  readonly fact?: MessageFact;
}

/** Who a topic is written by, as the topic needs it. */
export interface Sender {
  readonly first: string;
  readonly name: string;
  readonly company: string;
}

/** The labels a message can carry (`''` is none). */
export const LABELS = ['Work', 'Personal', 'Travel', 'Finance', 'Family'] as const;

/** Project code names a variant's colleagues talk about. */
export const PROJECTS = ['Atlas', 'Beacon', 'Cobalt', 'Ember', 'Falcon', 'Granite', 'Harbor', 'Juniper', 'Keystone', 'Lumen', 'Meridian', 'Nimbus', 'Orion', 'Quartz'];

const ROOMS = ['Room 4B', 'the Maple room', 'the Cedar room', 'Room 210', 'the fishbowl', 'Conference Room A'];
const RESTAURANTS = ['Luigi\'s Trattoria', 'The Green Fork', 'Sakura House', 'El Farolito', 'Blue Door Bistro', 'Tandoori Nights'];
const CARRIERS = ['UPS', 'FedEx', 'USPS', 'DHL'];
const APPOINTMENTS = ['dentist', 'eye exam', 'physiotherapy', 'annual checkup', 'haircut'];
const NEWSLETTERS = ['The Morning Brief', 'Product Hunt Daily', 'Local Events Weekly', 'The Kitchen Table', 'Runner\'s Digest'];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];

function time(faker: Faker): string {
  const h = faker.number.int({ min: 8, max: 17 });
  const m = faker.helpers.arrayElement(['00', '15', '30', '45']);
  return `${h > 12 ? h - 12 : h}:${m} ${h >= 12 ? 'PM' : 'AM'}`;
}

function date(faker: Faker, ref: Date, ahead: number): string {
  return faker.date.soon({ days: ahead, refDate: ref }).toISOString().slice(0, 10);
}

/** A topic: writes a message from a sender to the user. */
export type Topic = (input: { faker: Faker; from: Sender; me: string; project: string; ref: Date }) => MessageContent;

/** Topics of work mail (from colleagues). */
export const WORK_TOPICS: readonly Topic[] = [
  ({ faker, from, me, project }) => {
    const day = faker.helpers.arrayElement(WEEKDAYS);
    const room = faker.helpers.arrayElement(ROOMS);
    const at = time(faker);
    return {
      subject: `${project} sync on ${day}`,
      body: `Hi ${me},\n\nLet's meet on ${day} at ${at} in ${room} to go over the ${project} milestones. Please bring the latest numbers.\n\nThanks,\n${from.first}`,
      label: 'Work',
      fact: { question: 'which room is the meeting in?', answer: room, kind: 'text' },
    };
  },
  ({ faker, from, me, project, ref }) => {
    const pct = faker.number.int({ min: 35, max: 95 });
    const launch = date(faker, ref, 90);
    return {
      subject: `${project} status update (week ${faker.number.int({ min: 2, max: 48 })})`,
      body: `Hi ${me},\n\nQuick update: ${project} is ${pct}% complete. The launch date moved to ${launch}. Risks are listed in the tracker.\n\nBest,\n${from.first}`,
      label: 'Work',
      fact: { question: 'what is the new launch date?', answer: launch, kind: 'text' },
    };
  },
  ({ faker, from, me, project }) => {
    const n = faker.number.int({ min: 3, max: 12 });
    return {
      subject: `Feedback on the ${project} design doc`,
      body: `Hi ${me},\n\nI left ${n} comments on the ${project} design doc. The main concern is the migration plan. Can you take a look before Friday?\n\n${from.first}`,
      label: 'Work',
      fact: { question: 'how many comments were left on the design doc?', answer: String(n), kind: 'number' },
    };
  },
];

/** Topics of mail from companies (vendors, shops, airlines). */
export const VENDOR_TOPICS: readonly Topic[] = [
  ({ faker, from, me, ref }) => {
    const num = `INV-${faker.number.int({ min: 1000, max: 9999 })}`;
    const amount = faker.number.float({ min: 80, max: 4800, fractionDigits: 2 });
    const due = date(faker, ref, 30);
    return {
      subject: `Invoice ${num} from ${from.company}`,
      body: `Dear ${me},\n\nPlease find invoice ${num} for ${faker.helpers.arrayElement(['consulting services', 'the annual license', 'printing', 'catering', 'office supplies'])}. The amount due is $${amount.toFixed(2)}, payable by ${due}.\n\nKind regards,\n${from.name}\n${from.company}`,
      label: 'Finance',
      fact: { question: 'how much is due?', answer: amount.toFixed(2), kind: 'number' },
    };
  },
  ({ faker, from, me, ref }) => {
    const city = faker.location.city();
    const code = `${faker.string.alpha({ length: 2, casing: 'upper' })}${faker.number.int({ min: 100, max: 999 })}`;
    const refCode = faker.string.alphanumeric({ length: 6, casing: 'upper' });
    const day = date(faker, ref, 60);
    return {
      subject: `Your flight to ${city} on ${day}`,
      body: `Hello ${me},\n\nYour booking is confirmed. Booking reference: ${refCode}. Flight ${code} departs at ${time(faker)}. Check-in opens 24 hours before departure.\n\n${from.company}`,
      label: 'Travel',
      fact: { question: 'what is the booking reference?', answer: refCode, kind: 'text' },
    };
  },
  ({ faker, from, me, ref }) => {
    const order = faker.number.int({ min: 100000, max: 999999 });
    const track = `1Z${faker.string.alphanumeric({ length: 12, casing: 'upper' })}`;
    const carrier = faker.helpers.arrayElement(CARRIERS);
    return {
      subject: `Your order #${order} has shipped`,
      body: `Hi ${me},\n\nGood news: your order #${order} is on its way with ${carrier}. Tracking number: ${track}. Expected delivery: ${date(faker, ref, 7)}.\n\n${from.company}`,
      label: '',
      fact: { question: 'what is the tracking number?', answer: track, kind: 'text' },
    };
  },
  ({ faker, from, me }) => {
    const paper = faker.helpers.arrayElement(NEWSLETTERS);
    return {
      subject: `${paper}: ${faker.company.catchPhrase()}`,
      body: `Hi ${me},\n\nThis week: ${faker.company.buzzPhrase()}, ${faker.company.buzzPhrase()}, and more.\n\nUnsubscribe at any time in your settings.\n${from.company}`,
      label: '',
    };
  },
];

/** Topics of personal mail (friends and family). */
export const PERSONAL_TOPICS: readonly Topic[] = [
  ({ faker, from, me }) => {
    const day = faker.helpers.arrayElement(WEEKDAYS);
    const place = faker.helpers.arrayElement(RESTAURANTS);
    return {
      subject: `Dinner on ${day}?`,
      body: `Hey ${me}!\n\nAre you free for dinner on ${day}? I was thinking ${place} around 7. Let me know!\n\n${from.first}`,
      label: 'Personal',
      fact: { question: 'which restaurant is suggested?', answer: place, kind: 'text' },
    };
  },
  ({ faker, from, me }) => {
    const city = faker.location.city();
    return {
      subject: `Photos from ${city}`,
      body: `Hi ${me},\n\nHere are the photos from our trip to ${city}. The sunset ones came out great.\n\nLove,\n${from.first}`,
      label: 'Family',
    };
  },
  ({ faker, from, me, ref }) => {
    const kind = faker.helpers.arrayElement(APPOINTMENTS);
    const at = time(faker);
    return {
      subject: `Reminder: ${kind} appointment on ${date(faker, ref, 20)}`,
      body: `Dear ${me},\n\nThis is a reminder of your ${kind} appointment at ${at}. Please arrive 10 minutes early.\n\n${from.name}`,
      label: 'Personal',
      fact: { question: 'what time is the appointment?', answer: at, kind: 'text' },
    };
  },
];
