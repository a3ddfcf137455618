/** The travel template's action tasks: searches and filters, saving hotels, bookings, trip changes, the profile. @module */
import type { Faker } from '@faker-js/faker';
import type { OracleStep } from '../../oracle';
import { noRow, request, row, step } from '../../task-kit';
import type { TaskInput, TaskSpec } from '../../template';
import { addDays } from '../../values';
import { plural } from '../../layout';
import { bagsText, travellerLabel } from './checkout-pages';
import { themeOf } from './common';
import { STAR_FILTERS } from './hotel-pages';
import { FARES, MEALS, SEATS } from './pricing';
import { FLIGHT_SORTS, HOTEL_SORTS, airportText, flightDates } from './queries';
import { AMENITIES, HOTEL_FIRST } from './themes';
import { FLIGHT_PAGE_SIZE } from './flight-pages';
import { cityName, openFlight, openHotel, openTrip, roomPhrase, searchFlights, slug, theHotel, type TravelData } from './task-steps';

const textOf = (list: ReadonlyArray<{ value: string; text: string }>, value: string): string => list.find((s) => s.value === value)?.text ?? value;

function searchTasks(d: TravelData, faker: Faker, href: TaskInput['href']): TaskSpec[][] {
  const city = (code: string): string => cityName(d, code);
  const days = [...new Set(d.flights.map((f) => f.date))];
  const routes = faker.helpers.shuffle([...d.routes]);
  const groups: TaskSpec[][] = [];
  groups.push(routes.map((r, i) => {
    const date = days[(i * 5) % days.length] ?? d.site.today;
    const n = 1 + (i % 4);
    return {
      slug: `search-${r.origin}-${r.destination}-${date}`, kind: 'action',
      instruction: `Find flights from ${city(r.origin)} to ${city(r.destination)} on ${date} for ${plural(n, 'passenger')}.`,
      verifier: { requests: [request('GET', href('/flights'), { from: r.origin, to: r.destination, date, passengers: n })] },
      oracle: [...searchFlights(d, r.origin, r.destination, { date, passengers: n }), step.done()],
    };
  }));
  const phrases: Record<string, string> = { price_desc: 'the most expensive first', duration: 'the shortest flights first', depart: 'the earliest departures first', depart_desc: 'the latest departures first' };
  groups.push(routes.map((r, i) => {
    const sort = FLIGHT_SORTS[1 + (i % (FLIGHT_SORTS.length - 1))] ?? FLIGHT_SORTS[1];
    return {
      slug: `sort-${r.origin}-${r.destination}-${sort.value}`, kind: 'action',
      instruction: `Show me every upcoming flight from ${city(r.origin)} to ${city(r.destination)}, with ${phrases[sort.value] ?? sort.text}.`,
      verifier: { requests: [request('GET', href('/flights'), { from: r.origin, to: r.destination, sort: sort.value })] },
      oracle: [...searchFlights(d, r.origin, r.destination), step.select('Sort by', sort.text), step.button('Apply filters'), step.done()],
    };
  }));
  groups.push(routes.flatMap((r, i) => {
    const date = days[(i * 3 + 1) % days.length] ?? d.site.today;
    const nonstop = d.flights.find((f) => f.origin === r.origin && f.destination === r.destination && f.date === date && f.stops === 0);
    if (!nonstop) return [];
    return [{
      slug: `nonstop-${r.origin}-${r.destination}-${nonstop.airline}`, kind: 'action' as const,
      instruction: `Show only nonstop ${nonstop.airline_name} flights from ${city(r.origin)} to ${city(r.destination)} on ${date}.`,
      verifier: { requests: [request('GET', href('/flights'), { from: r.origin, to: r.destination, date, stops: '0', airline: nonstop.airline })] },
      oracle: [...searchFlights(d, r.origin, r.destination, { date }), step.select('Stops', 'Nonstop only'), step.select('Airline', nonstop.airline_name),
        step.button('Apply filters'), step.done()],
    }];
  }));
  groups.push(routes.map((r, i) => {
    const date = days[(i * 7 + 2) % days.length] ?? d.site.today;
    const max = [100, 150, 200, 250, 300][i % 5] ?? 150;
    return {
      slug: `max-fare-${r.origin}-${r.destination}`, kind: 'action',
      instruction: `Find flights from ${city(r.origin)} to ${city(r.destination)} on ${date} that cost no more than ${themeOf(d.site).currency}${max}.`,
      verifier: { requests: [request('GET', href('/flights'), { from: r.origin, to: r.destination, date, max_price: max })] },
      oracle: [...searchFlights(d, r.origin, r.destination, { date }), step.type('Max price', String(max), { role: 'spinbutton' }), step.button('Apply filters'), step.done()],
    };
  }));
  groups.push(routes.filter((r) => d.flights.filter((f) => f.origin === r.origin && f.destination === r.destination).length > FLIGHT_PAGE_SIZE).map((r) => ({
    slug: `page2-${r.origin}-${r.destination}`, kind: 'action',
    instruction: `Go to the second page of results for flights from ${city(r.origin)} to ${city(r.destination)} on any date.`,
    verifier: { requests: [request('GET', href('/flights'), { from: r.origin, to: r.destination, page: 2 })] },
    oracle: [...searchFlights(d, r.origin, r.destination), step.link('Next page'), step.done()],
  })));
  const cities = faker.helpers.shuffle([...d.airports.values()]);
  groups.push(cities.map((c, i) => {
    const stars = STAR_FILTERS[1 + (i % 2)] ?? STAR_FILTERS[1];
    const amenity = AMENITIES[1 + (i % (AMENITIES.length - 1))] ?? 'Pool';
    const sort = HOTEL_SORTS[1 + (i % (HOTEL_SORTS.length - 1))] ?? HOTEL_SORTS[1];
    return {
      slug: `hotels-${c.code}-${stars.value}-${slug(amenity)}`, kind: 'action',
      instruction: `Show hotels in ${c.name} with ${stars.text.toLowerCase()} that have "${amenity}", sorted by ${sort.text.toLowerCase()}.`,
      verifier: { requests: [request('GET', href('/hotels'), { city: c.code, stars: stars.value, amenity, sort: sort.value })] },
      oracle: [step.link('Hotels'), step.select('City', c.name), step.select('Minimum stars', stars.text), step.select('Amenity', amenity), step.select('Sort by', sort.text),
        step.button('Apply filters'), step.done()],
    };
  }));
  groups.push(cities.map((c, i) => {
    const max = [90, 120, 150, 200][i % 4] ?? 120;
    return {
      slug: `hotels-max-${c.code}`, kind: 'action', instruction: `List the hotels in ${c.name} that cost at most ${themeOf(d.site).currency}${max} a night.`,
      verifier: { requests: [request('GET', href('/hotels'), { city: c.code, max_price: max })] },
      oracle: [step.link('Hotels'), step.select('City', c.name), step.type('Max price per night', String(max), { role: 'spinbutton' }), step.button('Apply filters'), step.done()],
    };
  }));
  const words = HOTEL_FIRST.filter((w) => d.hotels.some((h) => h.name.includes(w))).slice(0, 12);
  groups.push(words.map((w) => ({
    slug: `hotel-search-${slug(w)}`, kind: 'action', instruction: `Search for hotels with "${w}" in their name.`,
    verifier: { requests: [request('GET', href('/hotels'), { q: w })] }, oracle: [step.search('Search hotels', w), step.done()],
  })));
  groups.push(['past', 'cancelled', 'all'].map((show) => ({
    slug: `trips-${show}`, kind: 'action', instruction: `Show me my ${show === 'all' ? 'trips, all of them including past and cancelled ones' : `${show} trips`}.`,
    verifier: { requests: [request('GET', href('/trips'), { show })] },
    oracle: [step.link('My trips'), step.select('Show', textOf([{ value: 'past', text: 'Past trips' }, { value: 'cancelled', text: 'Cancelled trips' }, { value: 'all', text: 'All trips' }], show)),
      step.button('Show trips'), step.done()],
  })));
  return groups;
}

