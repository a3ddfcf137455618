/** The travel template's info tasks: questions about flights, hotels, trips and the profile. @module */
import type { Faker } from '@faker-js/faker';
import { answer, step } from '../../task-kit';
import type { TaskSpec } from '../../template';
import { plural } from '../../layout';
import { price } from './common';
import { durationText } from './pricing';
import { FLIGHT_SORTS, HOTEL_SORTS } from './queries';
import { AMENITIES } from './themes';
import { cityName, flightsOn, openFlight, openHotel, openTrip, roomPhrase, searchFlights, slug, theHotel, uniqueMin, type TravelData } from './task-steps';

const sortText = (list: ReadonlyArray<{ value: string; text: string }>, value: string): string => list.find((s) => s.value === value)?.text ?? value;

/** Info task groups (generators), each in its own order. */
export function infoTasks(d: TravelData, faker: Faker): TaskSpec[][] {
  const money = (n: number): string => price(d.site, n);
  const city = (code: string): string => cityName(d, code);
  const flights = faker.helpers.shuffle([...d.flights]);
  const hotels = faker.helpers.shuffle([...d.hotels]);
  const days = [...new Set(d.flights.map((f) => f.date))];
  const routeDays = faker.helpers.shuffle(d.routes.flatMap((r) => days.map((date) => ({ ...r, date }))));
  const groups: TaskSpec[][] = [];

  groups.push(flights.slice(0, 20).map((f) => ({
    slug: `fare-${f.id}`, kind: 'info',
    instruction: `How much is an economy ticket on flight ${f.code} from ${city(f.origin)} to ${city(f.destination)} on ${f.date}? Report the price per traveller.`,
    verifier: { answer: answer.number(f.price) }, oracle: [...searchFlights(d, f.origin, f.destination, { date: f.date }), step.done(money(f.price))],
  })));
  groups.push(routeDays.flatMap((r) => {
    const best = uniqueMin(flightsOn(d, r.origin, r.destination, r.date), (f) => f.price);
    return best ? [{
      slug: `cheapest-${r.origin}-${r.destination}-${r.date}`, kind: 'info' as const,
      instruction: `What is the cheapest flight from ${city(r.origin)} to ${city(r.destination)} on ${r.date}? Report its flight number.`,
      verifier: { answer: answer.includes(best.code) }, oracle: [...searchFlights(d, r.origin, r.destination, { date: r.date }), step.done(best.code)],
    }] : [];
  }).slice(0, 15));
  groups.push(routeDays.slice(30).flatMap((r) => {
    const best = uniqueMin(flightsOn(d, r.origin, r.destination, r.date), (f) => f.duration);
    return best ? [{
      slug: `fastest-${r.origin}-${r.destination}-${r.date}`, kind: 'info' as const,
      instruction: `Which flight from ${city(r.origin)} to ${city(r.destination)} on ${r.date} takes the least time? Report its flight number.`,
      verifier: { answer: answer.includes(best.code) },
      oracle: [...searchFlights(d, r.origin, r.destination, { date: r.date }), step.select('Sort by', sortText(FLIGHT_SORTS, 'duration')), step.button('Apply filters'), step.done(best.code)],
    }] : [];
  }).slice(0, 12));
  groups.push(routeDays.slice(60).flatMap((r) => {
    const n = flightsOn(d, r.origin, r.destination, r.date).filter((f) => f.stops === 0).length;
    return n ? [{
      slug: `nonstop-count-${r.origin}-${r.destination}-${r.date}`, kind: 'info' as const,
      instruction: `How many nonstop flights are there from ${city(r.origin)} to ${city(r.destination)} on ${r.date}?`,
      verifier: { answer: answer.number(n, 0) },
      oracle: [...searchFlights(d, r.origin, r.destination, { date: r.date }), step.select('Stops', 'Nonstop only'), step.button('Apply filters'), step.done(plural(n, 'flight'))],
    }] : [];
  }).slice(0, 10));
  groups.push(flights.slice(20, 32).map((f) => ({
    slug: `departs-${f.id}`, kind: 'info',
    instruction: `At what time does flight ${f.code} leave ${city(f.origin)} on ${f.date}?`,
    verifier: { answer: answer.includes(f.depart) }, oracle: [...searchFlights(d, f.origin, f.destination, { date: f.date }), step.done(f.depart)],
  })));
  groups.push(flights.filter((f) => f.stops === 1).slice(0, 10).map((f) => ({
    slug: `via-${f.id}`, kind: 'info',
    instruction: `Flight ${f.code} from ${city(f.origin)} to ${city(f.destination)} on ${f.date} makes one stop. At which airport? Report the airport code.`,
    verifier: { answer: answer.includes(f.via) }, oracle: [...searchFlights(d, f.origin, f.destination, { date: f.date }), step.done(f.via)],
  })));
  groups.push(flights.slice(32, 44).map((f) => ({
    slug: `seats-${f.id}`, kind: 'info',
    instruction: `How many seats are still free on flight ${f.code} from ${city(f.origin)} on ${f.date}?`,
    verifier: { answer: answer.number(f.seats_left, 0) }, oracle: [...openFlight(d, f), step.done(`${f.seats_left} seats left`)],
  })));
  groups.push(flights.slice(44, 54).map((f) => ({
    slug: `duration-${f.id}`, kind: 'info',
    instruction: `How long does flight ${f.code} from ${city(f.origin)} to ${city(f.destination)} on ${f.date} take? Answer in hours and minutes, like 2h 05m.`,
    verifier: { answer: answer.includes(durationText(f.duration)) }, oracle: [...searchFlights(d, f.origin, f.destination, { date: f.date }), step.done(durationText(f.duration))],
  })));
  groups.push(hotels.slice(0, 15).map((h) => ({
    slug: `rating-${h.id}`, kind: 'info', instruction: `What guest rating does ${theHotel(h.name)} in ${h.city_name} have? Report the score out of 10.`,
    verifier: { answer: answer.number(h.rating, 0.05) }, oracle: [...openHotel(h), step.done(`${h.rating.toFixed(1)} out of 10`)],
  })));
  groups.push(hotels.slice(15, 30).flatMap((h) => {
    const room = d.rooms.get(h.id)?.at(-1);
    return room ? [{
      slug: `room-price-${h.id}`, kind: 'info' as const, instruction: `How much does a ${roomPhrase(room.name)} at ${theHotel(h.name)} cost per night?`,
      verifier: { answer: answer.number(room.price) }, oracle: [...openHotel(h), step.done(money(room.price))],
    }] : [];
  }));
  const cities = faker.helpers.shuffle([...d.airports.values()]);
  groups.push(cities.flatMap((c) => {
    const best = uniqueMin(d.hotels.filter((h) => h.city === c.code), (h) => h.price);
    return best ? [{
      slug: `cheapest-hotel-${c.code}`, kind: 'info' as const, instruction: `Which hotel in ${c.name} has the lowest nightly price? Report its name.`,
      verifier: { answer: answer.includes(best.name) },
      oracle: [step.link('Hotels'), step.select('City', c.name), step.select('Sort by', sortText(HOTEL_SORTS, 'price')), step.button('Apply filters'), step.done(best.name)],
    }] : [];
  }));
  groups.push(cities.flatMap((c) => {
    const best = uniqueMin(d.hotels.filter((h) => h.city === c.code), (h) => -h.rating);
    return best ? [{
      slug: `best-hotel-${c.code}`, kind: 'info' as const, instruction: `Which hotel in ${c.name} has the highest guest rating? Report its name.`,
      verifier: { answer: answer.includes(best.name) },
      oracle: [step.link('Hotels'), step.select('City', c.name), step.select('Sort by', sortText(HOTEL_SORTS, 'rating')), step.button('Apply filters'), step.done(best.name)],
    }] : [];
  }));
  groups.push(cities.flatMap((c, i) => {
    const amenity = AMENITIES[1 + (i % (AMENITIES.length - 1))] ?? 'Pool';
    const n = d.hotels.filter((h) => h.city === c.code && h.amenities.split(', ').includes(amenity)).length;
    return n ? [{
      slug: `amenity-count-${c.code}-${slug(amenity)}`, kind: 'info' as const, instruction: `How many hotels in ${c.name} list "${amenity}" among their amenities?`,
      verifier: { answer: answer.number(n, 0) },
      oracle: [step.link('Hotels'), step.select('City', c.name), step.select('Amenity', amenity), step.button('Apply filters'), step.done(plural(n, 'hotel'))],
    }] : [];
  }));
  groups.push(hotels.slice(30, 45).map((h) => ({
    slug: `stars-${h.id}`, kind: 'info', instruction: `How many stars does ${theHotel(h.name)} in ${h.city_name} have?`,
    verifier: { answer: answer.number(h.stars, 0) }, oracle: [...openHotel(h), step.done(`${h.stars} stars`)],
  })));
  groups.push(d.trips.map((b) => ({
    slug: `trip-total-${b.ref}`, kind: 'info', instruction: `How much did I pay in total for my booking ${b.ref}?`,
    verifier: { answer: answer.number(b.total) }, oracle: [...openTrip(d, b), step.done(money(b.total))],
  })));
  groups.push(d.trips.map((b) => ({
    slug: `trip-ref-${b.ref}`, kind: 'info',
    instruction: `What is the booking reference of my ${b.status === 'Cancelled' ? 'cancelled ' : ''}${b.kind === 'hotel' ? 'stay at' : 'flight'} ${b.title} on ${b.date}?`,
    verifier: { answer: answer.includes(b.ref) },
    oracle: [step.link('My trips'), ...(b.status === 'Confirmed' && b.date >= d.site.today ? [] : [step.select('Show', 'All trips'), step.button('Show trips')]), step.done(b.ref)],
  })));
  groups.push(d.trips.map((b) => ({
    slug: `trip-status-${b.ref}`, kind: 'info', instruction: `What is the status of my booking ${b.ref}?`,
    verifier: { answer: answer.includes(b.status) }, oracle: [...openTrip(d, b), step.done(b.status)],
  })));
  groups.push([
    { slug: 'loyalty-number', kind: 'info', instruction: 'What is my loyalty number?', verifier: { answer: answer.includes(d.me.loyalty) }, oracle: [step.link('Profile'), step.done(d.me.loyalty)] },
    { slug: 'passport-number', kind: 'info', instruction: 'Which passport number is saved in my traveller profile?', verifier: { answer: answer.includes(d.me.passport) }, oracle: [step.link('Profile'), step.done(d.me.passport)] },
  ]);
  return groups;
}
