/** The mail template's tables and seeded mailbox. @module */
import type { Faker } from '@faker-js/faker';
import type { SeedInput, SeedResult } from '../../template';
import { PERSONAL_TOPICS, PROJECTS, VENDOR_TOPICS, WORK_TOPICS, type MessageContent, type Sender, type Topic } from './content';

/**
 * Messages carry a `subject` and contacts a `name`, so change lines name them. `_facts` is internal (not recorded):
 * what each message states, for the info tasks.
 */
export const MAIL_SCHEMA = `
CREATE TABLE messages (id INTEGER PRIMARY KEY, folder TEXT NOT NULL CHECK (folder IN ('inbox', 'sent', 'drafts', 'archive', 'trash')),
  from_name TEXT NOT NULL, from_email TEXT NOT NULL, to_email TEXT NOT NULL, cc TEXT NOT NULL DEFAULT '', subject TEXT NOT NULL,
  body TEXT NOT NULL, sent_at TEXT NOT NULL, read INTEGER NOT NULL DEFAULT 1, starred INTEGER NOT NULL DEFAULT 0,
  label TEXT NOT NULL DEFAULT '', in_reply_to INTEGER, forwarded_from INTEGER);
CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL UNIQUE, phone TEXT NOT NULL DEFAULT '',
  company TEXT NOT NULL DEFAULT '', notes TEXT NOT NULL DEFAULT '');
CREATE TABLE settings (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, signature TEXT NOT NULL DEFAULT '',
  vacation INTEGER NOT NULL DEFAULT 0, vacation_message TEXT NOT NULL DEFAULT '', per_page INTEGER NOT NULL DEFAULT 15);
CREATE TABLE _facts (message_id INTEGER PRIMARY KEY, question TEXT NOT NULL, answer TEXT NOT NULL, kind TEXT NOT NULL);
`;

/** Mail providers, one per variant: the product name and the user's address domain. */
export const PROVIDERS = [
  ['Postbox Mail', 'postbox.example'], ['Swift Mail', 'swiftmail.example'], ['Inkwell Mail', 'inkwell.example'],
  ['Lark Mail', 'larkmail.example'], ['Courier Mail', 'couriermail.example'], ['Relay Mail', 'relay.example'],
  ['Bluebird Mail', 'bluebird.example'], ['Harbor Mail', 'harbormail.example'],
] as const;

const FREEMAIL = ['gmail.com', 'outlook.com', 'icloud.com', 'yahoo.com', 'proton.me'];

interface Contact extends Sender {
  email: string;
  kind: 'colleague' | 'vendor' | 'friend';
}

function domainOf(company: string): string {
  return `${company.toLowerCase().replace(/[^a-z0-9]+/g, '').slice(0, 18)}.com`;
}

