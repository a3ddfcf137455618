/** The calendar template's invitations, calendars and settings. @module */
import { html } from '../../html';
import { errorSummary, idOf, postForm, selectField, submit, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { longDate } from './dates';
import { calendars, invitations, settings } from './queries';
import { COLORS, TIMEZONES } from './seed';

const RESPONSES: Record<string, string> = { accepted: 'Accept', maybe: 'Maybe', declined: 'Decline' };

function invitationsPage(ctx: RequestCtx): Reply {
  const list = invitations(ctx.db);
  const pending = list.filter((i) => i.response === 'pending');
  return ctx.render({
    title: 'Invitations',
    body: html`<p>${pending.length} invitation${pending.length === 1 ? '' : 's'} waiting for your answer.</p>
<table><thead><tr><th>Event</th><th>Organizer</th><th>When</th><th>Where</th><th>Your answer</th><th></th></tr></thead><tbody>${list.map(
  (i) => html`<tr><td>${i.title}</td><td>${i.organizer} (${i.organizer_email})</td><td>${longDate(i.date)}, ${i.start}–${i.end}</td><td>${i.location}</td>
<td>${i.response === 'pending' ? 'Not answered' : i.response}</td><td>${postForm(ctx.href(`/invitations/${i.id}/respond`), Object.entries(RESPONSES).map(
    ([value, text]) => submit(text, { name: 'response', value, label: `${text} ${i.title}`, variant: value === 'accepted' ? undefined : 'secondary' }),
  ), { inline: true })}</td></tr>`,
)}</tbody></table>`,
  });
}

function respond(ctx: RequestCtx): Reply {
  const id = idOf(ctx.params.id);
  const inv = id === undefined ? undefined : invitations(ctx.db).find((i) => i.id === id);
  if (!inv) return ctx.notFound('That invitation does not exist.');
  const response = ctx.field('response');
  if (!(response in RESPONSES)) return ctx.badRequest(`"${response}" is not an answer to an invitation.`);
  if (response === inv.response) {
    ctx.flash(`You already answered "${inv.title}".`);
    return ctx.redirect('/invitations');
  }
  ctx.db.prepare('UPDATE invitations SET response = ? WHERE id = ?').run(response, inv.id);
  const exists = ctx.db.prepare('SELECT id FROM events WHERE title = ? AND date = ? AND start = ?').get(inv.title, inv.date, inv.start) as { id: number } | undefined;
  if (response === 'accepted' && !exists) {
    const first = calendars(ctx.db)[0];
    ctx.db.prepare('INSERT INTO events (title, calendar_id, date, start, end, location, description, reminder) VALUES (?, ?, ?, ?, ?, ?, ?, 10)')
      .run(inv.title, first?.id, inv.date, inv.start, inv.end, inv.location, `Organized by ${inv.organizer}`);
  }
  if (response !== 'accepted' && exists) ctx.db.prepare('DELETE FROM events WHERE id = ?').run(exists.id);
  ctx.flash(`You answered "${RESPONSES[response]}" to "${inv.title}".`);
  return ctx.redirect('/invitations');
}

function calendarsPage(ctx: RequestCtx, values: Record<string, string> = {}, errors: Record<string, string> = {}): Reply {
  const list = calendars(ctx.db);
  return ctx.render({
    title: 'Calendars',
    status: Object.keys(errors).length ? 422 : 200,
    body: html`<table><thead><tr><th>Calendar</th><th>Color</th><th>Events</th><th></th></tr></thead><tbody>${list.map(
      (c) => html`<tr><td><a href="${ctx.href('/events', { calendar: c.id })}">${c.name}</a></td><td>${c.color}</td><td>${c.events}</td>
<td>${c.events === 0 ? postForm(ctx.href(`/calendars/${c.id}/delete`), submit('Delete', { label: `Delete the ${c.name} calendar`, variant: 'danger' }), { inline: true }) : ''}</td></tr>`,
    )}</tbody></table>
<h2>New calendar</h2>${errorSummary(errors)}${postForm(ctx.href('/calendars'), html`<div class="row">
${textField({ label: 'Calendar name', name: 'name', value: values.name, error: errors.name })}
${selectField({ label: 'Color', name: 'color', value: values.color ?? 'Blue', options: COLORS.map((c) => ({ value: c, text: c })), error: errors.color })}
${submit('Create calendar')}</div>`, { label: 'New calendar' })}`,
  });
}

function createCalendar(ctx: RequestCtx): Reply {
  const values = { name: ctx.field('name'), color: ctx.field('color') || 'Blue' };
  const errors: Record<string, string> = {};
  if (!values.name) errors.name = 'Give the calendar a name.';
  else if (values.name.length > 60) errors.name = 'The name can be at most 60 characters.';
  else if (calendars(ctx.db).some((c) => c.name.toLowerCase() === values.name.toLowerCase())) errors.name = 'You already have a calendar with that name.';
  if (!(COLORS as readonly string[]).includes(values.color)) errors.color = 'Choose a color.';
  if (Object.keys(errors).length) return calendarsPage(ctx, values, errors);
  ctx.db.prepare('INSERT INTO calendars (name, color) VALUES (?, ?)').run(values.name, values.color);
  ctx.flash(`Created the ${values.name} calendar.`);
  return ctx.redirect('/calendars');
}

function settingsPage(ctx: RequestCtx, values?: Record<string, string>, errors: Record<string, string> = {}): Reply {
  const s = settings(ctx.db);
  const v = values ?? { name: s.name, week_start: s.week_start, default_length: String(s.default_length), timezone: s.timezone };
  return ctx.render({
    title: 'Settings',
    status: Object.keys(errors).length ? 422 : 200,
    body: html`${errorSummary(errors)}<p>Signed in as ${s.email}</p>${postForm(ctx.href('/settings'), html`
${textField({ label: 'Display name', name: 'name', value: v.name, error: errors.name })}
${selectField({ label: 'Week starts on', name: 'week_start', value: v.week_start, options: [{ value: 'monday', text: 'Monday' }, { value: 'sunday', text: 'Sunday' }], error: errors.week_start })}
${selectField({ label: 'Default event length', name: 'default_length', value: v.default_length, options: [15, 30, 45, 60, 90, 120].map((m) => ({ value: String(m), text: `${m} minutes` })), error: errors.default_length })}
${selectField({ label: 'Time zone', name: 'timezone', value: v.timezone, options: TIMEZONES.map((t) => ({ value: t, text: t.replace('_', ' ') })), error: errors.timezone })}
${submit('Save settings')}`, { label: 'Settings' })}`,
  });
}

function saveSettings(ctx: RequestCtx): Reply {
  const v = { name: ctx.field('name'), week_start: ctx.field('week_start'), default_length: ctx.field('default_length'), timezone: ctx.field('timezone') };
  const errors: Record<string, string> = {};
  if (!v.name) errors.name = 'Enter your name.';
  if (!['monday', 'sunday'].includes(v.week_start)) errors.week_start = 'Choose Monday or Sunday.';
  if (!['15', '30', '45', '60', '90', '120'].includes(v.default_length)) errors.default_length = 'Choose a default length.';
  if (!(TIMEZONES as readonly string[]).includes(v.timezone)) errors.timezone = 'Choose a time zone.';
  if (Object.keys(errors).length) return settingsPage(ctx, v, errors);
  ctx.db.prepare('UPDATE settings SET name = ?, week_start = ?, default_length = ?, timezone = ? WHERE id = 1').run(v.name, v.week_start, Number(v.default_length), v.timezone);
  ctx.flash('Your settings were saved.');
  return ctx.redirect('/settings');
}

/** Registers invitations, calendars and settings. */
export function otherRoutes(r: Router<Handler>): void {
  r.get('/invitations', invitationsPage);
  r.post('/invitations/:id/respond', respond);
  r.get('/calendars', (ctx) => calendarsPage(ctx));
  r.post('/calendars', createCalendar);
  r.post('/calendars/:id/delete', (ctx) => {
    const id = idOf(ctx.params.id);
    const c = calendars(ctx.db).find((x) => x.id === id);
    if (!c) return ctx.notFound('That calendar does not exist.');
    if (c.events > 0) return calendarsPage(ctx, {}, { delete: `The ${c.name} calendar still has events; move or delete them first.` });
    ctx.db.prepare('DELETE FROM calendars WHERE id = ?').run(c.id);
    ctx.flash(`Deleted the ${c.name} calendar.`);
    return ctx.redirect('/calendars');
  });
  r.get('/settings', (ctx) => settingsPage(ctx));
  r.post('/settings', saveSettings);
}