function bookFlightTasks(d: TravelData, faker: Faker): TaskSpec[] {
  const city = (code: string): string => cityName(d, code);
  const pool = faker.helpers.shuffle(d.flights.filter((f) => !d.bookedFlights.has(f.id) && f.seats_left >= 3)).slice(0, 16);
  return pool.map((f, i) => {
    const n = 1 + (i % 3);
    const others = Array.from({ length: n - 1 }, () => faker.person.fullName());
    const fare = FARES[i % FARES.length] ?? FARES[0];
    const seat = SEATS[(i + 1) % SEATS.length] ?? SEATS[0];
    const bags = i % 3 === 1 ? 1 : i % 5 === 2 ? 2 : 0;
    const meal = MEALS[i % 4 === 3 ? 1 : 0] ?? MEALS[0];
    const insurance = i % 2;
    const who = n === 1 ? 'just me' : n === 2 ? `me and ${others[0]}` : `me, ${others[0]} and ${others[1]}`;
    const extras = [
      seat.value === 'any' ? 'no seat preference' : `${seat.text.toLowerCase()} seats`,
      bags ? `${bagsText(bags)} per person` : 'no checked bags',
      ...(meal.value !== 'standard' ? [`${meal.text.toLowerCase()}s`] : []),
      insurance ? 'travel insurance' : 'no insurance',
    ];
    const oracle: OracleStep[] = [
      ...openFlight(d, f),
      ...(n > 1 ? [step.select('Passengers', plural(n, 'passenger'))] : []),
      ...(fare.value !== 'economy' ? [step.radio(fare.text)] : []),
      step.button('Select this flight'),
      ...others.map((name, k) => step.type(travellerLabel('flight', k + 2), name)),
      step.button('Continue to extras'),
      step.radio(seat.text),
      ...(bags ? [step.select('Checked bags per traveller', bagsText(bags))] : []),
      ...(meal.value !== 'standard' ? [step.select('Meal', meal.text)] : []),
      ...(insurance ? [step.check('Add travel insurance')] : []),
      step.button('Continue to review'),
      step.button('Confirm booking'),
      step.done(),
    ];
    return {
      slug: `book-flight-${f.id}`, kind: 'action',
      instruction: `Book flight ${f.code} from ${city(f.origin)} to ${city(f.destination)} on ${f.date} for ${who} in ${fare.text.toLowerCase()}, with ${extras.join(', ')}.`,
      verifier: {
        state: [
          row('bookings', { flight_id: f.id, status: 'Confirmed' }, { travellers: n, fare: fare.value, seat: seat.value, bags, meal: meal.value, insurance }),
          ...others.map((name) => row('travellers', { name })),
        ],
      },
      oracle,
    };
  });
}

