/** The calendar template's tasks: info and action generators over the calendar, each with a verifier and an oracle. @module */
import { answer, firstIsHuman, noRow, request, roundRobin, row, step } from '../../task-kit';
import type { TaskInput, TaskSpec } from '../../template';
import { addDays } from '../../values';
import { MONTHS, addMonths, clock, longDate, minutes, monthOf, monthTitle, weekStart } from './dates';
import { attendees, calendars, eventLabel, findEvents, invitations, settings, type EventRow } from './queries';
import { COLORS, REMINDERS } from './seed';

const SEARCH = 'Search events';

/** `March 18` */
function md(date: string): string {
  return `${MONTHS[Number(date.slice(5, 7)) - 1]} ${Number(date.slice(8, 10))}`;
}

function open(e: EventRow) {
  return [step.search(SEARCH, e.title), step.link(eventLabel(e))];
}

const NEW_TITLES = ['Call with the plumber', 'Gym session', 'Study for the exam', 'Pick up groceries', 'Team retro', 'Write the report',
  'Phone call with Mom', 'Piano lesson', 'Volunteer shift', 'Budget check-in', 'Oil change', 'Museum visit'];
const NEW_PLACES = ['Main Street Library', 'Home', 'Community Center', 'Downtown Gym', 'Room 3A', 'City Museum'];

