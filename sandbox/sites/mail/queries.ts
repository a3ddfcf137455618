/** The mail template's reads, shared by pages and task generators. @module */
import type { Database } from 'better-sqlite3';

/** Folders in display order. */
export const FOLDERS = ['inbox', 'sent', 'drafts', 'archive', 'trash'] as const;
/** A folder. */
export type Folder = (typeof FOLDERS)[number];

/** A message. */
export interface MessageRow {
  id: number;
  folder: Folder;
  from_name: string;
  from_email: string;
  to_email: string;
  cc: string;
  subject: string;
  body: string;
  sent_at: string;
  read: number;
  starred: number;
  label: string;
  in_reply_to: number | null;
  forwarded_from: number | null;
}

/** List filters. */
export interface MessageFilter {
  folder?: Folder;
  q?: string;
  show?: string;
  label?: string;
  sort?: string;
}

/** Sort orders of message lists. */
export const MESSAGE_SORTS = [
  { value: 'newest', text: 'Newest first', sql: 'sent_at DESC, id DESC' },
  { value: 'oldest', text: 'Oldest first', sql: 'sent_at ASC, id ASC' },
  { value: 'sender', text: 'Sender A to Z', sql: 'from_name COLLATE NOCASE, sent_at DESC' },
] as const;

/** Messages of a folder (or, with `q`, of every folder but the trash), filtered and sorted. */
export function findMessages(db: Database, f: MessageFilter): MessageRow[] {
  const where: string[] = [];
  const args: string[] = [];
  if (f.folder) {
    where.push('folder = ?');
    args.push(f.folder);
  } else where.push("folder != 'trash'");
  if (f.q) {
    const like = `%${f.q.replace(/[%_]/g, '')}%`;
    where.push('(subject LIKE ? OR body LIKE ? OR from_name LIKE ? OR from_email LIKE ? OR to_email LIKE ?)');
    args.push(like, like, like, like, like);
  }
  if (f.show === 'unread') where.push('read = 0');
  if (f.show === 'starred') where.push('starred = 1');
  if (f.label) {
    where.push('label = ?');
    args.push(f.label);
  }
  const sort = MESSAGE_SORTS.find((s) => s.value === f.sort) ?? MESSAGE_SORTS[0];
  return db.prepare(`SELECT * FROM messages WHERE ${where.join(' AND ')} ORDER BY ${sort.sql}`).all(...args) as MessageRow[];
}

/** One message. */
export function getMessage(db: Database, id: number): MessageRow | undefined {
  return db.prepare('SELECT * FROM messages WHERE id = ?').get(id) as MessageRow | undefined;
}

/** Unread messages per folder. */
export function unreadCounts(db: Database): Record<string, number> {
  const rows = db.prepare('SELECT folder, COUNT(*) AS n FROM messages WHERE read = 0 GROUP BY folder').all() as Array<{ folder: string; n: number }>;
  return Object.fromEntries(rows.map((r) => [r.folder, r.n]));
}

/** A contact. */
export interface ContactRow {
  id: number;
  name: string;
  email: string;
  phone: string;
  company: string;
  notes: string;
}

/** Contacts by name, optionally matching `q` (name, email or company). */
export function findContacts(db: Database, q = ''): ContactRow[] {
  if (!q) return db.prepare('SELECT * FROM contacts ORDER BY name COLLATE NOCASE').all() as ContactRow[];
  const like = `%${q.replace(/[%_]/g, '')}%`;
  return db.prepare('SELECT * FROM contacts WHERE name LIKE ? OR email LIKE ? OR company LIKE ? ORDER BY name COLLATE NOCASE').all(like, like, like) as ContactRow[];
}

/** The user's settings. */
export interface SettingsRow {
  name: string;
  email: string;
  signature: string;
  vacation: number;
  vacation_message: string;
  per_page: number;
}

/** The user's settings. */
export function settings(db: Database): SettingsRow {
  return db.prepare('SELECT * FROM settings WHERE id = 1').get() as SettingsRow;
}

/** A fact a message states (internal, for tasks). */
export interface FactRow {
  message_id: number;
  question: string;
  answer: string;
  kind: 'text' | 'number';
}

/** Every message fact. */
export function facts(db: Database): FactRow[] {
  return db.prepare('SELECT * FROM _facts ORDER BY message_id').all() as FactRow[];
}
