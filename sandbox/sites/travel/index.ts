/**
 * The travel booking template: flight search with filters, sort and pages; hotel search; flight and hotel details; a
 * multi-step booking flow; trips (date change, cancellation); saved hotels; the traveller profile; a JSON API.
 * @module
 */
import type { SiteTemplate } from '../../template';
import { checkoutRoutes } from './checkout-pages';
import { flightRoutes } from './flight-pages';
import { hotelRoutes } from './hotel-pages';
import { TRAVEL_SCHEMA, seedTravel } from './seed';
import { travelTasks } from './tasks';
import { tripRoutes } from './trip-pages';

/** A travel booking site (one agency and region per variant). */
export const travel: SiteTemplate = {
  id: 'travel',
  kind: 'travel booking',
  schema: TRAVEL_SCHEMA,
  seed: seedTravel,
  nav: [
    { label: 'Flights', path: '/flights' },
    { label: 'Hotels', path: '/hotels' },
    { label: 'Destinations', path: '/destinations' },
    { label: 'My trips', path: '/trips' },
    { label: 'Saved hotels', path: '/saved' },
    { label: 'Profile', path: '/profile' },
  ],
  search: { action: '/hotels', param: 'q', label: 'Search hotels' },
  routes(router) {
    flightRoutes(router);
    hotelRoutes(router);
    checkoutRoutes(router);
    tripRoutes(router);
  },
  tasks: travelTasks,
  consequences: [
    // A booking goes through a checkout (created, stepped through, closed) and names its travellers.
    { when: { table: 'bookings', op: 'create' }, allow: [{ table: 'checkouts', op: 'create' }, { table: 'checkouts', op: 'update' }, { table: 'checkouts', op: 'delete' }, { table: 'travellers', op: 'create', pin: { booking_ref: 'ref' } }] },
    // A moved or changed booking is priced again.
    { when: { table: 'bookings', op: 'update' }, allow: [{ table: 'bookings', op: 'update', fields: ['total'] }] },
  ],
};
