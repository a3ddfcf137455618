/** The travel template's tables and seeded data. @module */
import type { Faker } from '@faker-js/faker';
import type { SeedInput, SeedResult } from '../../template';
import { addDays } from '../../values';
import { AMENITIES, HOTEL_FIRST, HOTEL_SECOND, ROOM_TYPES, THEMES, type TravelTheme } from './themes';
import { flightTotal, hotelTotal } from './pricing';

/**
 * The travel tables. Rows users change carry a `name` or `title` (bookings are keyed by their readable reference),
 * so change lines name their item.
 */
export const TRAVEL_SCHEMA = `
CREATE TABLE airports (code TEXT PRIMARY KEY, name TEXT NOT NULL, position INTEGER NOT NULL);
CREATE TABLE airlines (code TEXT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE flights (id INTEGER PRIMARY KEY, code TEXT NOT NULL, airline TEXT NOT NULL REFERENCES airlines(code),
  origin TEXT NOT NULL REFERENCES airports(code), destination TEXT NOT NULL REFERENCES airports(code), date TEXT NOT NULL,
  depart TEXT NOT NULL, arrive TEXT NOT NULL, duration INTEGER NOT NULL, stops INTEGER NOT NULL, via TEXT NOT NULL DEFAULT '',
  price REAL NOT NULL, seats_left INTEGER NOT NULL, UNIQUE (code, date));
CREATE TABLE hotels (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, city TEXT NOT NULL REFERENCES airports(code), area TEXT NOT NULL,
  address TEXT NOT NULL, stars INTEGER NOT NULL, rating REAL NOT NULL, reviews INTEGER NOT NULL, price REAL NOT NULL,
  amenities TEXT NOT NULL, description TEXT NOT NULL);
CREATE TABLE rooms (id INTEGER PRIMARY KEY, hotel_id INTEGER NOT NULL REFERENCES hotels(id), name TEXT NOT NULL, price REAL NOT NULL,
  sleeps INTEGER NOT NULL, UNIQUE (hotel_id, name));
CREATE TABLE saved_hotels (id INTEGER PRIMARY KEY, hotel_id INTEGER NOT NULL UNIQUE REFERENCES hotels(id), name TEXT NOT NULL, added TEXT NOT NULL);
CREATE TABLE checkouts (id INTEGER PRIMARY KEY, title TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('flight', 'hotel')),
  flight_id INTEGER REFERENCES flights(id), hotel_id INTEGER REFERENCES hotels(id), room TEXT NOT NULL DEFAULT '', fare TEXT NOT NULL DEFAULT '',
  date TEXT NOT NULL, nights INTEGER NOT NULL DEFAULT 0, travellers INTEGER NOT NULL, names TEXT NOT NULL DEFAULT '', email TEXT NOT NULL DEFAULT '',
  phone TEXT NOT NULL DEFAULT '', seat TEXT NOT NULL DEFAULT 'any', bags INTEGER NOT NULL DEFAULT 0, meal TEXT NOT NULL DEFAULT 'standard',
  insurance INTEGER NOT NULL DEFAULT 0, breakfast INTEGER NOT NULL DEFAULT 0, late_checkout INTEGER NOT NULL DEFAULT 0,
  requests TEXT NOT NULL DEFAULT '', step TEXT NOT NULL DEFAULT 'travellers');
CREATE TABLE bookings (ref TEXT PRIMARY KEY, title TEXT NOT NULL, kind TEXT NOT NULL, flight_id INTEGER REFERENCES flights(id),
  hotel_id INTEGER REFERENCES hotels(id), room TEXT NOT NULL DEFAULT '', fare TEXT NOT NULL DEFAULT '', date TEXT NOT NULL,
  nights INTEGER NOT NULL DEFAULT 0, travellers INTEGER NOT NULL, lead_name TEXT NOT NULL, email TEXT NOT NULL, phone TEXT NOT NULL,
  seat TEXT NOT NULL DEFAULT 'any', bags INTEGER NOT NULL DEFAULT 0, meal TEXT NOT NULL DEFAULT 'standard', insurance INTEGER NOT NULL DEFAULT 0,
  breakfast INTEGER NOT NULL DEFAULT 0, late_checkout INTEGER NOT NULL DEFAULT 0, requests TEXT NOT NULL DEFAULT '',
  total REAL NOT NULL, status TEXT NOT NULL, booked TEXT NOT NULL);
CREATE TABLE travellers (id INTEGER PRIMARY KEY, booking_ref TEXT NOT NULL REFERENCES bookings(ref), name TEXT NOT NULL);
CREATE TABLE profile (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, phone TEXT NOT NULL, birth_date TEXT NOT NULL,
  passport TEXT NOT NULL, home_airport TEXT NOT NULL, seat TEXT NOT NULL, loyalty TEXT NOT NULL, newsletter INTEGER NOT NULL);
`;

