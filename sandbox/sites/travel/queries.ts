/** The travel template's reads, shared by its pages and its task generators. @module */
import type { Database } from 'better-sqlite3';

/** An airport (its city's name). */
export interface AirportRow {
  code: string;
  name: string;
}

/** Every airport in display order. */
export function airports(db: Database): AirportRow[] {
  return db.prepare('SELECT code, name FROM airports ORDER BY position').all() as AirportRow[];
}

/** `Boston (BOS)` */
export function airportText(a: AirportRow): string {
  return `${a.name} (${a.code})`;
}

/** An airline. */
export interface AirlineRow {
  code: string;
  name: string;
}

/** Every airline by name. */
export function airlines(db: Database): AirlineRow[] {
  return db.prepare('SELECT code, name FROM airlines ORDER BY name').all() as AirlineRow[];
}

/** A flight on a date, with its airline's and cities' names. */
export interface FlightRow {
  id: number;
  code: string;
  airline: string;
  airline_name: string;
  origin: string;
  origin_name: string;
  destination: string;
  destination_name: string;
  date: string;
  depart: string;
  arrive: string;
  duration: number;
  stops: number;
  via: string;
  price: number;
  seats_left: number;
}

/** Sort orders of flight results: value, label, SQL. */
export const FLIGHT_SORTS = [
  { value: 'price', text: 'Price: low to high', sql: 'f.price, f.date, f.depart, f.id' },
  { value: 'price_desc', text: 'Price: high to low', sql: 'f.price DESC, f.date, f.depart, f.id' },
  { value: 'duration', text: 'Duration: shortest first', sql: 'f.duration, f.price, f.id' },
  { value: 'depart', text: 'Departure: earliest first', sql: 'f.date, f.depart, f.id' },
  { value: 'depart_desc', text: 'Departure: latest first', sql: 'f.date DESC, f.depart DESC, f.id' },
] as const;

/** Stops filters: value (`''` any), label, the most stops. */
export const STOP_FILTERS = [
  { value: '', text: 'Any number of stops', max: 9 },
  { value: '0', text: 'Nonstop only', max: 0 },
  { value: '1', text: '1 stop or fewer', max: 1 },
] as const;

const FLIGHT_SELECT = `SELECT f.*, al.name AS airline_name, o.name AS origin_name, d.name AS destination_name
  FROM flights f JOIN airlines al ON al.code = f.airline JOIN airports o ON o.code = f.origin JOIN airports d ON d.code = f.destination`;

/** A flight search: route, optional date (else every date from `fromDate` on), filters and order. */
export interface FlightQuery {
  from: string;
  to: string;
  date?: string;
  /** With no `date`: the first date listed (today). */
  fromDate?: string;
  maxStops?: number;
  airline?: string;
  maxPrice?: number;
  sort?: string;
}

/** Flights matching a search, sorted. */
export function findFlights(db: Database, q: FlightQuery): FlightRow[] {
  const where = ['f.origin = ?', 'f.destination = ?'];
  const args: Array<string | number> = [q.from, q.to];
  if (q.date) {
    where.push('f.date = ?');
    args.push(q.date);
  } else if (q.fromDate) {
    where.push('f.date >= ?');
    args.push(q.fromDate);
  }
  if (q.maxStops !== undefined) {
    where.push('f.stops <= ?');
    args.push(q.maxStops);
  }
  if (q.airline) {
    where.push('f.airline = ?');
    args.push(q.airline);
  }
  if (q.maxPrice !== undefined) {
    where.push('f.price <= ?');
    args.push(q.maxPrice);
  }
  const sort = FLIGHT_SORTS.find((s) => s.value === q.sort) ?? FLIGHT_SORTS[0];
  return db.prepare(`${FLIGHT_SELECT} WHERE ${where.join(' AND ')} ORDER BY ${sort.sql}`).all(...args) as FlightRow[];
}

/** One flight, or `undefined`. */
export function getFlight(db: Database, id: number): FlightRow | undefined {
  return db.prepare(`${FLIGHT_SELECT} WHERE f.id = ?`).get(id) as FlightRow | undefined;
}

/** The same flight number on every date from `fromDate` on, by date. */
export function flightDates(db: Database, code: string, fromDate: string): FlightRow[] {
  return db.prepare(`${FLIGHT_SELECT} WHERE f.code = ? AND f.date >= ? ORDER BY f.date`).all(code, fromDate) as FlightRow[];
}

/** The routes flown (origin, destination), by origin. */
export function routes(db: Database): Array<{ origin: string; destination: string }> {
  return db.prepare(`SELECT DISTINCT f.origin, f.destination FROM flights f JOIN airports o ON o.code = f.origin JOIN airports d ON d.code = f.destination
    ORDER BY o.position, d.position`).all() as Array<{ origin: string; destination: string }>;
}

/** A hotel with its city's name. */
export interface HotelRow {
  id: number;
  name: string;
  city: string;
  city_name: string;
  area: string;
  address: string;
  stars: number;
  rating: number;
  reviews: number;
  price: number;
  amenities: string;
  description: string;
}

/** Sort orders of hotel results. */
export const HOTEL_SORTS = [
  { value: 'recommended', text: 'Recommended', sql: 'h.rating * h.stars DESC, h.id' },
  { value: 'price', text: 'Price: low to high', sql: 'h.price, h.id' },
  { value: 'price_desc', text: 'Price: high to low', sql: 'h.price DESC, h.id' },
  { value: 'rating', text: 'Guest rating', sql: 'h.rating DESC, h.reviews DESC, h.id' },
  { value: 'stars', text: 'Stars', sql: 'h.stars DESC, h.rating DESC, h.id' },
] as const;

