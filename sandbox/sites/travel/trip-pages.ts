/** The travel template's trips (list, details, date change, cancellation), traveller profile and JSON API. @module */
import { html } from '../../html';
import { checkbox, errorSummary, plural, postForm, selectField, submit, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { addDays, isDate } from '../../values';
import { bagsText } from './checkout-pages';
import { price } from './common';
import { FARES, MEALS, SEATS, flightTotal, hotelTotal } from './pricing';
import { FLIGHT_DAYS } from './seed';
import {
  TRIP_VIEWS, airportText, airports, bookings, findFlights, findHotels, flightDates, getBooking, getFlight, profile, roomsOf, travellersOf, type BookingRow,
} from './queries';

function tripsPage(ctx: RequestCtx): Reply {
  const view = ctx.q('show');
  if (!TRIP_VIEWS.some((v) => v.value === view)) return ctx.badRequest(`"${view}" is not a list of trips.`);
  const list = bookings(ctx.db, view, ctx.site.today);
  return ctx.render({
    title: 'My trips',
    body: html`<form method="get" action="${ctx.href('/trips')}" class="row" aria-label="Choose trips">
${selectField({ label: 'Show', name: 'show', value: view, options: TRIP_VIEWS })}${submit('Show trips')}</form>
${list.length ? html`<table><thead><tr><th>Reference</th><th>Trip</th><th>Date</th><th>Status</th><th>Total</th></tr></thead><tbody>${list.map(
  (b) => html`<tr><td><a href="${ctx.href(`/trips/${b.ref}`)}">${b.ref}</a></td><td>${b.title}</td><td>${b.date}</td><td>${b.status}</td><td>${price(ctx.site, b.total)}</td></tr>`,
)}</tbody></table>` : html`<p>No trips to show.</p>`}`,
  });
}

function findBooking(ctx: RequestCtx): BookingRow | undefined {
  return getBooking(ctx.db, ctx.params.ref ?? '');
}

function changeable(ctx: RequestCtx, b: BookingRow): boolean {
  return b.status === 'Confirmed' && b.date > ctx.site.today;
}

function tripPage(ctx: RequestCtx, b: BookingRow, values: Record<string, string> = {}, errors: Record<string, string> = {}): Reply {
  const names = travellersOf(ctx.db, b.ref);
  const label = (list: ReadonlyArray<{ value: string; text: string }>, v: string): string => list.find((x) => x.value === v)?.text ?? v;
  const details = b.kind === 'flight'
    ? html`<tr><th>Departure date</th><td>${b.date}</td></tr><tr><th>Fare</th><td>${label(FARES, b.fare)}</td></tr>
<tr><th>Seat preference</th><td>${label(SEATS, b.seat)}</td></tr><tr><th>Checked bags</th><td>${bagsText(b.bags)} per traveller</td></tr>
<tr><th>Meal</th><td>${label(MEALS, b.meal)}</td></tr><tr><th>Travel insurance</th><td>${b.insurance ? 'Yes' : 'No'}</td></tr>`
    : html`<tr><th>Room</th><td>${b.room}</td></tr><tr><th>Check-in</th><td>${b.date}</td></tr><tr><th>Check-out</th><td>${addDays(b.date, b.nights)}</td></tr>
<tr><th>Nights</th><td>${b.nights}</td></tr><tr><th>Breakfast</th><td>${b.breakfast ? 'Included' : 'Not included'}</td></tr>
<tr><th>Late checkout</th><td>${b.late_checkout ? 'Yes' : 'No'}</td></tr>${b.requests ? html`<tr><th>Special requests</th><td>${b.requests}</td></tr>` : ''}`;
  const flight = b.kind === 'flight' && b.flight_id !== null ? getFlight(ctx.db, b.flight_id) : undefined;
  const dates = flight ? flightDates(ctx.db, flight.code, addDays(ctx.site.today, 1)).filter((f) => f.date !== b.date) : [];
  const change = !changeable(ctx, b) ? '' : b.kind === 'flight'
    ? dates.length ? postForm(ctx.href(`/trips/${b.ref}/change`), html`<div class="row">
${selectField({ label: 'New date', name: 'date', value: values.date ?? '', options: [{ value: '', text: 'Choose a date' }, ...dates.map((f) => ({ value: f.date, text: f.date }))], error: errors.date })}
${submit('Change date')}</div>`, { label: 'Change date' }) : ''
    : postForm(ctx.href(`/trips/${b.ref}/change`), html`<div class="row">
${textField({ label: 'New check-in date', name: 'date', type: 'date', value: values.date ?? '', error: errors.date })}${submit('Change date')}</div>`, { label: 'Change date' });
  return ctx.render({
    title: `Trip ${b.ref}`,
    status: Object.keys(errors).length ? 422 : 200,
    body: html`<table><tbody><tr><th>Booking reference</th><td>${b.ref}</td></tr><tr><th>Trip</th><td>${b.title}</td></tr>
<tr><th>Status</th><td><strong>${b.status}</strong></td></tr>${details}
<tr><th>${b.kind === 'hotel' ? 'Guests' : 'Travellers'}</th><td>${b.kind === 'hotel' ? `${b.travellers} (lead guest ${names[0] ?? b.lead_name})` : names.join(', ')}</td></tr>
<tr><th>Contact</th><td>${b.email} · ${b.phone}</td></tr><tr><th>Total paid</th><td>${price(ctx.site, b.total)}</td></tr><tr><th>Booked on</th><td>${b.booked}</td></tr></tbody></table>
${flight ? html`<p><a href="${ctx.href(`/flights/${flight.id}`)}">${flight.code} flight details</a></p>` : ''}
${b.hotel_id !== null ? html`<p><a href="${ctx.href(`/hotels/${b.hotel_id}`)}">Hotel details</a></p>` : ''}
${change ? html`<h2>Change date</h2>${errorSummary(errors)}${change}` : ''}
${b.status === 'Confirmed' && b.date >= ctx.site.today ? html`<h2>Cancel</h2>${postForm(ctx.href(`/trips/${b.ref}/cancel`), submit('Cancel booking', { variant: 'danger' }))}` : ''}
<p><a href="${ctx.href('/trips')}">Back to my trips</a></p>`,
  });
}

function changeDate(ctx: RequestCtx): Reply {
  const b = findBooking(ctx);
  if (!b) return ctx.notFound('We could not find that booking.');
  if (!changeable(ctx, b)) {
    ctx.flash(`Booking ${b.ref} can no longer be changed.`);
    return ctx.redirect(`/trips/${b.ref}`);
  }
  const date = ctx.field('date');
  if (b.kind === 'flight') {
    const flight = b.flight_id === null ? undefined : getFlight(ctx.db, b.flight_id);
    const next = flight ? flightDates(ctx.db, flight.code, addDays(ctx.site.today, 1)).find((f) => f.date === date && f.date !== b.date) : undefined;
    if (!next) return tripPage(ctx, b, { date }, { date: 'Choose one of the listed dates.' });
    if (next.seats_left < b.travellers) return tripPage(ctx, b, { date }, { date: `Only ${plural(next.seats_left, 'seat')} left on ${date}.` });
    const total = flightTotal({ price: next.price, fare: b.fare, travellers: b.travellers, bags: b.bags, insurance: b.insurance });
    ctx.db.prepare('UPDATE bookings SET flight_id = ?, date = ?, total = ? WHERE ref = ?').run(next.id, next.date, total, b.ref);
  } else {
    const last = addDays(ctx.site.today, 365);
    if (!isDate(date)) return tripPage(ctx, b, { date }, { date: 'Enter the new check-in date as YYYY-MM-DD.' });
    if (date <= ctx.site.today || date > last) return tripPage(ctx, b, { date }, { date: `Choose a date after ${ctx.site.today} and up to ${last}.` });
    if (date === b.date) return tripPage(ctx, b, { date }, { date: 'That is already the check-in date.' });
    const room = b.hotel_id === null ? undefined : roomsOf(ctx.db, b.hotel_id).find((r) => r.name === b.room);
    const total = room ? hotelTotal({ price: room.price, nights: b.nights, travellers: b.travellers, breakfast: b.breakfast, late_checkout: b.late_checkout }) : b.total;
    ctx.db.prepare('UPDATE bookings SET date = ?, total = ? WHERE ref = ?').run(date, total, b.ref);
  }
  ctx.flash(`Booking ${b.ref} now ${b.kind === 'flight' ? 'departs' : 'checks in'} on ${date}.`);
  return ctx.redirect(`/trips/${b.ref}`);
}

function cancelBooking(ctx: RequestCtx): Reply {
  const b = findBooking(ctx);
  if (!b) return ctx.notFound('We could not find that booking.');
  if (b.status !== 'Confirmed' || b.date < ctx.site.today) {
    ctx.flash(`Booking ${b.ref} is ${b.status.toLowerCase()} and cannot be cancelled.`);
    return ctx.redirect(`/trips/${b.ref}`);
  }
  ctx.db.prepare("UPDATE bookings SET status = 'Cancelled' WHERE ref = ?").run(b.ref);
  ctx.flash(`Booking ${b.ref} has been cancelled.`);
  return ctx.redirect(`/trips/${b.ref}`);
}

const PROFILE_FIELDS = ['name', 'email', 'phone', 'birth_date', 'passport', 'home_airport', 'seat'] as const;

function profilePage(ctx: RequestCtx, values?: Record<string, string>, errors: Record<string, string> = {}): Reply {
  const me = profile(ctx.db);
  const v: Record<string, string> = values ?? { ...Object.fromEntries(PROFILE_FIELDS.map((k) => [k, String(me[k])])), newsletter: String(me.newsletter) };
  return ctx.render({
    title: 'Traveller profile',
    status: Object.keys(errors).length ? 422 : 200,
    body: html`<p>Loyalty number: <strong>${me.loyalty}</strong></p>${errorSummary(errors)}${postForm(ctx.href('/profile'), html`
${textField({ label: 'Full name', name: 'name', value: v.name, error: errors.name })}
${textField({ label: 'Email', name: 'email', type: 'email', value: v.email, error: errors.email })}
${textField({ label: 'Phone', name: 'phone', type: 'tel', value: v.phone, error: errors.phone })}
${textField({ label: 'Date of birth', name: 'birth_date', type: 'date', value: v.birth_date, error: errors.birth_date })}
${textField({ label: 'Passport number', name: 'passport', value: v.passport, error: errors.passport })}
${selectField({ label: 'Home airport', name: 'home_airport', value: v.home_airport, options: airports(ctx.db).map((a) => ({ value: a.code, text: airportText(a) })), error: errors.home_airport })}
${selectField({ label: 'Seat preference', name: 'seat', value: v.seat, options: SEATS, error: errors.seat })}
${checkbox({ label: 'Email me travel deals', name: 'newsletter', checked: v.newsletter === '1' })}
${submit('Save profile')}`, { label: 'Traveller profile' })}`,
  });
}

function saveProfile(ctx: RequestCtx): Reply {
  const v: Record<string, string> = Object.fromEntries(PROFILE_FIELDS.map((k) => [k, ctx.field(k)]));
  v.newsletter = ctx.field('newsletter') === '1' ? '1' : '0';
  v.passport = (v.passport ?? '').toUpperCase();
  const errors: Record<string, string> = {};
  if (!v.name || v.name.length > 80) errors.name = 'Enter your full name (at most 80 characters).';
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(v.email ?? '')) errors.email = 'Enter a valid email address.';
  if (!/^[0-9()+\-. ]{7,20}$/.test(v.phone ?? '')) errors.phone = 'Enter a phone number (digits, spaces, dashes, parentheses).';
  if (!isDate(v.birth_date ?? '') || (v.birth_date ?? '') >= ctx.site.today) errors.birth_date = 'Enter your date of birth as YYYY-MM-DD.';
  if (!/^[A-Z0-9]{6,12}$/.test(v.passport ?? '')) errors.passport = 'A passport number has 6 to 12 letters and digits.';
  if (!airports(ctx.db).some((a) => a.code === v.home_airport)) errors.home_airport = 'Choose your home airport.';
  if (!SEATS.some((s) => s.value === v.seat)) errors.seat = 'Choose a seat preference.';
  if (Object.keys(errors).length) return profilePage(ctx, v, errors);
  ctx.db.prepare('UPDATE profile SET name = ?, email = ?, phone = ?, birth_date = ?, passport = ?, home_airport = ?, seat = ?, newsletter = ? WHERE id = 1')
    .run(v.name, v.email, v.phone, v.birth_date, v.passport, v.home_airport, v.seat, Number(v.newsletter));
  ctx.flash('Your profile was saved.');
  return ctx.redirect('/profile');
}

