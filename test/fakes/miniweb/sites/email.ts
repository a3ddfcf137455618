/**
 * The fake `email` site (WebMail): user 1's inbox, read from `sent_messages` (base rows and the session's overlay,
 * so a mailed verification code shows), and a page per message. Reading a message writes nothing.
 * @module
 */
import type { Row, TableSpec } from '../db';
import { esc, page } from '../html';
import { errorPage, html, type Ctx, type Reply, type Route } from '../http';
import { currentUid, intOf, type SiteModule } from '../site';

const SITE = 'email';
const BRAND = 'WebMail';
const HOME = '/sites/email/';
const ME = 'alex.rivera@meridiansystems.com';

const message = (id: number, from: string, subject: string, date: string, body: string, labels: string[]): Row => ({
  id,
  from_: from,
  to: [ME],
  cc: [],
  subject,
  date,
  body,
  message_id: `<m${id}@meridiansystems.com>`,
  folder: 'inbox',
  labels,
  is_read: 0,
  is_starred: 0,
  has_attachment: 0,
});

const TABLES: TableSpec[] = [
  {
    collection: 'users',
    table: 'email_users',
    columns: [
      ['id', 'INTEGER PRIMARY KEY'],
      ['root_user_id', 'INTEGER NOT NULL DEFAULT 0'],
      ['username', "TEXT NOT NULL DEFAULT ''"],
      ['password', "TEXT NOT NULL DEFAULT ''"],
      ['name', "TEXT NOT NULL DEFAULT ''"],
      ['email_address', "TEXT NOT NULL DEFAULT ''"],
      ['folders', "TEXT NOT NULL DEFAULT ''"],
      ['labels', "TEXT NOT NULL DEFAULT ''"],
      ['signature', "TEXT NOT NULL DEFAULT ''"],
    ],
    rows: [
      { id: 1, root_user_id: 1, username: 'alex', password: 'password1', name: 'Alex Rivera', email_address: ME, folders: ['inbox', 'sent', 'trash'], labels: ['work', 'personal'], signature: 'Alex' },
    ],
  },
  {
    collection: 'sent_messages',
    table: 'email_sent_messages',
    columns: [
      ['id', 'INTEGER PRIMARY KEY'],
      ['from_', "TEXT NOT NULL DEFAULT ''"],
      ['to', "TEXT NOT NULL DEFAULT ''"],
      ['cc', "TEXT NOT NULL DEFAULT ''"],
      ['subject', "TEXT NOT NULL DEFAULT ''"],
      ['date', "TEXT NOT NULL DEFAULT ''"],
      ['body', "TEXT NOT NULL DEFAULT ''"],
      ['message_id', "TEXT NOT NULL DEFAULT ''"],
      ['folder', "TEXT NOT NULL DEFAULT ''"],
      ['labels', "TEXT NOT NULL DEFAULT ''"],
      ['is_read', 'INTEGER NOT NULL DEFAULT 0'],
      ['is_starred', 'INTEGER NOT NULL DEFAULT 0'],
      ['has_attachment', 'INTEGER NOT NULL DEFAULT 0'],
    ],
    indexes: ['date', 'folder'],
    rows: [
      message(1, 'jordan.lee@meridiansystems.com', 'Team offsite agenda', '2026-11-30T09:15:00Z', 'Agenda attached. See you Thursday.', ['work']),
      message(2, 'holds@lakeportlibrary.org', 'Your hold is ready', '2026-12-01T16:40:00Z', 'Pick up "The Overstory" by Friday.', ['personal']),
    ],
  },
];

function view(title: string, body: string): Reply {
  return html(page({ title: `${BRAND} -- ${title}`, brand: BRAND, home: HOME, nav: [{ href: HOME, text: 'Inbox' }], body }));
}

const sender = (m: Row): string => String(m.from_addr ?? m.from_ ?? '');

function routes(): Route[] {
  return [
    {
      method: 'GET',
      path: '/sites/email/',
      handle: (ctx: Ctx) => {
        if (currentUid(ctx) === null) return view('Sign In', '<h1>Please sign in</h1>');
        const inbox = ctx.data
          .query(SITE, 'sent_messages', { where: { folder: 'inbox' } })
          .sort((a, b) => String(b.date).localeCompare(String(a.date)));
        const rows = inbox.map(
          (m) => `<li class="card"><a href="/sites/email/message/${esc(m.id)}">${esc(m.subject)}</a><div class="muted">${esc(sender(m))} · ${esc(m.date)}</div></li>`,
        );
        return view('Inbox', `<h1>Inbox</h1><ul>${rows.join('')}</ul>`);
      },
    },
    {
      method: 'GET',
      path: '/sites/email/message/:id',
      handle: (ctx: Ctx) => {
        if (currentUid(ctx) === null) return view('Sign In', '<h1>Please sign in</h1>');
        const m = ctx.data.getItem(SITE, 'sent_messages', intOf(ctx.params.id));
        if (!m) return errorPage(404);
        return view(String(m.subject), `<h1>${esc(m.subject)}</h1><p class="muted">From ${esc(sender(m))} · ${esc(m.date)}</p><pre>${esc(m.body)}</pre>`);
      },
    },
  ];
}

/** WebMail. */
export const email: SiteModule = {
  id: SITE,
  name: BRAND,
  description: 'WebMail — Communication',
  tables: TABLES,
  install: () => routes(),
};
