/** The calendar template: week and month views, a searchable agenda, events with guests, invitations, calendars, settings. @module */
import type { SiteTemplate } from '../../template';
import { eventRoutes } from './event-pages';
import { otherRoutes } from './other-pages';
import { CALENDAR_SCHEMA, seedCalendar } from './seed';
import { calendarTasks } from './tasks';
import { viewRoutes } from './view-pages';

/** A personal calendar (one app name and persona per variant). */
export const calendar: SiteTemplate = {
  id: 'calendar',
  kind: 'calendar',
  schema: CALENDAR_SCHEMA,
  seed: seedCalendar,
  nav: [
    { label: 'Week', path: '/' },
    { label: 'Month', path: '/month' },
    { label: 'Agenda', path: '/events' },
    { label: 'New event', path: '/events/new' },
    { label: 'Invitations', path: '/invitations' },
    { label: 'Calendars', path: '/calendars' },
    { label: 'Settings', path: '/settings' },
  ],
  search: { action: '/events', param: 'q', label: 'Search events' },
  routes(router) {
    eventRoutes(router);
    viewRoutes(router);
    otherRoutes(router);
  },
  tasks: calendarTasks,
  consequences: [
    // A deleted event takes its guest list with it.
    { when: { table: 'events', op: 'delete' }, allow: [{ table: 'attendees', op: 'delete' }] },
  ],
};