/** Registers trips, the profile and the JSON API. */
export function tripRoutes(r: Router<Handler>): void {
  r.get('/trips', tripsPage);
  r.get('/trips/:ref', (ctx) => {
    const b = findBooking(ctx);
    return b ? tripPage(ctx, b) : ctx.notFound('We could not find that booking.');
  });
  r.post('/trips/:ref/change', changeDate);
  r.post('/trips/:ref/cancel', cancelBooking);
  r.get('/profile', (ctx) => profilePage(ctx));
  r.post('/profile', saveProfile);
  r.get('/api/flights', (ctx) => {
    const [from, to, date] = [ctx.q('from').toUpperCase(), ctx.q('to').toUpperCase(), ctx.q('date')];
    if (!from || !to) return ctx.json({ error: 'from and to are required airport codes' }, 400);
    if (date && !isDate(date)) return ctx.json({ error: 'date must be YYYY-MM-DD' }, 400);
    const list = findFlights(ctx.db, { from, to, date: date || undefined, fromDate: ctx.site.today, sort: ctx.q('sort') });
    return ctx.json({ total: list.length, last_date: addDays(ctx.site.today, FLIGHT_DAYS.after), flights: list.map((f) => ({ ...f, url: ctx.href(`/flights/${f.id}`) })) });
  });
  r.get('/api/hotels', (ctx) => {
    const list = findHotels(ctx.db, { q: ctx.q('q'), city: ctx.q('city').toUpperCase(), sort: ctx.q('sort') });
    return ctx.json({ total: list.length, hotels: list.map((h) => ({ ...h, amenities: h.amenities.split(', '), url: ctx.href(`/hotels/${h.id}`) })) });
  });
  r.get('/api/trips', (ctx) => ctx.json(bookings(ctx.db, 'all', ctx.site.today).map((b) => ({ ...b, travellers_names: travellersOf(ctx.db, b.ref) }))));
}