/** The first and last day flights are scheduled (relative to today, 2026-03-16); earlier ones are past trips. */
export const FLIGHT_DAYS = { before: 7, after: 13 } as const;

const HHMM = (minutes: number): string => `${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

interface Schedule {
  code: string;
  airline: string;
  origin: string;
  destination: string;
  depart: number;
  duration: number;
  stops: number;
  via: string;
  price: number;
}

function schedules(faker: Faker, theme: TravelTheme): Schedule[] {
  const codes = theme.cities.map((c) => c.code);
  const pairs = new Set<string>();
  for (const c of codes.slice(1)) pairs.add(`${codes[0]}-${c}`);
  while (pairs.size < 10) {
    const [a, b] = faker.helpers.arrayElements(codes.slice(1), 2) as [string, string];
    if (!pairs.has(`${b}-${a}`)) pairs.add(`${a}-${b}`);
  }
  const used = new Set<string>();
  const out: Schedule[] = [];
  for (const pair of pairs) {
    const [a, b] = pair.split('-') as [string, string];
    const base = faker.number.int({ min: 65, max: 320 });
    for (const [origin, destination] of [[a, b], [b, a]] as const) {
      const n = faker.number.int({ min: 4, max: 6 });
      for (let i = 0; i < n; i++) {
        const airline = faker.helpers.arrayElement(theme.airlines);
        let code = '';
        while (!code || used.has(code)) code = `${airline.code}${faker.number.int({ min: 100, max: 2999 })}`;
        used.add(code);
        const stops = faker.helpers.weightedArrayElement([{ weight: 6, value: 0 }, { weight: 3, value: 1 }, { weight: 1, value: 2 }]);
        const hubs = codes.filter((c) => c !== origin && c !== destination);
        const via = faker.helpers.arrayElements(hubs, stops).join(', ');
        const duration = base + stops * faker.number.int({ min: 55, max: 140 }) + faker.number.int({ min: 0, max: 25 });
        const depart = faker.number.int({ min: 6 * 12, max: 21 * 12 }) * 5;
        const price = Math.round((base * 0.9 + 40) * (stops ? 0.8 : 1) * faker.number.float({ min: 0.85, max: 1.3 }));
        out.push({ code, airline: airline.code, origin, destination, depart, duration, stops, via, price });
      }
    }
  }
  return out;
}

function hotelName(faker: Faker, names: Set<string>): string {
  let base = '';
  for (let tries = 0; tries < 50 && (!base || names.has(base)); tries++) base = `${faker.helpers.arrayElement(HOTEL_FIRST)} ${faker.helpers.arrayElement(HOTEL_SECOND)}`;
  names.add(base);
  return faker.number.int({ min: 0, max: 3 }) === 0 ? `The ${base}` : base;
}

function seedHotels(db: SeedInput['db'], faker: Faker, theme: TravelTheme): void {
  const addHotel = db.prepare(`INSERT INTO hotels (name, city, area, address, stars, rating, reviews, price, amenities, description)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const addRoom = db.prepare('INSERT INTO rooms (hotel_id, name, price, sleeps) VALUES (?, ?, ?, ?)');
  const names = new Set<string>();
  for (const city of theme.cities) {
    const n = faker.number.int({ min: 7, max: 10 });
    for (let i = 0; i < n; i++) {
      const name = hotelName(faker, names);
      const stars = faker.helpers.weightedArrayElement([{ weight: 1, value: 2 }, { weight: 3, value: 3 }, { weight: 3, value: 4 }, { weight: 1, value: 5 }]);
      const base = Math.round(faker.number.int({ min: 45, max: 90 }) * (0.6 + stars * 0.35));
      const amenities = AMENITIES.filter((a) => a === 'Free WiFi' || faker.number.int({ min: 0, max: 9 }) < 2 + stars);
      const area = faker.helpers.arrayElement(theme.areas);
      const rooms = faker.helpers.arrayElements(ROOM_TYPES, { min: 2, max: 4 }).sort((x, y) => x.factor - y.factor);
      const prices = rooms.map((r) => Math.round(base * r.factor));
      const description = `${name} is a ${stars}-star ${faker.helpers.arrayElement(['hotel', 'stay', 'retreat'])} in the ${area} area of ${city.name}, ${faker.helpers.arrayElement(['steps from the best restaurants', 'close to public transport', 'with sweeping city views', 'in a restored historic building', 'a short walk from the main sights'])}.`;
      const id = Number(addHotel.run(name, city.code, area, `${faker.location.buildingNumber()} ${faker.location.street()}, ${city.name}`, stars,
        faker.number.float({ min: 6.2, max: 9.7, fractionDigits: 1 }), faker.number.int({ min: 12, max: 2400 }), Math.min(...prices),
        amenities.join(', '), description).lastInsertRowid);
      rooms.forEach((r, k) => addRoom.run(id, r.name, prices[k], r.sleeps));
    }
  }
}