function bookHotelTasks(d: TravelData, faker: Faker): TaskSpec[] {
  const pool = faker.helpers.shuffle(d.hotels.filter((h) => !d.bookedHotels.has(h.id))).slice(0, 14);
  const requests = ['A quiet room away from the elevator, please.', 'We will arrive after 10 PM.', 'A crib for our baby, please.', 'A room on a high floor if possible.'];
  return pool.flatMap((h, i) => {
    const rooms = d.rooms.get(h.id) ?? [];
    const room = rooms[i % rooms.length];
    if (!room) return [];
    const guests = 1 + (i % room.sleeps);
    const nights = 1 + (i % 5);
    const date = addDays(d.site.today, 3 + ((i * 7) % 40));
    const breakfast = i % 2;
    const late = i % 3 === 2 ? 1 : 0;
    const note = i % 4 === 1 ? requests[i % requests.length] ?? '' : '';
    const extras = [...(breakfast ? ['breakfast'] : []), ...(late ? ['late checkout'] : [])];
    return [{
      slug: `book-hotel-${h.id}`, kind: 'action' as const,
      instruction: `Book a ${roomPhrase(room.name)} at ${theHotel(h.name)} in ${h.city_name} for ${plural(nights, 'night')} from ${date} for ${plural(guests, 'guest')}${extras.length ? `, with ${extras.join(' and ')}` : ''}${note ? `, and add the special request "${note}"` : ''}.`,
      verifier: { state: [row('bookings', { hotel_id: h.id, status: 'Confirmed' }, { room: room.name, date, nights, travellers: guests, breakfast, late_checkout: late, ...(note ? { requests: note } : {}) })] },
      oracle: [
        ...openHotel(h),
        step.select('Room', room.name), step.type('Check-in date', date), step.select('Nights', plural(nights, 'night')), step.select('Guests', plural(guests, 'guest')),
        step.button('Reserve'), step.button('Continue to extras'),
        ...(breakfast ? [step.check('Add breakfast')] : []), ...(late ? [step.check('Late checkout')] : []), ...(note ? [step.type('Special requests', note)] : []),
        step.button('Continue to review'), step.button('Confirm booking'), step.done(),
      ],
    }];
  });
}

