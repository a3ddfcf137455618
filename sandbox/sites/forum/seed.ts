/** The forum's tables and seeded community. @module */
import type { SeedInput, SeedResult } from '../../template';
import { slugify } from '../../values';
import { PLACES, openingPost, replyText, threadTitle, username } from './content';
import { THEMES } from './themes';

/**
 * The forum's tables. Threads carry a `title`, members a `name`, posts, votes and notifications a `subject`, follows
 * and bookmarks their thread's `title`, so change lines name their item. Tags are a thread's comma-separated list.
 */
export const FORUM_SCHEMA = `
CREATE TABLE categories (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE boards (id INTEGER PRIMARY KEY, category_id INTEGER NOT NULL REFERENCES categories(id), name TEXT NOT NULL,
  slug TEXT NOT NULL UNIQUE, description TEXT NOT NULL);
CREATE TABLE members (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, joined TEXT NOT NULL, location TEXT NOT NULL, bio TEXT NOT NULL);
CREATE TABLE threads (id INTEGER PRIMARY KEY, board_id INTEGER NOT NULL REFERENCES boards(id), title TEXT NOT NULL,
  author_id INTEGER NOT NULL REFERENCES members(id), tags TEXT NOT NULL DEFAULT '', created TEXT NOT NULL,
  views INTEGER NOT NULL DEFAULT 0, locked INTEGER NOT NULL DEFAULT 0);
CREATE TABLE posts (id INTEGER PRIMARY KEY, thread_id INTEGER NOT NULL REFERENCES threads(id), author_id INTEGER NOT NULL REFERENCES members(id),
  subject TEXT NOT NULL, body TEXT NOT NULL, created TEXT NOT NULL, edited TEXT, score INTEGER NOT NULL DEFAULT 0);
CREATE TABLE votes (id INTEGER PRIMARY KEY, post_id INTEGER NOT NULL UNIQUE REFERENCES posts(id), subject TEXT NOT NULL, voted TEXT NOT NULL);
CREATE TABLE follows (id INTEGER PRIMARY KEY, thread_id INTEGER NOT NULL UNIQUE REFERENCES threads(id), title TEXT NOT NULL, since TEXT NOT NULL);
CREATE TABLE bookmarks (id INTEGER PRIMARY KEY, thread_id INTEGER NOT NULL UNIQUE REFERENCES threads(id), title TEXT NOT NULL, added TEXT NOT NULL);
CREATE TABLE notifications (id INTEGER PRIMARY KEY, subject TEXT NOT NULL, thread_id INTEGER NOT NULL REFERENCES threads(id),
  created TEXT NOT NULL, read INTEGER NOT NULL DEFAULT 0);
CREATE TABLE settings (id INTEGER PRIMARY KEY, member_id INTEGER NOT NULL REFERENCES members(id), name TEXT NOT NULL, email TEXT NOT NULL,
  signature TEXT NOT NULL DEFAULT '', email_notifications TEXT NOT NULL, posts_per_page INTEGER NOT NULL, show_online INTEGER NOT NULL);
`;

/** How often the user gets email about activity: stored value and label. */
export const EMAIL_NOTIFICATIONS = [
  { value: 'instant', text: 'Instantly' },
  { value: 'daily', text: 'Daily digest' },
  { value: 'never', text: 'Never' },
] as const;

/** Posts per thread page the user can choose. */
export const POSTS_PER_PAGE = [10, 20, 50] as const;

const BIOS = [
  'Weekend tinkerer.', 'Here to learn and to help.', 'Mostly lurking, sometimes posting.', 'Ask me about the old days.',
  'Started as a hobby, now it is an obsession.', 'Moderator emeritus.', 'Coffee first, questions later.', 'Always one project too many.',
];

/** `YYYY-MM-DD HH:MM` of a date (UTC). */
export function stamp(date: Date): string {
  return `${date.toISOString().slice(0, 10)} ${date.toISOString().slice(11, 16)}`;
}

