/** The mail template's tasks: info and action generators over the mailbox, each with a verifier and an oracle. @module */
import { answer, firstIsHuman, noRow, request, roundRobin, row, step } from '../../task-kit';
import type { TaskInput, TaskSpec } from '../../template';
import { LABELS, PROJECTS } from './content';
import { facts, findContacts, findMessages, settings, unreadCounts, type MessageRow } from './queries';

const SEARCH = 'Search mail';

function open(m: MessageRow) {
  return m.folder === 'trash' ? [step.link('Trash'), step.link(m.subject)] : [step.search(SEARCH, m.subject), step.link(m.subject)];
}

/** Generates the mail template's tasks (about 500 per site); the first of most generators is a human task. */
export function mailTasks({ db, href, faker }: TaskInput): TaskSpec[] {
  const all = findMessages(db, { folder: undefined }).concat(findMessages(db, { folder: 'trash' }));
  const mix = (list: MessageRow[]): MessageRow[] => faker.helpers.shuffle([...list]);
  const received = all.filter((m) => m.folder === 'inbox' || m.folder === 'archive');
  const inbox = all.filter((m) => m.folder === 'inbox');
  const trash = all.filter((m) => m.folder === 'trash');
  const drafts = all.filter((m) => m.folder === 'drafts');
  const byId = new Map(all.map((m) => [m.id, m]));
  const replied = new Set(all.map((m) => m.in_reply_to).filter((x): x is number => x !== null));
  const contacts = findContacts(db);
  const me = settings(db);
  const firstPage = findMessages(db, { folder: 'inbox' }).slice(0, me.per_page);
  const info: TaskSpec[][] = [];
  const act: TaskSpec[][] = [];

  info.push(mix(received).map((m) => ({
    slug: `sender-${m.id}`, kind: 'info', instruction: `Who sent me the email "${m.subject}"? Report their email address.`,
    verifier: { answer: answer.includes(m.from_email) }, oracle: [...open(m), step.done(m.from_email)],
  })));
  info.push(facts(db).flatMap((f) => {
    const m = byId.get(f.message_id);
    if (!m) return [];
    return [{
      slug: `fact-${m.id}`, kind: 'info' as const, instruction: `In the email "${m.subject}", ${f.question}`,
      verifier: { answer: f.kind === 'number' ? answer.number(Number(f.answer)) : answer.includes(f.answer) }, oracle: [...open(m), step.done(f.answer)],
    }];
  }));
  info.push([{
    slug: 'unread-count', kind: 'info', instruction: 'How many unread emails are in my inbox?',
    verifier: { answer: answer.number(unreadCounts(db).inbox ?? 0, 0) }, oracle: [step.done(`${unreadCounts(db).inbox ?? 0} unread`)],
  }]);
  info.push(faker.helpers.shuffle([...contacts]).map((c) => ({
    slug: `phone-of-${c.id}`, kind: 'info', instruction: `What is ${c.name}'s phone number?`,
    verifier: { answer: answer.includes(c.phone) }, oracle: [step.link('Contacts'), step.link(c.name), step.done(c.phone)],
  })));
  info.push(LABELS.flatMap((label) => {
    const n = findMessages(db, { folder: 'inbox', label }).length;
    return n ? [{
      slug: `label-count-${label.toLowerCase()}`, kind: 'info' as const, instruction: `How many emails in my inbox are labelled ${label}?`,
      verifier: { answer: answer.number(n, 0) }, oracle: [step.select('Label', label), step.button('Apply'), step.done(`${n} messages`)],
    }] : [];
  }));
  info.push(drafts.map((m) => ({
    slug: `draft-to-${m.id}`, kind: 'info', instruction: `Who is my draft "${m.subject}" addressed to? Report the email address.`,
    verifier: { answer: answer.includes(m.to_email) }, oracle: [step.link('Drafts'), step.link(m.subject), step.done(m.to_email)],
  })));
  info.push(mix(received).map((m) => ({
    slug: `date-${m.id}`, kind: 'info', instruction: `On what date did I get the email "${m.subject}"? Answer as YYYY-MM-DD.`,
    verifier: { answer: answer.includes(m.sent_at.slice(0, 10)) }, oracle: [...open(m), step.done(m.sent_at.slice(0, 10))],
  })));
  info.push(faker.helpers.shuffle(contacts.filter((c) => c.company)).map((c) => ({
    slug: `company-of-${c.id}`, kind: 'info', instruction: `Which company does ${c.name} work for?`,
    verifier: { answer: answer.includes(c.company) }, oracle: [step.link('Contacts'), step.link(c.name), step.done(c.company)],
  })));

  const phrases = ['Thanks, I will get back to you tomorrow.', 'Sounds good, see you then.', 'Could we move this to next week?', 'Received, thank you!', 'Let me check and confirm by Friday.'];
  act.push(faker.helpers.shuffle([...contacts]).map((c, i) => {
    const subject = faker.helpers.arrayElement(['Quick update', 'Question about next week', 'Follow-up from our call', 'Schedule for Friday', 'Documents you asked for']) + ` (${i + 1})`;
    const body = faker.helpers.arrayElement(phrases);
    const byName = i % 2 === 1;
    return {
      slug: `send-${c.id}`, kind: 'action',
      instruction: byName ? `Email ${c.name} with the subject "${subject}" and the message "${body}"` : `Send an email to ${c.email} with the subject "${subject}" and the message "${body}"`,
      verifier: { state: [row('messages', { folder: 'sent', subject }, { to_email: c.email, body })] },
      oracle: byName
        ? [step.link('Contacts'), step.link(c.name), step.link('Send email'), step.type('Subject', subject), step.type('Message', body), step.button('Send'), step.done()]
        : [step.link('Compose'), step.type('To', c.email), step.type('Subject', subject), step.type('Message', body), step.button('Send'), step.done()],
    };
  }));
  act.push(mix(received.filter((m) => !replied.has(m.id))).map((m) => {
    const text = faker.helpers.arrayElement(phrases);
    return {
      slug: `reply-${m.id}`, kind: 'action', instruction: `Reply to the email "${m.subject}" with the message "${text}"`,
      verifier: { state: [row('messages', { in_reply_to: m.id, folder: 'sent' }, { to_email: m.from_email, body: text })] },
      oracle: [...open(m), step.link('Reply'), step.type('Message', text), step.button('Send'), step.done()],
    };
  }));
  act.push(mix(inbox).map((m) => ({
    slug: `archive-${m.id}`, kind: 'action', instruction: `Archive the email "${m.subject}".`,
    verifier: { state: [row('messages', { id: m.id }, { folder: 'archive' })] }, oracle: [...open(m), step.button('Archive'), step.done()],
  })));
  act.push(mix(received.filter((m) => !m.starred)).map((m) => ({
    slug: `star-${m.id}`, kind: 'action', instruction: `Star the email "${m.subject}".`,
    verifier: { state: [row('messages', { id: m.id }, { starred: 1 })] }, oracle: [...open(m), step.button('Star'), step.done()],
  })));
  act.push(mix(received).map((m, i) => {
    const label = LABELS.filter((l) => l !== m.label)[i % (LABELS.length - 1)] ?? 'Work';
    return {
      slug: `label-${m.id}`, kind: 'action', instruction: `Label the email "${m.subject}" as ${label}.`,
      verifier: { state: [row('messages', { id: m.id }, { label })] }, oracle: [...open(m), step.select('Label', label), step.button('Apply label'), step.done()],
    };
  }));
  act.push(Array.from({ length: 8 }, (_, i) => {
    const first = faker.person.firstName();
    const last = faker.person.lastName();
    const company = faker.company.name();
    const email = `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, '') + `${i}@${company.toLowerCase().replace(/[^a-z]+/g, '').slice(0, 12)}.com`;
    return {
      slug: `contact-add-${i}`, kind: 'action', instruction: `Add ${first} ${last} (${email}) from ${company} to my contacts.`,
      verifier: { state: [row('contacts', { email }, { name: `${first} ${last}`, company })] },
      oracle: [step.link('Contacts'), step.link('Add contact'), step.type('Name', `${first} ${last}`), step.type('Email', email), step.type('Company', company), step.button('Save contact'), step.done()],
    };
  }));
  act.push(faker.helpers.shuffle([...contacts]).map((c) => ({
    slug: `contact-delete-${c.id}`, kind: 'action', instruction: `Delete ${c.name} from my contacts.`,
    verifier: { state: [noRow('contacts', { id: c.id })] }, oracle: [step.link('Contacts'), step.link(c.name), step.button('Delete contact'), step.done()],
  })));
  act.push(Array.from({ length: 4 }, (_, i) => {
    const signature = `${me.name} · ${faker.person.jobTitle()}`;
    return {
      slug: `signature-${i}`, kind: 'action', instruction: `Set my email signature to "${signature}".`,
      verifier: { state: [row('settings', { id: 1 }, { signature })] }, oracle: [step.link('Settings'), step.type('Signature', signature), step.button('Save settings'), step.done()],
    };
  }));
  act.push([
    { slug: 'show-unread', kind: 'action', instruction: 'Show only the unread emails in my inbox.', verifier: { requests: [request('GET', href('/'), { show: 'unread' })] }, oracle: [step.select('Show', 'Unread only'), step.button('Apply'), step.done()] },
    { slug: 'show-starred', kind: 'action', instruction: 'Show only my starred emails in the inbox.', verifier: { requests: [request('GET', href('/'), { show: 'starred' })] }, oracle: [step.select('Show', 'Starred only'), step.button('Apply'), step.done()] },
    { slug: 'sort-oldest', kind: 'action', instruction: 'Sort my inbox so the oldest emails come first.', verifier: { requests: [request('GET', href('/'), { sort: 'oldest' })] }, oracle: [step.select('Sort by', 'Oldest first'), step.button('Apply'), step.done()] },
    ...LABELS.map((label) => ({
      slug: `show-label-${label.toLowerCase()}`, kind: 'action' as const, instruction: `Show the emails in my inbox that are labelled ${label}.`,
      verifier: { requests: [request('GET', href('/'), { label })] }, oracle: [step.select('Label', label), step.button('Apply'), step.done()],
    })),
  ]);
  act.push(mix(received).map((m) => {
    const to = faker.helpers.arrayElement(contacts.filter((c) => c.email !== m.from_email));
    return {
      slug: `forward-${m.id}`, kind: 'action', instruction: `Forward the email "${m.subject}" to ${to.email}.`,
      verifier: { state: [row('messages', { forwarded_from: m.id, folder: 'sent' }, { to_email: to.email })] },
      oracle: [...open(m), step.link('Forward'), step.type('To', to.email), step.button('Send'), step.done()],
    };
  }));
  act.push(mix(inbox).map((m) => ({
    slug: `trash-${m.id}`, kind: 'action', instruction: `Move the email "${m.subject}" to the trash.`,
    verifier: { state: [row('messages', { id: m.id }, { folder: 'trash' })] }, oracle: [...open(m), step.button('Move to trash'), step.done()],
  })));
  act.push(trash.flatMap((m) => [
    { slug: `restore-${m.id}`, kind: 'action' as const, instruction: `Restore the email "${m.subject}" from the trash to my inbox.`, verifier: { state: [row('messages', { id: m.id }, { folder: 'inbox' })] }, oracle: [...open(m), step.button('Move to inbox'), step.done()] },
    { slug: `purge-${m.id}`, kind: 'action' as const, instruction: `Permanently delete the email "${m.subject}" from the trash.`, verifier: { state: [noRow('messages', { id: m.id })] }, oracle: [...open(m), step.button('Delete forever'), step.done()] },
  ]));
  act.push(mix(received.filter((m) => m.starred)).map((m) => ({
    slug: `unstar-${m.id}`, kind: 'action', instruction: `Remove the star from the email "${m.subject}".`,
    verifier: { state: [row('messages', { id: m.id }, { starred: 0 })] }, oracle: [...open(m), step.button('Unstar'), step.done()],
  })));
  act.push(mix(received.filter((m) => m.read)).map((m) => ({
    slug: `mark-unread-${m.id}`, kind: 'action', instruction: `Mark the email "${m.subject}" as unread.`,
    verifier: { state: [row('messages', { id: m.id }, { read: 0 })] }, oracle: [...open(m), step.button('Mark as unread'), step.done()],
  })));
  const pairs = firstPage.slice(0, 12);
  act.push(Array.from({ length: Math.floor(pairs.length / 2) }, (_, i) => {
    const [a, b] = [pairs[2 * i] as MessageRow, pairs[2 * i + 1] as MessageRow];
    const read = !a.read || !b.read;
    return read
      ? { slug: `bulk-read-${a.id}-${b.id}`, kind: 'action' as const, instruction: `Mark the emails "${a.subject}" and "${b.subject}" as read.`,
        verifier: { state: [row('messages', { id: a.id }, { read: 1 }), row('messages', { id: b.id }, { read: 1 })], requests: [request('POST', href('/bulk'), { action: 'read' })] },
        oracle: [step.check(`Select ${a.subject}`), step.check(`Select ${b.subject}`), step.button('Mark selected as read'), step.done()] }
      : { slug: `bulk-archive-${a.id}-${b.id}`, kind: 'action' as const, instruction: `Archive the emails "${a.subject}" and "${b.subject}".`,
        verifier: { state: [row('messages', { id: a.id }, { folder: 'archive' }), row('messages', { id: b.id }, { folder: 'archive' })] },
        oracle: [step.check(`Select ${a.subject}`), step.check(`Select ${b.subject}`), step.button('Archive selected'), step.done()] };
  }));
  act.push(faker.helpers.shuffle([...contacts]).map((c) => {
    const phone = faker.helpers.replaceSymbols('(###) 555-####');
    return {
      slug: `contact-phone-${c.id}`, kind: 'action', instruction: `Change ${c.name}'s phone number to ${phone}.`,
      verifier: { state: [row('contacts', { id: c.id }, { phone })] },
      oracle: [step.link('Contacts'), step.link(c.name), step.link('Edit contact'), step.type('Phone', phone), step.button('Save contact'), step.done()],
    };
  }));
  act.push([
    ...Array.from({ length: 3 }, (_, i) => {
      const msg = faker.helpers.arrayElement(['I am out of the office until Monday', 'I am on vacation with limited access to email', 'Away at a conference this week']) + ` (${i + 1}).`;
      return { slug: `vacation-${i}`, kind: 'action' as const, instruction: `Turn on my vacation auto-reply with the message "${msg}"`,
        verifier: { state: [row('settings', { id: 1 }, { vacation: 1, vacation_message: msg })] },
        oracle: [step.link('Settings'), step.check('Turn on vacation responder'), step.type('Vacation message', msg), step.button('Save settings'), step.done()] };
    }),
    ...['10', '25', '50'].map((n) => ({ slug: `per-page-${n}`, kind: 'action' as const, instruction: `Show ${n} emails per page.`,
      verifier: { state: [row('settings', { id: 1 }, { per_page: Number(n) })] }, oracle: [step.link('Settings'), step.select('Messages per page', n), step.button('Save settings'), step.done()] })),
  ]);
  act.push(drafts.map((m) => ({
    slug: `send-draft-${m.id}`, kind: 'action', instruction: `Send my draft "${m.subject}".`,
    verifier: { state: [row('messages', { id: m.id }, { folder: 'sent' })] }, oracle: [step.link('Drafts'), step.link(m.subject), step.button('Send'), step.done()],
  })));
  const terms = [...new Set([...PROJECTS.filter((p) => all.some((m) => m.subject.includes(p))), ...contacts.map((c) => c.name.split(' ')[1] ?? c.name)])];
  act.push(terms.map((t) => ({
    slug: `search-${t.toLowerCase().replace(/[^a-z0-9]+/g, '')}`, kind: 'action', instruction: `Search my mail for "${t}".`,
    verifier: { requests: [request('GET', href('/search'), { q: t })] }, oracle: [step.search(SEARCH, t), step.done()],
  })));

  const humanInfo = new Set([0, 1, 2, 3, 4, 5, 6]);
  const humanAct = new Set([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  const mark = (groups: TaskSpec[][], keep: Set<number>) => groups.map((g, i) => (keep.has(i) ? firstIsHuman(g) : g));
  return roundRobin([...mark(info, humanInfo), ...mark(act, humanAct)]);
}