function tripTasks(d: TravelData, faker: Faker, db: TaskInput['db']): TaskSpec[][] {
  const open = d.trips.filter((b) => b.status === 'Confirmed' && b.date > d.site.today);
  const cancel = open.flatMap((b) => [
    { slug: `cancel-${b.ref}`, kind: 'action' as const, instruction: `Cancel my booking ${b.ref}.`, verifier: { state: [row('bookings', { ref: b.ref }, { status: 'Cancelled' })] },
      oracle: [...openTrip(d, b), step.button('Cancel booking'), step.done()] },
    { slug: `cancel-named-${b.ref}`, kind: 'action' as const,
      instruction: b.kind === 'hotel' ? `I can't make my stay at ${b.title} on ${b.date}. Please cancel it.` : `Cancel my ${b.title} flight on ${b.date}.`,
      verifier: { state: [row('bookings', { ref: b.ref }, { status: 'Cancelled' })] }, oracle: [...openTrip(d, b), step.button('Cancel booking'), step.done()] },
  ]);
  const change = open.flatMap((b) => {
    if (b.kind === 'hotel') {
      return [5, 16].map((k) => {
        const date = addDays(b.date, k);
        return { slug: `move-${b.ref}-${date}`, kind: 'action' as const, instruction: `Change the check-in date of my booking ${b.ref} to ${date}.`,
          verifier: { state: [row('bookings', { ref: b.ref }, { date })] },
          oracle: [...openTrip(d, b), step.type('New check-in date', date), step.button('Change date'), step.done()] };
      });
    }
    const code = b.title.split(' ')[0] ?? '';
    const dates = faker.helpers.shuffle(flightDates(db, code, addDays(d.site.today, 1)).filter((f) => f.date !== b.date && f.seats_left >= b.travellers)).slice(0, 2);
    return dates.map((f) => ({
      slug: `move-${b.ref}-${f.date}`, kind: 'action' as const, instruction: `Move my flight booking ${b.ref} to ${f.date}.`,
      verifier: { state: [row('bookings', { ref: b.ref }, { date: f.date, flight_id: f.id })] },
      oracle: [...openTrip(d, b), step.select('New date', f.date), step.button('Change date'), step.done()],
    }));
  });
  return [cancel, change];
}