/** Fills a forum: theme by variant, about 35 members, 80-100 threads with replies, the user's votes, follows and settings. */
export function seedForum({ db, faker, variant, today }: SeedInput): SeedResult {
  const theme = THEMES[(variant - 1) % THEMES.length] ?? (THEMES[0] as (typeof THEMES)[number]);
  const now = new Date(`${today}T09:00:00Z`).getTime();
  const ago = (days: number): Date => new Date(now - days * 86400_000);

  const names = new Set<string>();
  const addMember = db.prepare('INSERT INTO members (name, joined, location, bio) VALUES (?, ?, ?, ?)');
  const members: number[] = [];
  while (members.length < 36) {
    const name = username(faker, faker.person.firstName(), faker.person.lastName());
    if (names.has(name) || name.length < 5) continue;
    names.add(name);
    const joined = ago(faker.number.int({ min: 170, max: 2400 })).toISOString().slice(0, 10);
    const location = faker.helpers.arrayElement(PLACES);
    members.push(Number(addMember.run(name, joined, location, faker.helpers.arrayElement(BIOS)).lastInsertRowid));
  }
  const me = members[0] as number;
  const others = members.slice(1);

  const addCategory = db.prepare('INSERT INTO categories (name) VALUES (?)');
  const addBoard = db.prepare('INSERT INTO boards (category_id, name, slug, description) VALUES (?, ?, ?, ?)');
  const addThread = db.prepare('INSERT INTO threads (board_id, title, author_id, tags, created, views, locked) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const addPost = db.prepare('INSERT INTO posts (thread_id, author_id, subject, body, created, score) VALUES (?, ?, ?, ?, ?, ?)');
  const boards = theme.categories.flatMap((c) => {
    const catId = Number(addCategory.run(c.name).lastInsertRowid);
    return c.boards.map((b) => ({ ...b, id: Number(addBoard.run(catId, b.name, slugify(b.name), b.description).lastInsertRowid) }));
  });
  const plan = boards.flatMap((b) => Array.from({ length: faker.number.int({ min: 9, max: 13 }) }, () => b));
  const mine = new Set(faker.helpers.arrayElements(plan.map((_, i) => i).filter((i) => plan[i]?.kind !== 'market'), 4));
  const titles = new Set<string>();
  const threads: Array<{ id: number; title: string; author: number; posts: Array<{ id: number; author: number; created: string }> }> = [];
  plan.forEach((b, i) => {
    let made = threadTitle(faker, b.kind, b.things);
    for (let tries = 0; tries < 30 && (titles.has(made.title) || made.title.length > 78); tries++) made = threadTitle(faker, b.kind, b.things);
    if (titles.has(made.title) || made.title.length > 78) return;
    titles.add(made.title);
    const author = mine.has(i) ? me : faker.helpers.arrayElement(others);
    const start = ago(faker.number.float({ min: 1.5, max: 160 }));
    const replies = faker.helpers.weightedArrayElement([
      { weight: 1, value: 0 }, { weight: 5, value: faker.number.int({ min: 1, max: 5 }) },
      { weight: 3, value: faker.number.int({ min: 6, max: 12 }) }, { weight: 2, value: faker.number.int({ min: 13, max: 24 }) },
    ]);
    const end = Math.min(now - 3600_000, start.getTime() + faker.number.int({ min: 2, max: 40 }) * 86400_000);
    const times = Array.from({ length: replies }, () => faker.number.int({ min: start.getTime() + 600_000, max: Math.max(start.getTime() + 600_000, end) })).sort((x, y) => x - y);
    const tags = faker.helpers.arrayElements(b.tags, faker.number.int({ min: 1, max: 3 })).join(', ');
    const locked = author !== me && faker.number.int({ min: 0, max: 15 }) === 0 ? 1 : 0;
    const id = Number(addThread.run(b.id, made.title, author, tags, stamp(start), (replies + 1) * faker.number.int({ min: 12, max: 70 }), locked).lastInsertRowid);
    const thread = { id, title: made.title, author, posts: [] as Array<{ id: number; author: number; created: string }> };
    const firstScore = faker.number.int({ min: 0, max: 45 });
    const post = (who: number, body: string, at: Date, score: number): void => {
      const subject = thread.posts.length ? `Re: ${made.title}` : made.title;
      const pid = Number(addPost.run(id, who, subject, body, stamp(at), score).lastInsertRowid);
      thread.posts.push({ id: pid, author: who, created: stamp(at) });
    };
    post(author, openingPost(faker, b.kind, made.thing), start, firstScore);
    for (const t of times) {
      const who = faker.number.int({ min: 0, max: 14 }) === 0 ? me : faker.helpers.arrayElement(others);
      post(who, replyText(faker, b.kind, made.thing), new Date(t), faker.number.int({ min: 0, max: 15 }));
    }
    threads.push(thread);
  });

  const voted = faker.helpers.arrayElements(threads.flatMap((t) => t.posts.filter((p) => p.author !== me).map((p) => ({ ...p, title: t.title }))), 8);
  const addVote = db.prepare('INSERT INTO votes (post_id, subject, voted) VALUES (?, ?, ?)');
  for (const v of voted) {
    db.prepare('UPDATE posts SET score = MAX(score, 1) WHERE id = ?').run(v.id);
    addVote.run(v.id, `Post in ${v.title}`, v.created.slice(0, 10));
  }
  const followed = [...threads.filter((t) => t.author === me), ...faker.helpers.arrayElements(threads.filter((t) => t.author !== me), 3)];
  const addFollow = db.prepare('INSERT INTO follows (thread_id, title, since) VALUES (?, ?, ?)');
  for (const t of followed) addFollow.run(t.id, t.title, t.posts[0]?.created.slice(0, 10) ?? today);
  const addBookmark = db.prepare('INSERT INTO bookmarks (thread_id, title, added) VALUES (?, ?, ?)');
  for (const t of faker.helpers.arrayElements(threads, 4)) addBookmark.run(t.id, t.title, t.posts[0]?.created.slice(0, 10) ?? today);

  const nameOf = new Map((db.prepare('SELECT id, name FROM members').all() as Array<{ id: number; name: string }>).map((m) => [m.id, m.name]));
  const events = followed
    .flatMap((t) => t.posts.slice(1).filter((p) => p.author !== me).map((p) => ({ subject: `${nameOf.get(p.author)} replied to "${t.title}"`, thread: t.id, created: p.created })))
    .sort((a, b) => b.created.localeCompare(a.created));
  const subjects = new Set<string>();
  const addNote = db.prepare('INSERT INTO notifications (subject, thread_id, created, read) VALUES (?, ?, ?, ?)');
  for (const e of events) {
    if (subjects.has(e.subject) || subjects.size >= 10) continue;
    addNote.run(e.subject, e.thread, e.created, subjects.size < 4 ? 0 : 1);
    subjects.add(e.subject);
  }

  const myName = nameOf.get(me) ?? 'me';
  db.prepare(`INSERT INTO settings (id, member_id, name, email, signature, email_notifications, posts_per_page, show_online)
    VALUES (1, ?, ?, ?, '', 'daily', 10, 1)`).run(me, myName, `${myName.replace(/[^a-z0-9]/g, '')}@example.com`);
  return { title: theme.title };
}