/** Generates the calendar template's tasks (about 500 per site); the first of most generators is a human task. */
export function calendarTasks({ db, href, faker, site }: TaskInput): TaskSpec[] {
  const events = findEvents(db);
  const mix = (): EventRow[] => faker.helpers.shuffle([...events]).slice(0, 50);
  const counts = new Map<string, number>();
  for (const e of events) counts.set(e.title, (counts.get(e.title) ?? 0) + 1);
  const unique = events.filter((e) => counts.get(e.title) === 1);
  const cals = calendars(db);
  const invites = invitations(db);
  const me = settings(db);
  const info: TaskSpec[][] = [];
  const act: TaskSpec[][] = [];
  const about = (e: EventRow) => `the ${e.title} on ${md(e.date)}`;

  info.push(mix().map((e) => ({
    slug: `start-${e.id}`, kind: 'info', instruction: `What time does ${about(e)} start? Answer as HH:MM.`,
    verifier: { answer: answer.includes(e.start) }, oracle: [...open(e), step.done(e.start)],
  })));
  info.push(mix().filter((e) => e.location).map((e) => ({
    slug: `where-${e.id}`, kind: 'info', instruction: `Where is ${about(e)}?`,
    verifier: { answer: answer.includes(e.location) }, oracle: [...open(e), step.done(e.location)],
  })));
  info.push(faker.helpers.shuffle([...unique]).map((e) => ({
    slug: `date-${e.id}`, kind: 'info', instruction: `On what date is the ${e.title}? Answer as YYYY-MM-DD.`,
    verifier: { answer: answer.includes(e.date) }, oracle: [...open(e), step.done(e.date)],
  })));
  const days = faker.helpers.shuffle([...new Set(events.map((e) => e.date))]);
  info.push(days.map((d) => {
    const n = events.filter((e) => e.date === d).length;
    return {
      slug: `count-${d}`, kind: 'info', instruction: `How many events do I have on ${longDate(d)}?`,
      verifier: { answer: answer.number(n, 0) },
      oracle: [step.link('Agenda'), step.type('From', d), step.type('To', d), step.button('Apply'), step.done(`${n} events`)],
    };
  }));
  info.push(mix().flatMap((e) => {
    const yes = attendees(db, e.id).filter((g) => g.response === 'yes').map((g) => g.name);
    return yes.length ? [{
      slug: `guests-${e.id}`, kind: 'info' as const, instruction: `Who has said yes to ${about(e)}? List their names.`,
      verifier: { answer: answer.includes(...yes) }, oracle: [...open(e), step.done(yes.join(', '))],
    }] : [];
  }));
  info.push(invites.map((i) => ({
    slug: `organizer-${i.id}`, kind: 'info', instruction: `Who invited me to "${i.title}"? Report the organizer's name.`,
    verifier: { answer: answer.includes(i.organizer) }, oracle: [step.link('Invitations'), step.done(i.organizer)],
  })));
  info.push(cals.map((c) => ({
    slug: `cal-count-${c.id}`, kind: 'info', instruction: `How many events are in my ${c.name} calendar?`,
    verifier: { answer: answer.number(c.events, 0) }, oracle: [step.link('Calendars'), step.done(`${c.events} events`)],
  })));
  info.push(mix().map((e) => ({
    slug: `end-${e.id}`, kind: 'info', instruction: `When does ${about(e)} end? Answer as HH:MM.`,
    verifier: { answer: answer.includes(e.end) }, oracle: [...open(e), step.done(e.end)],
  })));
  const week = events.filter((e) => e.date >= weekStart(site.today) && e.date <= addDays(weekStart(site.today), 6)).length;
  info.push([{
    slug: 'this-week', kind: 'info', instruction: 'How many events are on my calendar this week?',
    verifier: { answer: answer.number(week, 0) }, oracle: [step.done(`${week} events`)],
  }]);

  act.push(NEW_TITLES.map((title, i) => {
    const date = addDays(site.today, 1 + ((i * 3) % 20));
    const start = clock((18 + ((i * 5) % 16)) * 30);
    const end = clock(minutes(start) + [30, 60, 90][i % 3]!);
    const cal = cals[i % cals.length] ?? cals[0];
    const place = i % 2 ? NEW_PLACES[i % NEW_PLACES.length] ?? '' : '';
    return {
      slug: `create-${i}`, kind: 'action',
      instruction: `Add an event "${title}" on ${md(date)} from ${start} to ${end} to my ${cal?.name} calendar${place ? `, at ${place}` : ''}.`,
      verifier: { state: [row('events', { title, date }, { start, end, calendar_id: cal?.id ?? 0, ...(place ? { location: place } : {}) })] },
      oracle: [step.link('New event'), step.type('Title', title), step.type('Date', date), step.type('Start time', start), step.type('End time', end),
        step.select('Calendar', cal?.name ?? ''), ...(place ? [step.type('Location', place)] : []), step.button('Save event'), step.done()],
    };
  }));
  act.push(mix().map((e, i) => {
    const to = addDays(e.date, [1, 2, -1, 7][i % 4]!);
    return {
      slug: `move-${e.id}`, kind: 'action', instruction: `Move ${about(e)} to ${md(to)}, keeping the same time.`,
      verifier: { state: [row('events', { id: e.id }, { date: to, start: e.start })] },
      oracle: [...open(e), step.link('Edit event'), step.type('Date', to), step.button('Save changes'), step.done()],
    };
  }));
  act.push(mix().map((e) => ({
    slug: `delete-${e.id}`, kind: 'action', instruction: `Delete ${about(e)} from my calendar.`,
    verifier: { state: [noRow('events', { id: e.id })] }, oracle: [...open(e), step.button('Delete event'), step.done()],
  })));
  act.push(mix().map((e, i) => {
    const [mins, label] = REMINDERS.filter(([m]) => m !== 0 && m !== e.reminder)[i % 3] ?? REMINDERS[1];
    return {
      slug: `remind-${e.id}`, kind: 'action', instruction: `Set a reminder ${label} ${about(e)}.`,
      verifier: { state: [row('events', { id: e.id }, { reminder: mins })] },
      oracle: [...open(e), step.link('Edit event'), step.select('Reminder', label), step.button('Save changes'), step.done()],
    };
  }));
  act.push(mix().map((e) => {
    const email = `${faker.person.firstName()}.${faker.person.lastName()}`.toLowerCase().replace(/[^a-z.]/g, '') + '@example.com';
    return {
      slug: `invite-${e.id}`, kind: 'action', instruction: `Invite ${email} to ${about(e)}.`,
      verifier: { state: [row('attendees', { event_id: e.id, email })] },
      oracle: [...open(e), step.type('Guest email', email), step.button('Invite guest'), step.done()],
    };
  }));
  act.push(invites.filter((i) => i.response === 'pending').map((i) => ({
    slug: `accept-${i.id}`, kind: 'action', instruction: `Accept the invitation to "${i.title}".`,
    verifier: { state: [row('invitations', { id: i.id }, { response: 'accepted' }), row('events', { title: i.title, date: i.date })] },
    oracle: [step.link('Invitations'), step.button(`Accept ${i.title}`), step.done()],
  })));
  act.push(['Book club', 'Side project', 'Garden', 'Volunteering', 'Kids activities', 'Travel plans'].filter((n) => !cals.some((c) => c.name === n)).map((name, i) => {
    const color = COLORS[(i + 4) % COLORS.length] ?? 'Gray';
    return {
      slug: `new-cal-${i}`, kind: 'action', instruction: `Create a new ${color.toLowerCase()} calendar called "${name}".`,
      verifier: { state: [row('calendars', { name }, { color })] },
      oracle: [step.link('Calendars'), step.type('Calendar name', name), step.select('Color', color), step.button('Create calendar'), step.done()],
    };
  }));
  act.push(cals.map((c) => ({
    slug: `filter-${c.id}`, kind: 'action', instruction: `Show me only the events in my ${c.name} calendar.`,
    verifier: { requests: [request('GET', href('/events'), { calendar: c.id })] },
    oracle: [step.link('Agenda'), step.select('Calendar', c.name), step.button('Apply'), step.done()],
  })));
  act.push([
    ...[1, -1, 2].map((delta) => {
      const month = addMonths(monthOf(site.today), delta);
      const link = delta < 0 ? 'Previous month' : 'Next month';
      return { slug: `month-${month}`, kind: 'action' as const, instruction: `Show my calendar for ${monthTitle(month)}.`,
        verifier: { requests: [request('GET', href('/month'), { month })] },
        oracle: [step.link('Month'), ...Array.from({ length: Math.abs(delta) }, () => step.link(link)), step.done()] };
    }),
    ...[1, 2, -1].map((delta) => {
      const first = addDays(weekStart(site.today), 7 * delta);
      return { slug: `week-${first}`, kind: 'action' as const, instruction: `Show my week starting ${longDate(first)}.`,
        verifier: { requests: [request('GET', href('/'), { week: first })] },
        oracle: [...Array.from({ length: Math.abs(delta) }, () => step.link(delta < 0 ? 'Previous week' : 'Next week')), step.done()] };
    }),
  ]);
  act.push(mix().map((e, i) => {
    const start = clock(Math.min(minutes(e.start) + [60, -60, 30][i % 3]!, 20 * 60));
    const end = clock(Math.min(minutes(start) + minutes(e.end) - minutes(e.start), 23 * 60 + 30));
    return start === e.start || end <= start ? [] : [{
      slug: `retime-${e.id}`, kind: 'action' as const, instruction: `Change ${about(e)} to run from ${start} to ${end}.`,
      verifier: { state: [row('events', { id: e.id }, { start, end })] },
      oracle: [...open(e), step.link('Edit event'), step.type('Start time', start), step.type('End time', end), step.button('Save changes'), step.done()],
    }];
  }).flat());
  act.push(faker.helpers.shuffle([...unique]).map((e) => {
    const title = `${e.title} (rescheduled)`;
    return {
      slug: `rename-${e.id}`, kind: 'action', instruction: `Rename the ${e.title} to "${title}".`,
      verifier: { state: [row('events', { id: e.id }, { title })] },
      oracle: [...open(e), step.link('Edit event'), step.type('Title', title), step.button('Save changes'), step.done()],
    };
  }));
  act.push(mix().flatMap((e) => attendees(db, e.id).slice(0, 1).map((g) => ({
    slug: `uninvite-${g.id}`, kind: 'action' as const, instruction: `Take ${g.name} off the guest list of ${about(e)}.`,
    verifier: { state: [noRow('attendees', { id: g.id })] }, oracle: [...open(e), step.button(`Remove ${g.name}`), step.done()],
  }))));
  act.push([
    ...invites.filter((i) => i.response === 'pending').map((i) => ({
      slug: `decline-${i.id}`, kind: 'action' as const, instruction: `Decline the invitation to "${i.title}".`,
      verifier: { state: [row('invitations', { id: i.id }, { response: 'declined' })] }, oracle: [step.link('Invitations'), step.button(`Decline ${i.title}`), step.done()],
    })),
    ...(me.week_start === 'monday' ? [{ slug: 'week-sunday', kind: 'action' as const, instruction: 'Make my calendar weeks start on Sunday.',
      verifier: { state: [row('settings', { id: 1 }, { week_start: 'sunday' })] }, oracle: [step.link('Settings'), step.select('Week starts on', 'Sunday'), step.button('Save settings'), step.done()] }] : []),
    ...[30, 45, 90].filter((m) => m !== me.default_length).map((m) => ({ slug: `length-${m}`, kind: 'action' as const, instruction: `Set my default event length to ${m} minutes.`,
      verifier: { state: [row('settings', { id: 1 }, { default_length: m })] }, oracle: [step.link('Settings'), step.select('Default event length', `${m} minutes`), step.button('Save settings'), step.done()] })),
  ]);
  const terms = [...new Set(events.map((e) => e.title.split(' ')[0] ?? ''))].filter((t) => t.length > 3);
  act.push(terms.map((t) => ({
    slug: `search-${t.toLowerCase().replace(/[^a-z0-9]+/g, '')}`, kind: 'action', instruction: `Find the events whose title mentions "${t}".`,
    verifier: { requests: [request('GET', href('/events'), { q: t })] }, oracle: [step.search(SEARCH, t), step.done()],
  })));

  const humanInfo = new Set([0, 1, 2, 3, 4, 5, 6]);
  const humanAct = new Set([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  const mark = (groups: TaskSpec[][], keep: Set<number>) => groups.map((g, i) => (keep.has(i) ? firstIsHuman(g) : g));
  return roundRobin([...mark(info, humanInfo), ...mark(act, humanAct)]);
}