/** A hotel search. */
export interface HotelQuery {
  q?: string;
  city?: string;
  minStars?: number;
  maxPrice?: number;
  amenity?: string;
  sort?: string;
}

const HOTEL_SELECT = 'SELECT h.*, a.name AS city_name FROM hotels h JOIN airports a ON a.code = h.city';

/** Hotels matching a search, sorted. */
export function findHotels(db: Database, q: HotelQuery): HotelRow[] {
  const where: string[] = [];
  const args: Array<string | number> = [];
  if (q.q) {
    const like = `%${q.q.replace(/[%_]/g, '')}%`;
    where.push('(h.name LIKE ? OR a.name LIKE ? OR h.area LIKE ?)');
    args.push(like, like, like);
  }
  if (q.city) {
    where.push('h.city = ?');
    args.push(q.city);
  }
  if (q.minStars !== undefined) {
    where.push('h.stars >= ?');
    args.push(q.minStars);
  }
  if (q.maxPrice !== undefined) {
    where.push('h.price <= ?');
    args.push(q.maxPrice);
  }
  if (q.amenity) {
    where.push("(', ' || h.amenities || ', ') LIKE ?");
    args.push(`%, ${q.amenity}, %`);
  }
  const sort = HOTEL_SORTS.find((s) => s.value === q.sort) ?? HOTEL_SORTS[0];
  return db.prepare(`${HOTEL_SELECT}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${sort.sql}`).all(...args) as HotelRow[];
}

/** One hotel, or `undefined`. */
export function getHotel(db: Database, id: number): HotelRow | undefined {
  return db.prepare(`${HOTEL_SELECT} WHERE h.id = ?`).get(id) as HotelRow | undefined;
}

/** A room type of a hotel. */
export interface RoomRow {
  id: number;
  hotel_id: number;
  name: string;
  price: number;
  sleeps: number;
}

/** A hotel's rooms, cheapest first. */
export function roomsOf(db: Database, hotelId: number): RoomRow[] {
  return db.prepare('SELECT * FROM rooms WHERE hotel_id = ? ORDER BY price, id').all(hotelId) as RoomRow[];
}

/** A saved hotel. */
export interface SavedRow {
  id: number;
  hotel_id: number;
  name: string;
  added: string;
}

/** The saved hotels, most recently saved first. */
export function savedHotels(db: Database): SavedRow[] {
  return db.prepare('SELECT * FROM saved_hotels ORDER BY added DESC, id DESC').all() as SavedRow[];
}

/** A booking. */
export interface BookingRow {
  ref: string;
  title: string;
  kind: 'flight' | 'hotel';
  flight_id: number | null;
  hotel_id: number | null;
  room: string;
  fare: string;
  date: string;
  nights: number;
  travellers: number;
  lead_name: string;
  email: string;
  phone: string;
  seat: string;
  bags: number;
  meal: string;
  insurance: number;
  breakfast: number;
  late_checkout: number;
  requests: string;
  total: number;
  status: string;
  booked: string;
}

/** Trip lists: value, label. */
export const TRIP_VIEWS = [
  { value: '', text: 'Upcoming trips' },
  { value: 'past', text: 'Past trips' },
  { value: 'cancelled', text: 'Cancelled trips' },
  { value: 'all', text: 'All trips' },
] as const;

/** Bookings of a trip list (see {@link TRIP_VIEWS}), soonest first (past ones latest first). */
export function bookings(db: Database, view: string, today: string): BookingRow[] {
  if (view === 'past') return db.prepare("SELECT * FROM bookings WHERE status != 'Cancelled' AND date < ? ORDER BY date DESC").all(today) as BookingRow[];
  if (view === 'cancelled') return db.prepare("SELECT * FROM bookings WHERE status = 'Cancelled' ORDER BY date").all() as BookingRow[];
  if (view === 'all') return db.prepare('SELECT * FROM bookings ORDER BY date').all() as BookingRow[];
  return db.prepare("SELECT * FROM bookings WHERE status = 'Confirmed' AND date >= ? ORDER BY date").all(today) as BookingRow[];
}

/** One booking by reference (case-insensitive), or `undefined`. */
export function getBooking(db: Database, ref: string): BookingRow | undefined {
  return db.prepare('SELECT * FROM bookings WHERE ref = ? COLLATE NOCASE').get(ref) as BookingRow | undefined;
}

/** The names of a booking's travellers, lead first. */
export function travellersOf(db: Database, ref: string): string[] {
  return (db.prepare('SELECT name FROM travellers WHERE booking_ref = ? ORDER BY id').all(ref) as Array<{ name: string }>).map((r) => r.name);
}

/** A booking in progress (the multi-step checkout). */
export type CheckoutRow = Omit<BookingRow, 'ref' | 'lead_name' | 'total' | 'status' | 'booked'> & { id: number; names: string; step: string };

/** One checkout, or `undefined`. */
export function getCheckout(db: Database, id: number): CheckoutRow | undefined {
  return db.prepare('SELECT * FROM checkouts WHERE id = ?').get(id) as CheckoutRow | undefined;
}

/** The traveller's profile. */
export interface ProfileRow {
  name: string;
  email: string;
  phone: string;
  birth_date: string;
  passport: string;
  home_airport: string;
  seat: string;
  loyalty: string;
  newsletter: number;
}

/** The traveller's profile. */
export function profile(db: Database): ProfileRow {
  return db.prepare('SELECT * FROM profile WHERE id = 1').get() as ProfileRow;
}
