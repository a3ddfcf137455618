/** What the travel task generators share: the site's data, read once, and oracle step sequences. @module */
import type { Database } from 'better-sqlite3';
import type { OracleStep } from '../../oracle';
import { step } from '../../task-kit';
import type { SiteInfo } from '../../template';
import { addDays } from '../../values';
import { plural } from '../../layout';
import { flightLinkName } from './common';
import {
  airportText, airports, bookings, findFlights, findHotels, profile, roomsOf, routes, savedHotels,
  type AirportRow, type BookingRow, type FlightRow, type HotelRow, type ProfileRow, type RoomRow, type SavedRow,
} from './queries';

/** The search box's name. */
export const SEARCH = 'Search hotels';

/** The site's data as task generators need it. */
export interface TravelData {
  readonly site: SiteInfo;
  readonly airports: ReadonlyMap<string, AirportRow>;
  /** Every route flown. */
  readonly routes: ReadonlyArray<{ origin: string; destination: string }>;
  /** Flights after today, by route and date. */
  readonly flights: readonly FlightRow[];
  readonly hotels: readonly HotelRow[];
  readonly rooms: ReadonlyMap<number, readonly RoomRow[]>;
  readonly trips: readonly BookingRow[];
  readonly me: ProfileRow;
  readonly saved: readonly SavedRow[];
  /** Flights and hotels that already have a booking (tasks never book those again, so doing nothing fails). */
  readonly bookedFlights: ReadonlySet<number>;
  readonly bookedHotels: ReadonlySet<number>;
}

/** Reads what the generators need from the pristine data. */
export function loadData(db: Database, site: SiteInfo): TravelData {
  const list = routes(db);
  const tomorrow = addDays(site.today, 1);
  const flights = list.flatMap((r) => findFlights(db, { from: r.origin, to: r.destination, fromDate: tomorrow, sort: 'depart' }));
  const hotels = findHotels(db, { sort: 'price' });
  const trips = bookings(db, 'all', site.today);
  return {
    site,
    airports: new Map(airports(db).map((a) => [a.code, a])),
    routes: list,
    flights,
    hotels,
    rooms: new Map(hotels.map((h) => [h.id, roomsOf(db, h.id)])),
    trips,
    me: profile(db),
    saved: savedHotels(db),
    bookedFlights: new Set(trips.flatMap((b) => (b.flight_id === null ? [] : [b.flight_id]))),
    bookedHotels: new Set(trips.flatMap((b) => (b.hotel_id === null ? [] : [b.hotel_id]))),
  };
}

/** A city's name from its airport code. */
export function cityName(d: TravelData, code: string): string {
  return d.airports.get(code)?.name ?? code;
}

/** Fills the home page's flight search and submits it. */
export function searchFlights(d: TravelData, from: string, to: string, opts: { date?: string; passengers?: number } = {}): OracleStep[] {
  const text = (code: string): string => {
    const a = d.airports.get(code);
    return a ? airportText(a) : code;
  };
  return [
    step.select('From', text(from)),
    step.select('To', text(to)),
    ...(opts.date ? [step.type('Departure date', opts.date)] : []),
    ...(opts.passengers && opts.passengers > 1 ? [step.select('Passengers', plural(opts.passengers, 'passenger'))] : []),
    step.button('Search flights'),
  ];
}

/** From the home page to a flight's page. */
export function openFlight(d: TravelData, f: FlightRow): OracleStep[] {
  return [...searchFlights(d, f.origin, f.destination, { date: f.date }), step.link(flightLinkName(f))];
}

/** From the home page to a hotel's page. */
export function openHotel(h: HotelRow): OracleStep[] {
  return [step.search(SEARCH, h.name), step.link(h.name)];
}

/** From the home page to a trip's page. */
export function openTrip(d: TravelData, b: BookingRow): OracleStep[] {
  const upcoming = b.status === 'Confirmed' && b.date >= d.site.today;
  return [step.link('My trips'), ...(upcoming ? [] : [step.select('Show', 'All trips'), step.button('Show trips')]), step.link(b.ref)];
}

/** Flights of one route on one date, cheapest first. */
export function flightsOn(d: TravelData, origin: string, destination: string, date: string): FlightRow[] {
  return d.flights.filter((f) => f.origin === origin && f.destination === destination && f.date === date).sort((a, b) => a.price - b.price || a.id - b.id);
}

/** The one item with the smallest key, or `undefined` on a tie. */
export function uniqueMin<T>(list: readonly T[], key: (t: T) => number): T | undefined {
  const sorted = [...list].sort((a, b) => key(a) - key(b));
  const [a, b] = sorted;
  return a && (!b || key(b) > key(a)) ? a : undefined;
}

/** A hotel's name after "the" in a sentence: `the Copper Inn`, `The Grand Hotel` stays as it is. */
export function theHotel(name: string): string {
  return name.startsWith('The ') ? name : `the ${name}`;
}

/** A room type in a sentence: `Deluxe King room`, `Family Suite`. */
export function roomPhrase(name: string): string {
  return /room|suite/i.test(name) ? name : `${name} room`;
}

/** A slug part from any text: `New York` → `new-york`. */
export function slug(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