function profileTasks(d: TravelData, faker: Faker): TaskSpec[] {
  const homes = [...d.airports.values()].filter((a) => a.code !== d.me.home_airport).slice(0, 3);
  const phones = Array.from({ length: 3 }, () => faker.helpers.replaceSymbols('(###) 555-####')).filter((p) => p !== d.me.phone);
  const passports = Array.from({ length: 2 }, () => faker.helpers.replaceSymbols('?########').toUpperCase()).filter((p) => p !== d.me.passport);
  const seats = SEATS.filter((s) => s.value !== d.me.seat);
  return [
    ...homes.map((a) => ({ slug: `home-${a.code}`, kind: 'action' as const, instruction: `Set my home airport to ${a.name}.`,
      verifier: { state: [row('profile', { id: 1 }, { home_airport: a.code })] }, oracle: [step.link('Profile'), step.select('Home airport', airportText(a)), step.button('Save profile'), step.done()] })),
    ...phones.map((phone, i) => ({ slug: `phone-${i}`, kind: 'action' as const, instruction: `Update the phone number in my traveller profile to ${phone}.`,
      verifier: { state: [row('profile', { id: 1 }, { phone })] }, oracle: [step.link('Profile'), step.type('Phone', phone), step.button('Save profile'), step.done()] })),
    ...passports.map((passport, i) => ({ slug: `passport-${i}`, kind: 'action' as const, instruction: `I renewed my passport; the new number is ${passport}. Update my profile.`,
      verifier: { state: [row('profile', { id: 1 }, { passport })] }, oracle: [step.link('Profile'), step.type('Passport number', passport), step.button('Save profile'), step.done()] })),
    ...seats.map((s) => ({ slug: `seat-pref-${s.value}`, kind: 'action' as const, instruction: `Make ${s.value === 'any' ? 'no seat preference' : `${s.text.toLowerCase()} seats`} my default seat preference.`,
      verifier: { state: [row('profile', { id: 1 }, { seat: s.value })] }, oracle: [step.link('Profile'), step.select('Seat preference', s.text), step.button('Save profile'), step.done()] })),
    ...(d.me.newsletter ? [{ slug: 'deals-off', kind: 'action' as const, instruction: 'Stop sending me travel deal emails.',
      verifier: { state: [row('profile', { id: 1 }, { newsletter: 0 })] }, oracle: [step.link('Profile'), step.check('Email me travel deals'), step.button('Save profile'), step.done()] }] : []),
  ];
}

/** Action task groups (generators), each in its own order. */
export function actionTasks(d: TravelData, { faker, href, db }: TaskInput): TaskSpec[][] {
  const saved = new Set(d.saved.map((s) => s.hotel_id));
  const save = faker.helpers.shuffle(d.hotels.filter((h) => !saved.has(h.id))).slice(0, 15).map((h) => ({
    slug: `save-${h.id}`, kind: 'action' as const, instruction: `Add ${theHotel(h.name)} in ${h.city_name} to my saved hotels.`,
    verifier: { state: [row('saved_hotels', { hotel_id: h.id })] }, oracle: [...openHotel(h), step.button('Save hotel'), step.done()],
  }));
  const unsave = d.saved.map((s) => ({
    slug: `unsave-${s.hotel_id}`, kind: 'action' as const, instruction: `Remove ${theHotel(s.name)} from my saved hotels.`,
    verifier: { state: [noRow('saved_hotels', { hotel_id: s.hotel_id })] }, oracle: [step.link('Saved hotels'), step.button(`Remove ${s.name} from saved`), step.done()],
  }));
  const [cancel = [], change = []] = tripTasks(d, faker, db);
  const [search = [], sort = [], nonstop = [], maxFare = [], page2 = [], hotelFilters = [], hotelMax = [], hotelSearch = [], tripViews = []] = searchTasks(d, faker, href);
  return [search, bookFlightTasks(d, faker), hotelFilters, save, bookHotelTasks(d, faker), cancel, change, profileTasks(d, faker), nonstop, unsave,
    sort, maxFare, page2, hotelMax, hotelSearch, tripViews];
}