function makeContacts(faker: Faker, employer: string): Contact[] {
  const out: Contact[] = [];
  const emails = new Set<string>();
  const add = (kind: Contact['kind'], company: string, domain: string): void => {
    const first = faker.person.firstName();
    const last = faker.person.lastName();
    const email = `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, '') + `@${domain}`;
    if (emails.has(email)) return;
    emails.add(email);
    out.push({ first, name: `${first} ${last}`, company, email, kind });
  };
  for (let i = 0; i < 8; i++) add('colleague', employer, domainOf(employer));
  for (let i = 0; i < 6; i++) {
    const company = faker.company.name();
    add('vendor', company, domainOf(company));
  }
  for (let i = 0; i < 6; i++) add('friend', '', faker.helpers.arrayElement(FREEMAIL));
  return out;
}

/** Fills a mailbox: contacts, inbox, archive, sent mail, drafts, trash and the user's settings. */
export function seedMail({ db, faker, variant, today }: SeedInput): SeedResult {
  const [title, domain] = PROVIDERS[(variant - 1) % PROVIDERS.length] ?? PROVIDERS[0];
  const ref = new Date(`${today}T12:00:00Z`);
  const employer = faker.company.name();
  const meFirst = faker.person.firstName();
  const meLast = faker.person.lastName();
  const me = { name: `${meFirst} ${meLast}`, email: `${meFirst}.${meLast}`.toLowerCase().replace(/[^a-z.]/g, '') + `@${domain}` };
  db.prepare('INSERT INTO settings (id, name, email) VALUES (1, ?, ?)').run(me.name, me.email);

  const contacts = makeContacts(faker, employer);
  const addContact = db.prepare('INSERT INTO contacts (name, email, phone, company, notes) VALUES (?, ?, ?, ?, ?)');
  for (const c of contacts) {
    const notes = c.kind === 'colleague' ? `${faker.person.jobTitle()} at ${employer}` : c.kind === 'vendor' ? 'Vendor contact' : faker.helpers.arrayElement(['College friend', 'Neighbor', 'Cousin', 'Running club', 'Book club']);
    addContact.run(c.name, c.email, faker.helpers.replaceSymbols('(###) 555-####'), c.company, notes);
  }

  const projects = faker.helpers.arrayElements(PROJECTS, 4);
  const subjects = new Set<string>();
  const addMessage = db.prepare(`INSERT INTO messages (folder, from_name, from_email, to_email, subject, body, sent_at, read, starred, label, in_reply_to)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const addFact = db.prepare('INSERT INTO _facts (message_id, question, answer, kind) VALUES (?, ?, ?, ?)');
  const at = (daysAgo: number): string => {
    const d = new Date(ref.getTime() - daysAgo * 86400_000 - faker.number.int({ min: 0, max: 600 }) * 60_000);
    return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)}`;
  };
  const write = (pool: readonly Topic[], from: Contact): MessageContent | undefined => {
    for (let tries = 0; tries < 12; tries++) {
      const content = faker.helpers.arrayElement(pool)({ faker, from, me: meFirst, project: faker.helpers.arrayElement(projects), ref });
      if (!subjects.has(content.subject)) {
        subjects.add(content.subject);
        return content;
      }
    }
    return undefined;
  };
  const byKind = (k: Contact['kind']): Contact[] => contacts.filter((c) => c.kind === k);
  const plan: Array<[string, number]> = [['inbox', 40], ['archive', 12], ['trash', 5]];
  const received: Array<{ id: number; subject: string; from: Contact }> = [];
  let age = 0.3;
  for (const [folder, count] of plan) {
    for (let i = 0; i < count; i++) {
      const kind = folder === 'trash' ? 'vendor' : faker.helpers.arrayElement(['colleague', 'colleague', 'vendor', 'vendor', 'friend'] as const);
      const from = faker.helpers.arrayElement(byKind(kind));
      const pool = kind === 'colleague' ? WORK_TOPICS : kind === 'vendor' ? VENDOR_TOPICS : PERSONAL_TOPICS;
      const content = write(pool, from);
      if (!content) continue;
      age += faker.number.float({ min: 0.2, max: 1.6 });
      const read = folder !== 'inbox' || faker.number.int({ min: 0, max: 9 }) < 7 ? 1 : 0;
      const starred = faker.number.int({ min: 0, max: 9 }) < 2 ? 1 : 0;
      const id = Number(addMessage.run(folder, from.name, from.email, me.email, content.subject, content.body, at(age), read, starred, content.label, null).lastInsertRowid);
      if (content.fact) addFact.run(id, content.fact.question, content.fact.answer, content.fact.kind);
      if (folder === 'inbox') received.push({ id, subject: content.subject, from });
    }
  }
  for (const r of faker.helpers.arrayElements(received, 6)) {
    const subject = `Re: ${r.subject}`;
    subjects.add(subject);
    const body = faker.helpers.arrayElement(['Thanks, sounds good to me.', 'Got it, I will take a look today.', 'Works for me. See you then!', 'Thanks for the reminder.']);
    addMessage.run('sent', me.name, me.email, r.from.email, subject, `${body}\n\n${meFirst}`, at(faker.number.float({ min: 0.5, max: 30 })), 1, 0, '', r.id);
  }
  const own = ['Quick question about {p}', 'Notes from today', 'Weekend plans', 'Lunch next week?', 'Slides for {p}', 'Following up'];
  for (const [i, tpl] of own.entries()) {
    const to = faker.helpers.arrayElement(contacts);
    const subject = tpl.replace('{p}', projects[i % projects.length] ?? 'the project');
    if (subjects.has(subject)) continue;
    subjects.add(subject);
    addMessage.run('sent', me.name, me.email, to.email, subject, `Hi ${to.first},\n\n${faker.lorem.sentence()}\n\n${meFirst}`, at(faker.number.float({ min: 1, max: 40 })), 1, 0, '', null);
  }
  const drafts = ['Proposal for {p}', 'Thank you!', 'Catching up'];
  for (const [i, tpl] of drafts.entries()) {
    const to = faker.helpers.arrayElement(contacts);
    const subject = tpl.replace('{p}', projects[i % projects.length] ?? 'the project');
    if (subjects.has(subject)) continue;
    subjects.add(subject);
    addMessage.run('drafts', me.name, me.email, to.email, subject, `Hi ${to.first},\n\n${faker.lorem.sentences(2)}`, at(faker.number.float({ min: 0.1, max: 5 })), 1, 0, '', null);
  }
  return { title };
}
