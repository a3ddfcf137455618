/**
 * The travel template's multi-step booking flow: a selected flight or room becomes a checkout, then travellers,
 * extras, review, and on confirmation a booking with a readable reference.
 * @module
 */
import { hashSeed } from '../../database';
import { html, type SafeHtml } from '../../html';
import { checkbox, errorSummary, idOf, plural, postForm, radioGroup, selectField, submit, textArea, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { addDays } from '../../values';
import { price, themeOf } from './common';
import {
  BAG_FEE, BREAKFAST_FEE, FARES, INSURANCE_FEE, LATE_CHECKOUT_FEE, MEALS, SEATS, farePrice, flightTotal, hotelTotal,
} from './pricing';
import { getCheckout, getFlight, getHotel, roomsOf, type CheckoutRow } from './queries';

const STEPS = ['travellers', 'extras', 'review'] as const;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const PHONE = /^[0-9()+\-. ]{7,20}$/;

/** The accessible name of the n-th traveller's name field. */
export function travellerLabel(kind: string, n: number): string {
  return kind === 'hotel' ? 'Lead guest full name' : `Traveller ${n} full name`;
}

/** The label of the bags select's options. */
export function bagsText(n: number): string {
  return n ? plural(n, 'checked bag') : 'No checked bags';
}

function stepHeader(c: CheckoutRow, n: number): SafeHtml {
  return html`<p class="muted">Step ${n} of 4 · ${c.title}</p>`;
}

function withCheckout(run: (ctx: RequestCtx, c: CheckoutRow) => Reply): Handler {
  return (ctx) => {
    const id = idOf(ctx.params.id);
    const c = id === undefined ? undefined : getCheckout(ctx.db, id);
    return c ? run(ctx, c) : ctx.notFound('That booking is no longer in progress. It was confirmed or discarded.');
  };
}

function reached(c: CheckoutRow, step: (typeof STEPS)[number]): boolean {
  return STEPS.indexOf(c.step as (typeof STEPS)[number]) >= STEPS.indexOf(step);
}

function discardForm(ctx: RequestCtx, c: CheckoutRow): SafeHtml {
  return postForm(ctx.href(`/checkout/${c.id}/discard`), submit('Discard booking', { variant: 'danger' }), { inline: true });
}

function travellersPage(ctx: RequestCtx, c: CheckoutRow, values?: Record<string, string>, errors: Record<string, string> = {}): Reply {
  const names = c.names.split('\n');
  const count = c.kind === 'hotel' ? 1 : c.travellers;
  const v: Record<string, string> = values ?? { email: c.email, phone: c.phone, ...Object.fromEntries(names.map((n, i) => [`name${i + 1}`, n])) };
  return ctx.render({
    title: c.kind === 'hotel' ? 'Guest details' : 'Traveller details',
    status: Object.keys(errors).length ? 422 : 200,
    body: html`${stepHeader(c, 2)}${errorSummary(errors)}${postForm(ctx.href(`/checkout/${c.id}/travellers`), html`
${Array.from({ length: count }, (_, i) => textField({ label: travellerLabel(c.kind, i + 1), name: `name${i + 1}`, value: v[`name${i + 1}`], error: errors[`name${i + 1}`] }))}
${textField({ label: 'Contact email', name: 'email', type: 'email', value: v.email, error: errors.email })}
${textField({ label: 'Contact phone', name: 'phone', type: 'tel', value: v.phone, error: errors.phone })}
${submit('Continue to extras')}`, { label: 'Traveller details' })}${discardForm(ctx, c)}`,
  });
}

const saveTravellers = withCheckout((ctx, c) => {
  const count = c.kind === 'hotel' ? 1 : c.travellers;
  const values: Record<string, string> = { email: ctx.field('email'), phone: ctx.field('phone') };
  const errors: Record<string, string> = {};
  for (let i = 1; i <= count; i++) {
    const name = ctx.field(`name${i}`);
    values[`name${i}`] = name;
    if (!name) errors[`name${i}`] = `Enter the full name of ${c.kind === 'hotel' ? 'the lead guest' : `traveller ${i}`}.`;
    else if (name.length > 80 || /[\n\r]/.test(name)) errors[`name${i}`] = 'A name can be at most 80 characters on one line.';
  }
  if (!EMAIL.test(values.email ?? '')) errors.email = 'Enter a valid email address.';
  if (!PHONE.test(values.phone ?? '')) errors.phone = 'Enter a phone number (digits, spaces, dashes, parentheses).';
  if (Object.keys(errors).length) return travellersPage(ctx, c, values, errors);
  const names = Array.from({ length: count }, (_, i) => values[`name${i + 1}`]).join('\n');
  const step = reached(c, 'extras') ? c.step : 'extras';
  ctx.db.prepare('UPDATE checkouts SET names = ?, email = ?, phone = ?, step = ? WHERE id = ?').run(names, values.email, values.phone, step, c.id);
  return ctx.redirect(`/checkout/${c.id}/extras`);
});

function extrasPage(ctx: RequestCtx, c: CheckoutRow, values?: Record<string, string>, errors: Record<string, string> = {}): Reply {
  if (!reached(c, 'extras')) return ctx.redirect(`/checkout/${c.id}/travellers`);
  const v: Record<string, string> = values ?? { seat: c.seat, bags: String(c.bags), meal: c.meal, insurance: String(c.insurance), breakfast: String(c.breakfast),
    late_checkout: String(c.late_checkout), requests: c.requests };
  const fee = (n: number): string => price(ctx.site, n);
  const fields = c.kind === 'flight'
    ? html`${radioGroup({ legend: 'Seat preference', name: 'seat', value: v.seat, options: SEATS, error: errors.seat })}
${selectField({ label: 'Checked bags per traveller', name: 'bags', value: v.bags, options: [0, 1, 2].map((n) => ({ value: String(n), text: bagsText(n) })), error: errors.bags })}
<p class="muted">Each checked bag costs ${fee(BAG_FEE)} per traveller.</p>
${selectField({ label: 'Meal', name: 'meal', value: v.meal, options: MEALS, error: errors.meal })}
${checkbox({ label: 'Add travel insurance', name: 'insurance', checked: v.insurance === '1' })}<p class="muted">Travel insurance costs ${fee(INSURANCE_FEE)} per traveller.</p>`
    : html`${checkbox({ label: 'Add breakfast', name: 'breakfast', checked: v.breakfast === '1' })}<p class="muted">Breakfast costs ${fee(BREAKFAST_FEE)} per guest per night.</p>
${checkbox({ label: 'Late checkout', name: 'late_checkout', checked: v.late_checkout === '1' })}<p class="muted">Late checkout (until 2 PM) costs ${fee(LATE_CHECKOUT_FEE)}.</p>
${textArea({ label: 'Special requests', name: 'requests', value: v.requests, rows: 3, error: errors.requests })}`;
  return ctx.render({
    title: 'Extras',
    status: Object.keys(errors).length ? 422 : 200,
    body: html`${stepHeader(c, 3)}${errorSummary(errors)}${postForm(ctx.href(`/checkout/${c.id}/extras`), html`${fields}${submit('Continue to review')}`, { label: 'Extras' })}
<p><a href="${ctx.href(`/checkout/${c.id}/travellers`)}">Back to traveller details</a></p>${discardForm(ctx, c)}`,
  });
}

const saveExtras = withCheckout((ctx, c) => {
  if (!reached(c, 'extras')) return ctx.redirect(`/checkout/${c.id}/travellers`);
  const v = { seat: ctx.field('seat') || 'any', bags: ctx.field('bags') || '0', meal: ctx.field('meal') || 'standard', insurance: ctx.field('insurance') === '1' ? '1' : '0',
    breakfast: ctx.field('breakfast') === '1' ? '1' : '0', late_checkout: ctx.field('late_checkout') === '1' ? '1' : '0', requests: ctx.field('requests') };
  const errors: Record<string, string> = {};
  if (!SEATS.some((s) => s.value === v.seat)) errors.seat = 'Choose a seat preference.';
  if (!/^[0-2]$/.test(v.bags)) errors.bags = 'Choose 0, 1 or 2 checked bags.';
  if (!MEALS.some((m) => m.value === v.meal)) errors.meal = 'Choose a meal.';
  if (v.requests.length > 500) errors.requests = 'Special requests can be at most 500 characters.';
  if (Object.keys(errors).length) return extrasPage(ctx, c, v, errors);
  ctx.db.prepare('UPDATE checkouts SET seat = ?, bags = ?, meal = ?, insurance = ?, breakfast = ?, late_checkout = ?, requests = ?, step = ? WHERE id = ?')
    .run(v.seat, Number(v.bags), v.meal, Number(v.insurance), Number(v.breakfast), Number(v.late_checkout), c.kind === 'hotel' ? v.requests : '', 'review', c.id);
  return ctx.redirect(`/checkout/${c.id}/review`);
});

/** The checkout's total and the lines that make it up; `undefined` when its flight or room is gone. */
function quote(ctx: RequestCtx, c: CheckoutRow): { total: number; lines: Array<[string, number]> } | undefined {
  if (c.kind === 'flight') {
    const f = c.flight_id === null ? undefined : getFlight(ctx.db, c.flight_id);
    if (!f) return undefined;
    const fare = FARES.find((x) => x.value === c.fare) ?? FARES[0];
    const lines: Array<[string, number]> = [[`${fare.text} fare × ${c.travellers}`, farePrice(f.price, fare.value) * c.travellers]];
    if (c.bags) lines.push([`${bagsText(c.bags)} × ${c.travellers}`, c.bags * BAG_FEE * c.travellers]);
    if (c.insurance) lines.push([`Travel insurance × ${c.travellers}`, INSURANCE_FEE * c.travellers]);
    return { total: flightTotal({ price: f.price, fare: fare.value, travellers: c.travellers, bags: c.bags, insurance: c.insurance }), lines };
  }
  const room = c.hotel_id === null ? undefined : roomsOf(ctx.db, c.hotel_id).find((r) => r.name === c.room);
  if (!room) return undefined;
  const lines: Array<[string, number]> = [[`${c.room} × ${plural(c.nights, 'night')}`, room.price * c.nights]];
  if (c.breakfast) lines.push([`Breakfast for ${plural(c.travellers, 'guest')} × ${plural(c.nights, 'night')}`, BREAKFAST_FEE * c.travellers * c.nights]);
  if (c.late_checkout) lines.push(['Late checkout', LATE_CHECKOUT_FEE]);
  return { total: hotelTotal({ price: room.price, nights: c.nights, travellers: c.travellers, breakfast: c.breakfast, late_checkout: c.late_checkout }), lines };
}

const reviewPage = withCheckout((ctx, c) => {
  if (!reached(c, 'review')) return ctx.redirect(`/checkout/${c.id}/${reached(c, 'extras') ? 'extras' : 'travellers'}`);
  const q = quote(ctx, c);
  if (!q) return ctx.notFound('The flight or room of this booking is no longer available.');
  const yes = (n: number): string => (n ? 'Yes' : 'No');
  const details = c.kind === 'flight'
    ? html`<tr><th>Date</th><td>${c.date}</td></tr><tr><th>Fare</th><td>${FARES.find((f) => f.value === c.fare)?.text ?? c.fare}</td></tr>
<tr><th>Seat preference</th><td>${SEATS.find((s) => s.value === c.seat)?.text ?? c.seat}</td></tr><tr><th>Checked bags</th><td>${bagsText(c.bags)} per traveller</td></tr>
<tr><th>Meal</th><td>${MEALS.find((m) => m.value === c.meal)?.text ?? c.meal}</td></tr><tr><th>Travel insurance</th><td>${yes(c.insurance)}</td></tr>`
    : html`<tr><th>Room</th><td>${c.room}</td></tr><tr><th>Check-in</th><td>${c.date}</td></tr><tr><th>Check-out</th><td>${addDays(c.date, c.nights)}</td></tr>
<tr><th>Guests</th><td>${c.travellers}</td></tr><tr><th>Breakfast</th><td>${yes(c.breakfast)}</td></tr><tr><th>Late checkout</th><td>${yes(c.late_checkout)}</td></tr>
${c.requests ? html`<tr><th>Special requests</th><td>${c.requests}</td></tr>` : ''}`;
  return ctx.render({
    title: 'Review your booking',
    body: html`${stepHeader(c, 4)}<table><tbody><tr><th>Trip</th><td>${c.title}</td></tr>${details}
<tr><th>${c.kind === 'hotel' ? 'Lead guest' : 'Travellers'}</th><td>${c.names.split('\n').join(', ')}</td></tr><tr><th>Contact</th><td>${c.email} · ${c.phone}</td></tr></tbody></table>
<h2>Price</h2><table><tbody>${q.lines.map(([label, amount]) => html`<tr><td>${label}</td><td>${price(ctx.site, amount)}</td></tr>`)}
<tr><th>Total</th><th>${price(ctx.site, q.total)}</th></tr></tbody></table>
<p><a href="${ctx.href(`/checkout/${c.id}/travellers`)}">Change traveller details</a> · <a href="${ctx.href(`/checkout/${c.id}/extras`)}">Change extras</a></p>
${postForm(ctx.href(`/checkout/${c.id}/confirm`), submit('Confirm booking'), { label: 'Confirm booking' })}${discardForm(ctx, c)}`,
  });
});

function newRef(ctx: RequestCtx, c: CheckoutRow): string {
  const prefix = themeOf(ctx.site).prefix;
  const taken = ctx.db.prepare('SELECT 1 FROM bookings WHERE ref = ?');
  for (let n = 0; ; n++) {
    const code = hashSeed(`${ctx.site.name}:${c.id}:${c.title}:${n}`).toString(36).toUpperCase().padStart(6, '7').slice(-6);
    const ref = `${prefix}-${code}`;
    if (!taken.get(ref)) return ref;
  }
}

const confirm = withCheckout((ctx, c) => {
  if (!reached(c, 'review')) return ctx.redirect(`/checkout/${c.id}/travellers`);
  const q = quote(ctx, c);
  if (!q) return ctx.notFound('The flight or room of this booking is no longer available.');
  if (c.kind === 'flight' && c.flight_id !== null && (getFlight(ctx.db, c.flight_id)?.seats_left ?? 0) < c.travellers) {
    ctx.flash('There are not enough seats left on this flight any more.');
    return ctx.redirect(`/flights/${c.flight_id}`);
  }
  const names = c.names.split('\n').filter(Boolean);
  const ref = newRef(ctx, c);
  const title = c.kind === 'flight' ? c.title.replace(/, \d{4}-\d{2}-\d{2}$/, '') : c.title;
  ctx.db.prepare(`INSERT INTO bookings (ref, title, kind, flight_id, hotel_id, room, fare, date, nights, travellers, lead_name, email, phone, seat, bags,
    meal, insurance, breakfast, late_checkout, requests, total, status, booked) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'Confirmed', ?)`)
    .run(ref, title, c.kind, c.flight_id, c.hotel_id, c.room, c.fare, c.date, c.nights, c.travellers, names[0] ?? '', c.email, c.phone, c.seat, c.bags, c.meal,
      c.insurance, c.breakfast, c.late_checkout, c.requests, q.total, ctx.site.today);
  const addTraveller = ctx.db.prepare('INSERT INTO travellers (booking_ref, name) VALUES (?, ?)');
  for (const name of names) addTraveller.run(ref, name);
  ctx.db.prepare('DELETE FROM checkouts WHERE id = ?').run(c.id);
  ctx.flash(`Booking confirmed. Your booking reference is ${ref}.`);
  return ctx.redirect(`/trips/${ref}`);
});

const discard = withCheckout((ctx, c) => {
  ctx.db.prepare('DELETE FROM checkouts WHERE id = ?').run(c.id);
  ctx.flash(`Discarded the booking of ${c.title}.`);
  if (c.kind === 'flight' && c.flight_id !== null) return ctx.redirect(`/flights/${c.flight_id}`);
  return c.hotel_id !== null && getHotel(ctx.db, c.hotel_id) ? ctx.redirect(`/hotels/${c.hotel_id}`) : ctx.redirect('/');
});

/** Registers the booking flow's steps. */
export function checkoutRoutes(r: Router<Handler>): void {
  r.get('/checkout/:id/travellers', withCheckout((ctx, c) => travellersPage(ctx, c)));
  r.post('/checkout/:id/travellers', saveTravellers);
  r.get('/checkout/:id/extras', withCheckout((ctx, c) => extrasPage(ctx, c)));
  r.post('/checkout/:id/extras', saveExtras);
  r.get('/checkout/:id/review', reviewPage);
  r.post('/checkout/:id/confirm', confirm);
  r.post('/checkout/:id/discard', discard);
}
