/** The forum's reads, shared by its pages and its task generators. @module */
import type { Database } from 'better-sqlite3';

/** Threads per page of a thread list or search. */
export const THREADS_PER_PAGE = 10;
/** Members per page of the member list. */
export const MEMBERS_PER_PAGE = 20;

/** A board with its category and activity figures. */
export interface BoardRow {
  id: number;
  name: string;
  slug: string;
  description: string;
  category: string;
  threads: number;
  posts: number;
  last_activity: string | null;
}

/** A thread with its board, author and activity figures. */
export interface ThreadRow {
  id: number;
  board_id: number;
  board: string;
  board_slug: string;
  title: string;
  author_id: number;
  author: string;
  tags: string;
  created: string;
  views: number;
  locked: number;
  replies: number;
  votes: number;
  last_activity: string;
  last_author: string;
}

/** A post with its author and its number in the thread (1 is the opening post). */
export interface PostRow {
  id: number;
  thread_id: number;
  author_id: number;
  author: string;
  subject: string;
  body: string;
  created: string;
  edited: string | null;
  score: number;
  number: number;
}

/** A member with activity figures. */
export interface MemberRow {
  id: number;
  name: string;
  joined: string;
  location: string;
  bio: string;
  posts: number;
  threads: number;
  reputation: number;
}

/** Sort orders of thread lists: value, label, SQL. */
export const THREAD_SORTS = [
  { value: 'latest', text: 'Latest activity', sql: 'last_activity DESC, t.id DESC' },
  { value: 'replies', text: 'Most replies', sql: 'replies DESC, last_activity DESC, t.id DESC' },
  { value: 'top', text: 'Top voted', sql: 'votes DESC, last_activity DESC, t.id DESC' },
  { value: 'newest', text: 'Newest threads', sql: 't.created DESC, t.id DESC' },
] as const;

/** Sort orders of the member list. */
export const MEMBER_SORTS = [
  { value: 'posts', text: 'Most posts', sql: 'posts DESC, name' },
  { value: 'reputation', text: 'Reputation', sql: 'reputation DESC, name' },
  { value: 'newest', text: 'Newest members', sql: 'joined DESC, name' },
  { value: 'name', text: 'Name A to Z', sql: 'name' },
] as const;

const THREAD_SELECT = `SELECT t.*, b.name AS board, b.slug AS board_slug, m.name AS author,
  (SELECT COUNT(*) FROM posts p WHERE p.thread_id = t.id) - 1 AS replies,
  (SELECT MAX(p.created) FROM posts p WHERE p.thread_id = t.id) AS last_activity,
  (SELECT p.score FROM posts p WHERE p.thread_id = t.id ORDER BY p.created, p.id LIMIT 1) AS votes,
  (SELECT mm.name FROM posts p JOIN members mm ON mm.id = p.author_id WHERE p.thread_id = t.id ORDER BY p.created DESC, p.id DESC LIMIT 1) AS last_author
  FROM threads t JOIN boards b ON b.id = t.board_id JOIN members m ON m.id = t.author_id`;

