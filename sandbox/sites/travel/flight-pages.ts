/** The travel template's home page, flight search with filters, sort and pages, flight details and destinations. @module */
import { html, type SafeHtml } from '../../html';
import { errorSummary, idOf, pageNumber, pager, paginate, plural, postForm, radioGroup, selectField, submit, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { addDays, isDate } from '../../values';
import { arrivalText, flightTable, price } from './common';
import { FARES, MAX_TRAVELLERS, durationText, farePrice, stopsText } from './pricing';
import { FLIGHT_DAYS } from './seed';
import {
  FLIGHT_SORTS, STOP_FILTERS, airlines, airportText, airports, bookings, findFlights, findHotels, getFlight, profile, type FlightRow,
} from './queries';

/** Flights per results page. */
export const FLIGHT_PAGE_SIZE = 10;

const PASSENGER_OPTIONS = Array.from({ length: MAX_TRAVELLERS }, (_, i) => ({ value: String(i + 1), text: plural(i + 1, 'passenger') }));

interface SearchValues {
  from: string;
  to: string;
  date: string;
  passengers: string;
}

function searchForm(ctx: RequestCtx, v: SearchValues, errors: Record<string, string> = {}): SafeHtml {
  const cities = airports(ctx.db).map((a) => ({ value: a.code, text: airportText(a) }));
  return html`<form method="get" action="${ctx.href('/flights')}" aria-label="Search flights" class="row">
${selectField({ label: 'From', name: 'from', value: v.from, options: [{ value: '', text: 'Choose a city' }, ...cities], error: errors.from })}
${selectField({ label: 'To', name: 'to', value: v.to, options: [{ value: '', text: 'Choose a city' }, ...cities], error: errors.to })}
${textField({ label: 'Departure date', name: 'date', type: 'date', value: v.date, error: errors.date })}
${selectField({ label: 'Passengers', name: 'passengers', value: v.passengers || '1', options: PASSENGER_OPTIONS, error: errors.passengers })}
${submit('Search flights')}</form>`;
}

function home(ctx: RequestCtx): Reply {
  const me = profile(ctx.db);
  const cities = airports(ctx.db);
  const homeCity = cities.find((c) => c.code === me.home_airport) ?? cities[0];
  const deals: FlightRow[] = [];
  for (const c of cities) {
    if (!homeCity || c.code === homeCity.code) continue;
    const best = findFlights(ctx.db, { from: homeCity.code, to: c.code, fromDate: addDays(ctx.site.today, 1), maxStops: 0, sort: 'price' })[0];
    if (best) deals.push(best);
  }
  const upcoming = bookings(ctx.db, '', ctx.site.today).slice(0, 3);
  return ctx.render({
    title: `Welcome to ${ctx.site.title}`,
    body: html`<h2>Find a flight</h2>${searchForm(ctx, { from: homeCity?.code ?? '', to: '', date: '', passengers: '1' })}
<h2>Find a hotel</h2><form method="get" action="${ctx.href('/hotels')}" aria-label="Find hotels" class="row">
${selectField({ label: 'City', name: 'city', options: [{ value: '', text: 'Any city' }, ...cities.map((c) => ({ value: c.code, text: c.name }))] })}${submit('Find hotels')}</form>
${upcoming.length ? html`<h2>Your next trips</h2><ul>${upcoming.map((b) => html`<li><a href="${ctx.href(`/trips/${b.ref}`)}">${b.ref}</a> · ${b.title} · ${b.date}</li>`)}</ul>` : ''}
<h2>Nonstop deals from ${homeCity?.name ?? ''}</h2>${flightTable(ctx, deals)}
<h2>Popular destinations</h2><div class="grid">${cities.map((c) => html`<div class="card"><a href="${ctx.href(`/destinations/${c.code}`)}">${c.name}</a><div class="muted">${c.code}</div></div>`)}</div>`,
  });
}

function flightSearch(ctx: RequestCtx): Reply {
  const v: SearchValues = { from: ctx.q('from').toUpperCase(), to: ctx.q('to').toUpperCase(), date: ctx.q('date'), passengers: ctx.q('passengers') || '1' };
  const stops = ctx.q('stops');
  const airline = ctx.q('airline').toUpperCase();
  const maxRaw = ctx.q('max_price');
  const sort = ctx.q('sort') || 'price';
  const page = pageNumber(ctx.q('page'));
  if (page === undefined) return ctx.badRequest('The page number must be a positive whole number.');
  if (!v.from && !v.to) {
    return ctx.render({ title: 'Search flights', body: html`${searchForm(ctx, v)}<p>Choose where you are flying from and to, and a date if you know it.</p>` });
  }
  const cities = airports(ctx.db);
  const codes = new Set(cities.map((a) => a.code));
  const lines = airlines(ctx.db);
  const last = addDays(ctx.site.today, FLIGHT_DAYS.after);
  const errors: Record<string, string> = {};
  if (!codes.has(v.from)) errors.from = 'Choose a city to fly from.';
  if (!codes.has(v.to)) errors.to = 'Choose a city to fly to.';
  else if (v.to === v.from) errors.to = 'Choose a destination other than where you fly from.';
  if (v.date && !isDate(v.date)) errors.date = 'Enter the departure date as YYYY-MM-DD.';
  else if (v.date && v.date < ctx.site.today) errors.date = 'Choose a departure date from today on.';
  else if (v.date && v.date > last) errors.date = `Flights can be booked up to ${last}.`;
  if (!/^[1-6]$/.test(v.passengers)) errors.passengers = `Choose 1 to ${MAX_TRAVELLERS} passengers.`;
  const stopFilter = STOP_FILTERS.find((s) => s.value === stops);
  if (!stopFilter) errors.stops = 'Choose how many stops you accept.';
  if (airline && !lines.some((l) => l.code === airline)) errors.airline = 'Choose one of the listed airlines.';
  const maxPrice = maxRaw === '' ? undefined : Number(maxRaw);
  if (maxPrice !== undefined && !(Number.isFinite(maxPrice) && maxPrice >= 0)) errors.max_price = 'Max price must be a number, like 250.';
  if (!FLIGHT_SORTS.some((s) => s.value === sort)) errors.sort = 'Choose one of the listed sort orders.';
  if (Object.keys(errors).length) {
    return ctx.render({ title: 'Search flights', status: 422, body: html`${errorSummary(errors)}${searchForm(ctx, v, errors)}` });
  }
  const all = findFlights(ctx.db, { from: v.from, to: v.to, date: v.date || undefined, fromDate: ctx.site.today, maxStops: stopFilter?.max, airline, maxPrice, sort });
  const paged = paginate(all, page, FLIGHT_PAGE_SIZE);
  if (!paged) return ctx.notFound(`There is no page ${page} of these results.`);
  const { items: shown, pages, first } = paged;
  const names = new Map(cities.map((a) => [a.code, a.name]));
  const query = { ...v, passengers: v.passengers === '1' ? '' : v.passengers, stops, airline, max_price: maxRaw, sort: sort === 'price' ? '' : sort };
  return ctx.render({
    title: `Flights from ${names.get(v.from)} to ${names.get(v.to)}`,
    body: html`${searchForm(ctx, v)}
<form method="get" action="${ctx.href('/flights')}" aria-label="Filter flights" class="row">
${(['from', 'to', 'date', 'passengers'] as const).map((k) => (v[k] ? html`<input type="hidden" name="${k}" value="${v[k]}">` : ''))}
${selectField({ label: 'Stops', name: 'stops', value: stops, options: STOP_FILTERS })}
${selectField({ label: 'Airline', name: 'airline', value: airline, options: [{ value: '', text: 'All airlines' }, ...lines.map((l) => ({ value: l.code, text: l.name }))] })}
${textField({ label: 'Max price', name: 'max_price', type: 'number', value: maxRaw, min: 0 })}
${selectField({ label: 'Sort by', name: 'sort', value: sort, options: FLIGHT_SORTS })}
${submit('Apply filters')} <a href="${ctx.href('/flights', { from: v.from, to: v.to, date: v.date })}">Clear filters</a></form>
<p>${v.date ? `On ${v.date}` : 'Any date'} · ${plural(Number(v.passengers), 'passenger')} · ${all.length ? `${plural(all.length, 'flight')} found, showing ${first}–${first + shown.length - 1}` : 'No flights match your search.'}</p>
${shown.length ? flightTable(ctx, shown, Number(v.passengers)) : ''}
${pager({ page, pages, href: (n) => ctx.href('/flights', { ...query, page: n === 1 ? '' : n }) })}`,
  });
}

/** The flight page; `errors` and `values` when the select form is shown again. */
function flightPage(ctx: RequestCtx, f: FlightRow, values: Record<string, string> = {}, errors: Record<string, string> = {}): Reply {
  const passengers = values.passengers ?? (/^[1-6]$/.test(ctx.q('passengers')) ? ctx.q('passengers') : '1');
  const bookable = f.date >= ctx.site.today;
  return ctx.render({
    title: `${f.code} ${f.origin_name} to ${f.destination_name}`,
    status: Object.keys(errors).length ? 422 : 200,
    body: html`<table><tbody><tr><th>Airline</th><td>${f.airline_name}</td></tr><tr><th>Date</th><td>${f.date}</td></tr>
<tr><th>Departs</th><td>${f.depart} from ${f.origin_name} (${f.origin})</td></tr><tr><th>Arrives</th><td>${arrivalText(f)} at ${f.destination_name} (${f.destination})</td></tr>
<tr><th>Duration</th><td>${durationText(f.duration)}</td></tr><tr><th>Stops</th><td>${stopsText(f.stops, f.via)}</td></tr>
<tr><th>Seats left</th><td>${f.seats_left}</td></tr><tr><th>Baggage</th><td>One cabin bag included; checked bags can be added when you book.</td></tr></tbody></table>
<h2>Fares per traveller</h2><table><tbody>${FARES.map((fa) => html`<tr><th>${fa.text}</th><td>${price(ctx.site, farePrice(f.price, fa.value))}</td></tr>`)}</tbody></table>
${bookable ? html`${errorSummary(errors)}${postForm(ctx.href(`/flights/${f.id}/select`), html`
${selectField({ label: 'Passengers', name: 'passengers', value: passengers, options: PASSENGER_OPTIONS, error: errors.passengers })}
${radioGroup({ legend: 'Fare', name: 'fare', value: values.fare ?? 'economy', options: FARES, error: errors.fare })}
${submit('Select this flight')}`, { label: 'Book this flight' })}` : html`<p>This flight has already departed.</p>`}
<p><a href="${ctx.href('/flights', { from: f.origin, to: f.destination, date: bookable ? f.date : '' })}">More flights on this route</a></p>`,
  });
}

function findFlight(ctx: RequestCtx): FlightRow | undefined {
  const id = idOf(ctx.params.id);
  return id === undefined ? undefined : getFlight(ctx.db, id);
}

function selectFlight(ctx: RequestCtx): Reply {
  const f = findFlight(ctx);
  if (!f) return ctx.notFound('That flight does not exist.');
  const values = { passengers: ctx.field('passengers'), fare: ctx.field('fare') };
  const errors: Record<string, string> = {};
  if (f.date < ctx.site.today) return ctx.badRequest('This flight has already departed.');
  if (!/^[1-6]$/.test(values.passengers)) errors.passengers = `Choose 1 to ${MAX_TRAVELLERS} passengers.`;
  else if (Number(values.passengers) > f.seats_left) errors.passengers = `Only ${plural(f.seats_left, 'seat')} left on this flight.`;
  if (!FARES.some((fa) => fa.value === values.fare)) errors.fare = 'Choose a fare.';
  if (Object.keys(errors).length) return flightPage(ctx, f, values, errors);
  const me = profile(ctx.db);
  const id = ctx.db.prepare(`INSERT INTO checkouts (title, kind, flight_id, fare, date, travellers, names, email, phone, seat)
    VALUES (?, 'flight', ?, ?, ?, ?, ?, ?, ?, ?)`).run(`${f.code} ${f.origin_name} to ${f.destination_name}, ${f.date}`, f.id, values.fare, f.date,
    Number(values.passengers), me.name, me.email, me.phone, me.seat).lastInsertRowid;
  return ctx.redirect(`/checkout/${id}/travellers`);
}

function destinations(ctx: RequestCtx): Reply {
  const list = airports(ctx.db).map((a) => ({ ...a, hotels: findHotels(ctx.db, { city: a.code }).length }));
  return ctx.render({
    title: 'Destinations',
    body: html`<table><thead><tr><th>City</th><th>Airport</th><th>Hotels</th></tr></thead><tbody>${list.map(
      (a) => html`<tr><td><a href="${ctx.href(`/destinations/${a.code}`)}">${a.name}</a></td><td>${a.code}</td><td>${a.hotels}</td></tr>`,
    )}</tbody></table>`,
  });
}

function destination(ctx: RequestCtx): Reply {
  const code = (ctx.params.code ?? '').toUpperCase();
  const city = airports(ctx.db).find((a) => a.code === code);
  if (!city) return ctx.notFound('We do not fly to that destination.');
  const top = findHotels(ctx.db, { city: city.code, sort: 'rating' }).slice(0, 5);
  const home = profile(ctx.db).home_airport;
  return ctx.render({
    title: city.name,
    body: html`<p>${city.name} is served by ${city.code} airport.</p>
${home !== city.code ? html`<p><a href="${ctx.href('/flights', { from: home, to: city.code })}">Flights to ${city.name}</a></p>` : ''}
<h2>Top rated hotels</h2><ul>${top.map((h) => html`<li><a href="${ctx.href(`/hotels/${h.id}`)}">${h.name}</a> · ${h.stars} stars · ${h.rating.toFixed(1)}/10</li>`)}</ul>
<p><a href="${ctx.href('/hotels', { city: city.code })}">All hotels in ${city.name}</a></p>`,
  });
}

/** Registers the home page, flight search and details, and destinations. */
export function flightRoutes(r: Router<Handler>): void {
  r.get('/', home);
  r.get('/flights', flightSearch);
  r.get('/flights/:id', (ctx) => {
    const f = findFlight(ctx);
    return f ? flightPage(ctx, f) : ctx.notFound('That flight does not exist.');
  });
  r.post('/flights/:id/select', selectFlight);
  r.get('/destinations', destinations);
  r.get('/destinations/:code', destination);
}
