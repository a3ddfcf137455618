/** The calendar template's event pages: details, create, edit, delete, invite and remove guests. @module */
import { html } from '../../html';
import { errorSummary, idOf, postForm, selectField, submit, textArea, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { isDate } from '../../values';
import { clock, isTime, longDate, minutes } from './dates';
import { attendees, calendars, getEvent, settings, type EventRow } from './queries';
import { REMINDERS } from './seed';

const EMAIL = /^[^@\s,<>]+@[^@\s,<>]+\.[^@\s,<>]+$/;
const FIELDS = ['title', 'date', 'start', 'end', 'calendar_id', 'location', 'description', 'reminder'] as const;
type Values = Record<(typeof FIELDS)[number], string>;

function eventForm(ctx: RequestCtx, action: string, title: string, v: Values, errors: Record<string, string> = {}, button = 'Save event'): Reply {
  return ctx.render({
    title,
    status: Object.keys(errors).length ? 422 : 200,
    body: html`${errorSummary(errors)}${postForm(ctx.href(action), html`
${textField({ label: 'Title', name: 'title', value: v.title, error: errors.title })}
<div class="row">${textField({ label: 'Date', name: 'date', type: 'date', value: v.date, error: errors.date })}
${textField({ label: 'Start time', name: 'start', type: 'time', value: v.start, error: errors.start })}
${textField({ label: 'End time', name: 'end', type: 'time', value: v.end, error: errors.end })}</div>
${selectField({ label: 'Calendar', name: 'calendar_id', value: v.calendar_id, error: errors.calendar_id, options: calendars(ctx.db).map((c) => ({ value: String(c.id), text: c.name })) })}
${textField({ label: 'Location', name: 'location', value: v.location, error: errors.location })}
${textArea({ label: 'Description', name: 'description', value: v.description, rows: 3 })}
${selectField({ label: 'Reminder', name: 'reminder', value: v.reminder, options: REMINDERS.map(([m, t]) => ({ value: String(m), text: t })) })}
${submit(button)}`, { label: title })}`,
  });
}

function valuesOf(e: EventRow): Values {
  return { title: e.title, date: e.date, start: e.start, end: e.end, calendar_id: String(e.calendar_id), location: e.location, description: e.description, reminder: String(e.reminder) };
}

function validate(ctx: RequestCtx, v: Values): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!v.title) errors.title = 'Give the event a title.';
  else if (v.title.length > 120) errors.title = 'The title can be at most 120 characters.';
  if (!isDate(v.date)) errors.date = 'Enter a date like 2026-03-16.';
  if (!isTime(v.start)) errors.start = 'Enter a start time like 09:30.';
  if (!isTime(v.end)) errors.end = 'Enter an end time like 10:30.';
  else if (isTime(v.start) && minutes(v.end) <= minutes(v.start)) errors.end = 'The event must end after it starts.';
  if (!calendars(ctx.db).some((c) => String(c.id) === v.calendar_id)) errors.calendar_id = 'Choose a calendar.';
  if (v.location.length > 120) errors.location = 'The location can be at most 120 characters.';
  if (!REMINDERS.some(([m]) => String(m) === v.reminder)) errors.reminder = 'Choose a reminder.';
  return errors;
}

function formValues(ctx: RequestCtx): Values {
  const v = Object.fromEntries(FIELDS.map((k) => [k, ctx.field(k)])) as Values;
  v.reminder ||= '0';
  return v;
}

function eventOf(ctx: RequestCtx): EventRow | undefined {
  const id = idOf(ctx.params.id);
  return id === undefined ? undefined : getEvent(ctx.db, id);
}

function newEvent(ctx: RequestCtx): Reply {
  const date = ctx.q('date');
  const start = '09:00';
  const v: Values = { title: '', date: isDate(date) ? date : ctx.site.today, start, end: clock(minutes(start) + settings(ctx.db).default_length), calendar_id: String(calendars(ctx.db)[0]?.id ?? ''), location: '', description: '', reminder: '0' };
  return eventForm(ctx, '/events', 'New event', v);
}