/** A LIKE pattern (use with `ESCAPE '\\'`) matching `text` anywhere. */
function like(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Every board, in display order, with its category and figures. */
export function boards(db: Database): BoardRow[] {
  return db.prepare(`SELECT b.*, c.name AS category,
    (SELECT COUNT(*) FROM threads t WHERE t.board_id = b.id) AS threads,
    (SELECT COUNT(*) FROM posts p JOIN threads t ON t.id = p.thread_id WHERE t.board_id = b.id) AS posts,
    (SELECT MAX(p.created) FROM posts p JOIN threads t ON t.id = p.thread_id WHERE t.board_id = b.id) AS last_activity
    FROM boards b JOIN categories c ON c.id = b.category_id ORDER BY c.id, b.id`).all() as BoardRow[];
}

/** The filters of thread lists and search. */
export interface ThreadFilter {
  board?: string;
  tag?: string;
  q?: string;
  sort?: string;
  authorId?: number;
}

/** Threads matching a filter, sorted; a search (`q`) matches titles and post texts, title matches first. */
export function findThreads(db: Database, f: ThreadFilter): ThreadRow[] {
  const where: string[] = [];
  const args: Array<string | number> = [];
  if (f.board) {
    where.push('b.slug = ?');
    args.push(f.board);
  }
  if (f.tag) {
    where.push("(', ' || t.tags || ', ') LIKE ? ESCAPE '\\'");
    args.push(`%, ${f.tag.replace(/[\\%_]/g, (c) => `\\${c}`)}, %`);
  }
  if (f.authorId !== undefined) {
    where.push('t.author_id = ?');
    args.push(f.authorId);
  }
  let rank = '';
  if (f.q) {
    where.push("(t.title LIKE ? ESCAPE '\\' OR EXISTS (SELECT 1 FROM posts p WHERE p.thread_id = t.id AND p.body LIKE ? ESCAPE '\\'))");
    args.push(like(f.q), like(f.q));
    if (!f.sort || f.sort === 'relevance') rank = "CASE WHEN t.title LIKE ? ESCAPE '\\' THEN 0 ELSE 1 END, ";
  }
  const sort = THREAD_SORTS.find((s) => s.value === f.sort) ?? THREAD_SORTS[0];
  const sql = `${THREAD_SELECT}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${rank}${sort.sql}`;
  return db.prepare(sql).all(...args, ...(rank && f.q ? [like(f.q)] : [])) as ThreadRow[];
}

/** One thread, or `undefined`. */
export function getThread(db: Database, id: number): ThreadRow | undefined {
  return db.prepare(`${THREAD_SELECT} WHERE t.id = ?`).get(id) as ThreadRow | undefined;
}

/** A thread's posts in order, numbered from 1. */
export function postsOf(db: Database, threadId: number): PostRow[] {
  const rows = db.prepare(`SELECT p.*, m.name AS author FROM posts p JOIN members m ON m.id = p.author_id
    WHERE p.thread_id = ? ORDER BY p.created, p.id`).all(threadId) as Omit<PostRow, 'number'>[];
  return rows.map((r, i) => ({ ...r, number: i + 1 }));
}

/** The tags of a thread as a list. */
export function tagList(tags: string): string[] {
  return tags.split(',').map((t) => t.trim()).filter(Boolean);
}

/** Tags used by the threads of a board (or of every board), sorted. */
export function tagsIn(db: Database, board?: string): string[] {
  const rows = (board
    ? db.prepare('SELECT t.tags FROM threads t JOIN boards b ON b.id = t.board_id WHERE b.slug = ?').all(board)
    : db.prepare('SELECT tags FROM threads').all()) as Array<{ tags: string }>;
  return [...new Set(rows.flatMap((r) => tagList(r.tags)))].sort();
}

const MEMBER_SELECT = `SELECT m.*,
  (SELECT COUNT(*) FROM posts p WHERE p.author_id = m.id) AS posts,
  (SELECT COUNT(*) FROM threads t WHERE t.author_id = m.id) AS threads,
  (SELECT COALESCE(SUM(p.score), 0) FROM posts p WHERE p.author_id = m.id) AS reputation
  FROM members m`;

/** Members, optionally matching a name, sorted. */
export function findMembers(db: Database, f: { q?: string; sort?: string } = {}): MemberRow[] {
  const sort = MEMBER_SORTS.find((s) => s.value === f.sort) ?? MEMBER_SORTS[0];
  return (f.q
    ? db.prepare(`${MEMBER_SELECT} WHERE m.name LIKE ? ESCAPE '\\' ORDER BY ${sort.sql}`).all(like(f.q))
    : db.prepare(`${MEMBER_SELECT} ORDER BY ${sort.sql}`).all()) as MemberRow[];
}

/** One member, or `undefined`. */
export function getMember(db: Database, id: number): MemberRow | undefined {
  return db.prepare(`${MEMBER_SELECT} WHERE m.id = ?`).get(id) as MemberRow | undefined;
}

/** The signed-in user's settings. */
export interface SettingsRow {
  member_id: number;
  name: string;
  email: string;
  signature: string;
  email_notifications: string;
  posts_per_page: number;
  show_online: number;
}

/** The signed-in user's settings. */
export function settings(db: Database): SettingsRow {
  return db.prepare('SELECT * FROM settings WHERE id = 1').get() as SettingsRow;
}

/** A followed or bookmarked thread. */
export interface SavedRow {
  id: number;
  thread_id: number;
  title: string;
  since: string;
}

/** The threads the user follows, newest first. */
export function follows(db: Database): SavedRow[] {
  return db.prepare('SELECT f.id, f.thread_id, t.title, f.since FROM follows f JOIN threads t ON t.id = f.thread_id ORDER BY f.since DESC, f.id DESC').all() as SavedRow[];
}

/** The user's bookmarks, newest first. */
export function bookmarks(db: Database): SavedRow[] {
  return db.prepare('SELECT k.id, k.thread_id, t.title, k.added AS since FROM bookmarks k JOIN threads t ON t.id = k.thread_id ORDER BY k.added DESC, k.id DESC').all() as SavedRow[];
}

/** A notification. */
export interface NotificationRow {
  id: number;
  subject: string;
  thread_id: number;
  created: string;
  read: number;
}

/** The user's notifications, newest first. */
export function notifications(db: Database): NotificationRow[] {
  return db.prepare('SELECT * FROM notifications ORDER BY created DESC, id DESC').all() as NotificationRow[];
}

/** Ids of the posts the user has upvoted. */
export function votedPosts(db: Database): Set<number> {
  return new Set((db.prepare('SELECT post_id FROM votes').all() as Array<{ post_id: number }>).map((r) => r.post_id));
}