/** Fills an agency: airports, airlines, daily flights for three weeks, hotels with rooms, bookings, saved hotels, the profile. */
export function seedTravel({ db, faker, variant, today }: SeedInput): SeedResult {
  const theme = THEMES[(variant - 1) % THEMES.length] ?? (THEMES[0] as TravelTheme);
  const addAirport = db.prepare('INSERT INTO airports (code, name, position) VALUES (?, ?, ?)');
  theme.cities.forEach((c, i) => addAirport.run(c.code, c.name, i));
  const addAirline = db.prepare('INSERT INTO airlines (code, name) VALUES (?, ?)');
  for (const a of theme.airlines) addAirline.run(a.code, a.name);

  const addFlight = db.prepare(`INSERT INTO flights (code, airline, origin, destination, date, depart, arrive, duration, stops, via, price, seats_left)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  for (const s of schedules(faker, theme)) {
    for (let d = -FLIGHT_DAYS.before; d <= FLIGHT_DAYS.after; d++) {
      const price = Math.round(s.price * faker.number.float({ min: 0.8, max: 1.35 }));
      addFlight.run(s.code, s.airline, s.origin, s.destination, addDays(today, d), HHMM(s.depart), HHMM(s.depart + s.duration), s.duration,
        s.stops, s.via, price, faker.number.int({ min: 1, max: 48 }));
    }
  }
  seedHotels(db, faker, theme);

  const first = faker.person.firstName();
  const last = faker.person.lastName();
  const me = {
    name: `${first} ${last}`,
    email: faker.internet.email({ firstName: first, lastName: last, provider: 'example.com' }).toLowerCase(),
    phone: faker.helpers.replaceSymbols('(###) 555-####'),
  };
  db.prepare(`INSERT INTO profile (id, name, email, phone, birth_date, passport, home_airport, seat, loyalty, newsletter)
    VALUES (1, ?, ?, ?, ?, ?, ?, 'window', ?, 1)`).run(me.name, me.email, me.phone,
    faker.date.birthdate({ min: 25, max: 60, mode: 'age' }).toISOString().slice(0, 10),
    faker.helpers.replaceSymbols('?########').toUpperCase(), theme.cities[0]?.code ?? '', `${theme.prefix} ${faker.string.numeric(4)} ${faker.string.numeric(4)}`);

  const refs = new Set<string>();
  const newRef = (): string => {
    let ref = '';
    while (!ref || refs.has(ref)) ref = `${theme.prefix}-${faker.string.alphanumeric({ length: 6, casing: 'upper' })}`;
    refs.add(ref);
    return ref;
  };
  const addBooking = db.prepare(`INSERT INTO bookings (ref, title, kind, flight_id, hotel_id, room, fare, date, nights, travellers, lead_name, email, phone,
    seat, bags, meal, insurance, breakfast, late_checkout, total, status, booked) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const addTraveller = db.prepare('INSERT INTO travellers (booking_ref, name) VALUES (?, ?)');
  const cityName = (code: string): string => theme.cities.find((c) => c.code === code)?.name ?? code;
  const flightPlan: Array<[number, string]> = [[-5, 'Completed'], [2, 'Confirmed'], [6, 'Confirmed'], [9, 'Confirmed'], [11, 'Cancelled']];
  for (const [offset, status] of flightPlan) {
    const f = db.prepare('SELECT * FROM flights WHERE date = ? AND (origin = ? OR destination = ?) ORDER BY id LIMIT 1 OFFSET ?')
      .get(addDays(today, offset), theme.cities[0]?.code, theme.cities[0]?.code, faker.number.int({ min: 0, max: 20 })) as
      { id: number; code: string; origin: string; destination: string; date: string; price: number } | undefined;
    if (!f) continue;
    const ref = newRef();
    const travellers = faker.number.int({ min: 1, max: 3 });
    const fare = faker.helpers.arrayElement(['economy', 'economy', 'premium', 'business']);
    const bags = faker.number.int({ min: 0, max: 2 });
    const insurance = faker.number.int({ min: 0, max: 1 });
    addBooking.run(ref, `${f.code} ${cityName(f.origin)} to ${cityName(f.destination)}`, 'flight', f.id, null, '', fare, f.date, 0, travellers,
      me.name, me.email, me.phone, faker.helpers.arrayElement(['any', 'window', 'aisle']), bags, faker.helpers.arrayElement(['standard', 'vegetarian']),
      insurance, 0, 0, flightTotal({ price: f.price, fare, travellers, bags, insurance }), status, addDays(today, offset - faker.number.int({ min: 10, max: 40 })));
    addTraveller.run(ref, me.name);
    for (let t = 1; t < travellers; t++) addTraveller.run(ref, `${faker.person.firstName()} ${t === 1 ? last : faker.person.lastName()}`);
  }
  const hotelPlan: Array<[number, string]> = [[-9, 'Completed'], [4, 'Confirmed'], [12, 'Confirmed']];
  for (const [offset, status] of hotelPlan) {
    const h = db.prepare('SELECT h.id, h.name, h.city, r.name AS room, r.price FROM hotels h JOIN rooms r ON r.hotel_id = h.id WHERE h.city != ? ORDER BY h.id, r.id LIMIT 1 OFFSET ?')
      .get(theme.cities[0]?.code, faker.number.int({ min: 0, max: 150 })) as { id: number; name: string; city: string; room: string; price: number } | undefined;
    if (!h) continue;
    const ref = newRef();
    const nights = faker.number.int({ min: 2, max: 5 });
    const travellers = faker.number.int({ min: 1, max: 2 });
    const breakfast = faker.number.int({ min: 0, max: 1 });
    addBooking.run(ref, `${h.name}, ${cityName(h.city)}`, 'hotel', null, h.id, h.room, '', addDays(today, offset), nights, travellers, me.name, me.email, me.phone,
      'any', 0, 'standard', 0, breakfast, 0, hotelTotal({ price: h.price, nights, travellers, breakfast, late_checkout: 0 }), status,
      addDays(today, offset - faker.number.int({ min: 8, max: 30 })));
    addTraveller.run(ref, me.name);
  }
  const addSaved = db.prepare('INSERT INTO saved_hotels (hotel_id, name, added) VALUES (?, ?, ?)');
  const hotels = db.prepare('SELECT id, name FROM hotels ORDER BY id').all() as Array<{ id: number; name: string }>;
  for (const h of faker.helpers.arrayElements(hotels, 3)) addSaved.run(h.id, h.name, addDays(today, -faker.number.int({ min: 1, max: 40 })));
  return { title: theme.title };
}
