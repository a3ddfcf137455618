/** The calendar template's views: the week, the month and the searchable agenda. @module */
import { html, type SafeHtml } from '../../html';
import { idOf, pageNumber, pager, paginate, selectField, submit, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { addDays, isDate } from '../../values';
import { addMonths, isMonth, longDate, monthOf, monthTitle, shortDay, weekStart, weekday } from './dates';
import { EVENT_SORTS, calendars, eventLabel, findEvents, settings, type EventRow } from './queries';

/** Events per agenda page. */
export const AGENDA_PAGE = 20;

function eventLink(ctx: RequestCtx, e: EventRow): SafeHtml {
  return html`<a href="${ctx.href(`/events/${e.id}`)}" aria-label="${eventLabel(e)}">${e.start} ${e.title}</a>`;
}

function weekView(ctx: RequestCtx): Reply {
  const raw = ctx.q('week');
  if (raw && !isDate(raw)) return ctx.badRequest('The week must be a date like 2026-03-16.');
  const first = weekStart(raw || ctx.site.today, settings(ctx.db).week_start === 'sunday' ? 0 : 1);
  const days = Array.from({ length: 7 }, (_, i) => addDays(first, i));
  const events = findEvents(ctx.db, { from: days[0], to: days[6] });
  const cols = days.map((d) => {
    const list = events.filter((e) => e.date === d);
    return html`<td><div class="muted">${d}</div>${list.length ? list.map((e) => html`<div>${eventLink(ctx, e)}</div>`) : html`<div class="muted">No events</div>`}</td>`;
  });
  return ctx.render({
    title: `Week of ${longDate(first)}`,
    body: html`<div class="row"><a href="${ctx.href('/', { week: addDays(first, -7) })}">Previous week</a>
<a href="${ctx.href('/')}">This week</a> <a href="${ctx.href('/', { week: addDays(first, 7) })}">Next week</a></div>
<p>${events.length} event${events.length === 1 ? '' : 's'} this week · Today is ${longDate(ctx.site.today)}</p>
<table style="table-layout:fixed"><thead><tr>${days.map((d) => html`<th>${shortDay(d)}${d === ctx.site.today ? ' (today)' : ''}</th>`)}</tr></thead><tbody><tr>${cols}</tr></tbody></table>`,
  });
}

function monthView(ctx: RequestCtx): Reply {
  const month = ctx.q('month') || monthOf(ctx.site.today);
  if (!isMonth(month)) return ctx.badRequest('The month must look like 2026-03.');
  const start = settings(ctx.db).week_start === 'sunday' ? 0 : 1;
  const first = weekStart(`${month}-01`, start);
  const last = addDays(`${addMonths(month, 1)}-01`, -1);
  const events = findEvents(ctx.db, { from: `${month}-01`, to: last });
  const weeks: SafeHtml[] = [];
  for (let w = first; w <= last; w = addDays(w, 7)) {
    weeks.push(html`<tr>${Array.from({ length: 7 }, (_, i) => {
      const d = addDays(w, i);
      if (monthOf(d) !== month) return html`<td class="muted"></td>`;
      return html`<td><div class="muted">${Number(d.slice(8))}</div>${events.filter((e) => e.date === d).map((e) => html`<div>${eventLink(ctx, e)}</div>`)}</td>`;
    })}</tr>`);
  }
  const names = Array.from({ length: 7 }, (_, i) => shortDay(addDays(first, i)).slice(0, 3));
  return ctx.render({
    title: monthTitle(month),
    body: html`<div class="row"><a href="${ctx.href('/month', { month: addMonths(month, -1) })}">Previous month</a>
<a href="${ctx.href('/month')}">This month</a> <a href="${ctx.href('/month', { month: addMonths(month, 1) })}">Next month</a></div>
<p>${events.length} event${events.length === 1 ? '' : 's'} in ${monthTitle(month)}</p>
<table><thead><tr>${names.map((n) => html`<th>${n}</th>`)}</tr></thead><tbody>${weeks}</tbody></table>`,
  });
}

function agenda(ctx: RequestCtx): Reply {
  const cals = calendars(ctx.db);
  const q = ctx.q('q');
  const calRaw = ctx.q('calendar');
  const from = ctx.q('from');
  const to = ctx.q('to');
  const sort = ctx.q('sort') || 'date';
  const page = pageNumber(ctx.q('page'));
  if (page === undefined) return ctx.badRequest('The page number must be a positive whole number.');
  const calendar = calRaw ? idOf(calRaw) : undefined;
  if (calRaw && !cals.some((c) => c.id === calendar)) return ctx.notFound(`There is no calendar "${calRaw}".`);
  for (const [name, v] of [['From', from], ['To', to]] as const) if (v && !isDate(v)) return ctx.badRequest(`${name} must be a date like 2026-03-16.`);
  if (!EVENT_SORTS.some((s) => s.value === sort)) return ctx.badRequest(`"${sort}" is not a sort order.`);
  const all = findEvents(ctx.db, { q, calendar, from, to, sort });
  const paged = paginate(all, page, AGENDA_PAGE);
  if (!paged) return ctx.notFound(`There is no page ${page} of these events.`);
  const { items: shown, pages, first: n } = paged;
  const query = { q, calendar: calRaw, from, to, sort: sort === 'date' ? '' : sort };
  return ctx.render({
    title: q ? `Events matching "${q}"` : 'Agenda',
    body: html`<form method="get" action="${ctx.href('/events')}" class="row" aria-label="Filter events">${q ? html`<input type="hidden" name="q" value="${q}">` : ''}
${selectField({ label: 'Calendar', name: 'calendar', value: calRaw, options: [{ value: '', text: 'All calendars' }, ...cals.map((c) => ({ value: String(c.id), text: c.name }))] })}
${textField({ label: 'From', name: 'from', type: 'date', value: from })}${textField({ label: 'To', name: 'to', type: 'date', value: to })}
${selectField({ label: 'Sort by', name: 'sort', value: sort, options: EVENT_SORTS })}
${submit('Apply')}</form>
<p>${all.length ? `Showing ${n}–${n + shown.length - 1} of ${all.length} events` : 'No events match.'}</p>
${shown.length ? html`<table><thead><tr><th>Date</th><th>Time</th><th>Event</th><th>Calendar</th><th>Location</th></tr></thead><tbody>${shown.map(
  (e) => html`<tr><td>${e.date} (${longDate(e.date).split(',')[0]})</td><td>${e.start}–${e.end}</td><td>${eventLink(ctx, e)}</td><td>${e.calendar}</td><td>${e.location}</td></tr>`,
)}</tbody></table>` : ''}
${pager({ page, pages, href: (p) => ctx.href('/events', { ...query, page: p === 1 ? '' : p }) })}`,
  });
}

/** Registers the views. */
export function viewRoutes(r: Router<Handler>): void {
  r.get('/', weekView);
  r.get('/month', monthView);
  r.get('/events', agenda);
  r.get('/api/events', (ctx) => {
    const from = ctx.q('from');
    const to = ctx.q('to');
    if ((from && !isDate(from)) || (to && !isDate(to))) return ctx.json({ error: 'from and to must be dates like 2026-03-16' }, 400);
    return ctx.json(findEvents(ctx.db, { from, to, q: ctx.q('q') }).map((e) => ({ ...e, weekday: weekday(e.date) })));
  });
}