function createEvent(ctx: RequestCtx): Reply {
  const v = formValues(ctx);
  const errors = validate(ctx, v);
  if (Object.keys(errors).length) return eventForm(ctx, '/events', 'New event', v, errors);
  const id = ctx.db.prepare('INSERT INTO events (title, calendar_id, date, start, end, location, description, reminder) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    .run(v.title, Number(v.calendar_id), v.date, v.start, v.end, v.location, v.description, Number(v.reminder)).lastInsertRowid;
  ctx.flash(`Added "${v.title}" on ${longDate(v.date)}.`);
  return ctx.redirect(`/events/${id}`);
}

function showEvent(ctx: RequestCtx): Reply {
  const e = eventOf(ctx);
  if (!e) return ctx.notFound('That event does not exist or was deleted.');
  const guests = attendees(ctx.db, e.id);
  const reminder = REMINDERS.find(([m]) => m === e.reminder)?.[1] ?? 'No reminder';
  return ctx.render({
    title: e.title,
    body: html`<table><tbody><tr><th>When</th><td>${longDate(e.date)} (${e.date}), ${e.start}–${e.end}</td></tr>
<tr><th>Calendar</th><td>${e.calendar}</td></tr><tr><th>Location</th><td>${e.location || '—'}</td></tr>
<tr><th>Reminder</th><td>${reminder}</td></tr><tr><th>Notes</th><td>${e.description || '—'}</td></tr></tbody></table>
<div class="row"><a class="button" href="${ctx.href(`/events/${e.id}/edit`)}">Edit event</a>
${postForm(ctx.href(`/events/${e.id}/delete`), submit('Delete event', { variant: 'danger' }), { inline: true })}
<a href="${ctx.href('/', { week: e.date })}">Show this week</a></div>
<h2>Guests (${guests.length})</h2>${guests.length ? html`<table><thead><tr><th>Name</th><th>Email</th><th>Response</th><th></th></tr></thead><tbody>${guests.map(
  (g) => html`<tr><td>${g.name}</td><td>${g.email}</td><td>${g.response}</td><td>${postForm(ctx.href(`/events/${e.id}/guests/${g.id}/remove`), submit('Remove', { label: `Remove ${g.name}`, variant: 'secondary' }), { inline: true })}</td></tr>`,
)}</tbody></table>` : html`<p>No guests yet.</p>`}
${postForm(ctx.href(`/events/${e.id}/invite`), html`<div class="row">${textField({ label: 'Guest email', name: 'email', type: 'email' })}${textField({ label: 'Guest name', name: 'name' })}${submit('Invite guest')}</div>`, { label: 'Invite a guest' })}`,
  });
}

function updateEvent(ctx: RequestCtx): Reply {
  const e = eventOf(ctx);
  if (!e) return ctx.notFound('That event does not exist or was deleted.');
  const v = formValues(ctx);
  const errors = validate(ctx, v);
  if (Object.keys(errors).length) return eventForm(ctx, `/events/${e.id}`, `Edit ${e.title}`, v, errors, 'Save changes');
  ctx.db.prepare('UPDATE events SET title = ?, calendar_id = ?, date = ?, start = ?, end = ?, location = ?, description = ?, reminder = ? WHERE id = ?')
    .run(v.title, Number(v.calendar_id), v.date, v.start, v.end, v.location, v.description, Number(v.reminder), e.id);
  ctx.flash(`Saved "${v.title}".`);
  return ctx.redirect(`/events/${e.id}`);
}

function invite(ctx: RequestCtx): Reply {
  const e = eventOf(ctx);
  if (!e) return ctx.notFound('That event does not exist or was deleted.');
  const email = ctx.field('email');
  if (!EMAIL.test(email)) {
    ctx.flash(`"${email}" is not a valid email address; nobody was invited.`);
    return ctx.redirect(`/events/${e.id}`);
  }
  if (attendees(ctx.db, e.id).some((g) => g.email.toLowerCase() === email.toLowerCase())) {
    ctx.flash(`${email} is already invited.`);
    return ctx.redirect(`/events/${e.id}`);
  }
  const name = ctx.field('name') || email.split('@')[0] || email;
  ctx.db.prepare("INSERT INTO attendees (event_id, name, email, response) VALUES (?, ?, ?, 'pending')").run(e.id, name.slice(0, 80), email);
  ctx.flash(`Invited ${email} to "${e.title}".`);
  return ctx.redirect(`/events/${e.id}`);
}

/** Registers the event pages. */
export function eventRoutes(r: Router<Handler>): void {
  r.get('/events/new', newEvent);
  r.post('/events', createEvent);
  r.get('/events/:id', showEvent);
  r.get('/events/:id/edit', (ctx) => {
    const e = eventOf(ctx);
    return e ? eventForm(ctx, `/events/${e.id}`, `Edit ${e.title}`, valuesOf(e), {}, 'Save changes') : ctx.notFound('That event does not exist or was deleted.');
  });
  r.post('/events/:id', updateEvent);
  r.post('/events/:id/delete', (ctx) => {
    const e = eventOf(ctx);
    if (!e) return ctx.notFound('That event does not exist or was deleted.');
    ctx.db.prepare('DELETE FROM events WHERE id = ?').run(e.id);
    ctx.flash(`Deleted "${e.title}" on ${longDate(e.date)}.`);
    return ctx.redirect('/', { week: e.date });
  });
  r.post('/events/:id/invite', invite);
  r.post('/events/:id/guests/:gid/remove', (ctx) => {
    const e = eventOf(ctx);
    const gid = idOf(ctx.params.gid);
    const g = e && gid !== undefined ? attendees(ctx.db, e.id).find((x) => x.id === gid) : undefined;
    if (!e || !g) return ctx.notFound('That guest is not on this event.');
    ctx.db.prepare('DELETE FROM attendees WHERE id = ?').run(g.id);
    ctx.flash(`Removed ${g.name} from "${e.title}".`);
    return ctx.redirect(`/events/${e.id}`);
  });
}
