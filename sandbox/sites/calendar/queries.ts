/** The calendar template's reads, shared by pages and tasks. @module */
import type { Database } from 'better-sqlite3';

/** An event with its calendar's name. */
export interface EventRow {
  id: number;
  title: string;
  calendar_id: number;
  calendar: string;
  date: string;
  start: string;
  end: string;
  location: string;
  description: string;
  reminder: number;
}

/** A calendar with its event count. */
export interface CalendarRow {
  id: number;
  name: string;
  color: string;
  events: number;
}

/** An attendee. */
export interface AttendeeRow {
  id: number;
  event_id: number;
  name: string;
  email: string;
  response: string;
}

/** An invitation. */
export interface InvitationRow {
  id: number;
  title: string;
  organizer: string;
  organizer_email: string;
  date: string;
  start: string;
  end: string;
  location: string;
  response: string;
}

/** The user's settings. */
export interface SettingsRow {
  name: string;
  email: string;
  week_start: string;
  default_length: number;
  timezone: string;
}

/** Agenda sort orders. */
export const EVENT_SORTS = [
  { value: 'date', text: 'Date: earliest first', sql: 'e.date, e.start, e.id' },
  { value: 'date_desc', text: 'Date: latest first', sql: 'e.date DESC, e.start DESC, e.id DESC' },
  { value: 'title', text: 'Title: A to Z', sql: 'e.title COLLATE NOCASE, e.date, e.start' },
] as const;

/** Agenda filters. */
export interface EventFilter {
  q?: string;
  calendar?: number;
  from?: string;
  to?: string;
  sort?: string;
}

const SELECT = 'SELECT e.*, c.name AS calendar FROM events e JOIN calendars c ON c.id = e.calendar_id';

/** Events matching a filter, sorted. */
export function findEvents(db: Database, f: EventFilter = {}): EventRow[] {
  const where: string[] = [];
  const args: Array<string | number> = [];
  if (f.q) {
    const like = `%${f.q.replace(/[%_]/g, '')}%`;
    where.push('(e.title LIKE ? OR e.location LIKE ? OR e.description LIKE ?)');
    args.push(like, like, like);
  }
  if (f.calendar !== undefined) {
    where.push('e.calendar_id = ?');
    args.push(f.calendar);
  }
  if (f.from) {
    where.push('e.date >= ?');
    args.push(f.from);
  }
  if (f.to) {
    where.push('e.date <= ?');
    args.push(f.to);
  }
  const sort = EVENT_SORTS.find((s) => s.value === f.sort) ?? EVENT_SORTS[0];
  return db.prepare(`${SELECT}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${sort.sql}`).all(...args) as EventRow[];
}

/** One event. */
export function getEvent(db: Database, id: number): EventRow | undefined {
  return db.prepare(`${SELECT} WHERE e.id = ?`).get(id) as EventRow | undefined;
}

/** Every calendar with its event count. */
export function calendars(db: Database): CalendarRow[] {
  return db.prepare('SELECT c.*, (SELECT COUNT(*) FROM events e WHERE e.calendar_id = c.id) AS events FROM calendars c ORDER BY c.id').all() as CalendarRow[];
}

/** An event's attendees. */
export function attendees(db: Database, eventId: number): AttendeeRow[] {
  return db.prepare('SELECT * FROM attendees WHERE event_id = ? ORDER BY id').all(eventId) as AttendeeRow[];
}

/** Invitations, soonest first. */
export function invitations(db: Database): InvitationRow[] {
  return db.prepare('SELECT * FROM invitations ORDER BY date, start, id').all() as InvitationRow[];
}

/** The user's settings. */
export function settings(db: Database): SettingsRow {
  return db.prepare('SELECT * FROM settings WHERE id = 1').get() as SettingsRow;
}

/** The accessible name of an event's links: unique even for a weekly series. */
export function eventLabel(e: Pick<EventRow, 'title' | 'date' | 'start'>): string {
  return `${e.title} on ${e.date} at ${e.start}`;
}
