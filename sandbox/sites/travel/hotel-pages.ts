/** The travel template's hotel search with filters, sort and pages, hotel details, reservations and saved hotels. @module */
import { html, type SafeHtml } from '../../html';
import { errorSummary, idOf, pageNumber, pager, paginate, plural, postForm, selectField, submit, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { addDays, isDate } from '../../values';
import { price } from './common';
import { MAX_NIGHTS, MAX_TRAVELLERS } from './pricing';
import { HOTEL_SORTS, airports, findHotels, getHotel, profile, roomsOf, savedHotels, type HotelRow } from './queries';
import { AMENITIES } from './themes';

/** Hotels per results page. */
export const HOTEL_PAGE_SIZE = 10;

/** Minimum star filters: value, label. */
export const STAR_FILTERS = [
  { value: '', text: 'Any star rating' },
  { value: '3', text: '3 stars or more' },
  { value: '4', text: '4 stars or more' },
  { value: '5', text: '5 stars' },
] as const;

/** `8.7/10 (1,204 reviews)` */
export function ratingText(h: Pick<HotelRow, 'rating' | 'reviews'>): string {
  return `${h.rating.toFixed(1)}/10 (${h.reviews.toLocaleString('en-US')} reviews)`;
}

function card(ctx: RequestCtx, h: HotelRow): SafeHtml {
  return html`<div class="card"><a href="${ctx.href(`/hotels/${h.id}`)}">${h.name}</a><div>${h.city_name} · ${h.area}</div>
<div>${'★'.repeat(h.stars)} <span class="muted">${h.stars} stars</span></div><div>Guest rating ${ratingText(h)}</div>
<div>From <strong>${price(ctx.site, h.price)}</strong> per night</div></div>`;
}

function hotelSearch(ctx: RequestCtx): Reply {
  const q = ctx.q('q');
  const city = ctx.q('city').toUpperCase();
  const stars = ctx.q('stars');
  const maxRaw = ctx.q('max_price');
  const amenity = ctx.q('amenity');
  const sort = ctx.q('sort') || 'recommended';
  const page = pageNumber(ctx.q('page'));
  if (page === undefined) return ctx.badRequest('The page number must be a positive whole number.');
  const cities = airports(ctx.db);
  const cityRow = cities.find((c) => c.code === city);
  const errors: Record<string, string> = {};
  if (city && !cityRow) errors.city = 'Choose one of the listed cities.';
  if (!STAR_FILTERS.some((s) => s.value === stars)) errors.stars = 'Choose a star rating from the list.';
  const maxPrice = maxRaw === '' ? undefined : Number(maxRaw);
  if (maxPrice !== undefined && !(Number.isFinite(maxPrice) && maxPrice >= 0)) errors.max_price = 'Max price must be a number, like 150.';
  if (amenity && !(AMENITIES as readonly string[]).includes(amenity)) errors.amenity = 'Choose one of the listed amenities.';
  if (!HOTEL_SORTS.some((s) => s.value === sort)) errors.sort = 'Choose one of the listed sort orders.';
  const ok = !Object.keys(errors).length;
  const all = ok ? findHotels(ctx.db, { q, city, minStars: stars ? Number(stars) : undefined, maxPrice, amenity, sort }) : [];
  const paged = paginate(all, page, HOTEL_PAGE_SIZE);
  if (!paged) return ctx.notFound(`There is no page ${page} of these results.`);
  const { items: shown, pages, first } = paged;
  const query = { q, city, stars, max_price: maxRaw, amenity, sort: sort === 'recommended' ? '' : sort };
  return ctx.render({
    title: q ? `Hotels matching "${q}"` : cityRow ? `Hotels in ${cityRow.name}` : 'Hotels',
    status: ok ? 200 : 422,
    body: html`${errorSummary(errors)}<form method="get" action="${ctx.href('/hotels')}" aria-label="Filter hotels" class="row">
${q ? html`<input type="hidden" name="q" value="${q}">` : ''}
${selectField({ label: 'City', name: 'city', value: city, options: [{ value: '', text: 'Any city' }, ...cities.map((c) => ({ value: c.code, text: c.name }))] })}
${selectField({ label: 'Minimum stars', name: 'stars', value: stars, options: STAR_FILTERS })}
${textField({ label: 'Max price per night', name: 'max_price', type: 'number', value: maxRaw, min: 0 })}
${selectField({ label: 'Amenity', name: 'amenity', value: amenity, options: [{ value: '', text: 'Any amenities' }, ...AMENITIES.map((a) => ({ value: a, text: a }))] })}
${selectField({ label: 'Sort by', name: 'sort', value: sort, options: HOTEL_SORTS })}
${submit('Apply filters')} <a href="${ctx.href('/hotels')}">Clear filters</a></form>
<p>${all.length ? `${plural(all.length, 'hotel')} found, showing ${first}–${first + shown.length - 1}` : 'No hotels match your search.'}</p>
<div class="grid">${shown.map((h) => card(ctx, h))}</div>
${pager({ page, pages, href: (n) => ctx.href('/hotels', { ...query, page: n === 1 ? '' : n }) })}`,
  });
}

function hotelPage(ctx: RequestCtx, h: HotelRow, values: Record<string, string> = {}, errors: Record<string, string> = {}): Reply {
  const rooms = roomsOf(ctx.db, h.id);
  const saved = savedHotels(ctx.db).some((s) => s.hotel_id === h.id);
  const v = { room: rooms[0]?.name ?? '', checkin: addDays(ctx.site.today, 7), nights: '2', guests: '2', ...values };
  return ctx.render({
    title: h.name,
    status: Object.keys(errors).length ? 422 : 200,
    body: html`<p>${'★'.repeat(h.stars)} ${h.stars}-star hotel · ${h.area}, <a href="${ctx.href(`/destinations/${h.city}`)}">${h.city_name}</a></p>
<p>${h.address}</p><p>Guest rating ${ratingText(h)}</p><p>${h.description}</p>
<h2>Amenities</h2><ul>${h.amenities.split(', ').map((a) => html`<li>${a}</li>`)}</ul>
${postForm(ctx.href(`/hotels/${h.id}/${saved ? 'unsave' : 'save'}`), submit(saved ? 'Remove from saved' : 'Save hotel', { variant: 'secondary' }))}
<h2>Rooms</h2><table><thead><tr><th>Room</th><th>Sleeps</th><th>Price per night</th></tr></thead><tbody>${rooms.map(
      (r) => html`<tr><td>${r.name}</td><td>${plural(r.sleeps, 'guest')}</td><td>${price(ctx.site, r.price)}</td></tr>`,
    )}</tbody></table>
<h2>Reserve a room</h2>${errorSummary(errors)}${postForm(ctx.href(`/hotels/${h.id}/select`), html`
${selectField({ label: 'Room', name: 'room', value: v.room, options: rooms.map((r) => ({ value: r.name, text: r.name })), error: errors.room })}
${textField({ label: 'Check-in date', name: 'checkin', type: 'date', value: v.checkin, error: errors.checkin })}
${selectField({ label: 'Nights', name: 'nights', value: v.nights, options: Array.from({ length: MAX_NIGHTS }, (_, i) => ({ value: String(i + 1), text: plural(i + 1, 'night') })), error: errors.nights })}
${selectField({ label: 'Guests', name: 'guests', value: v.guests, options: Array.from({ length: MAX_TRAVELLERS }, (_, i) => ({ value: String(i + 1), text: plural(i + 1, 'guest') })), error: errors.guests })}
${submit('Reserve')}`, { label: 'Reserve a room' })}`,
  });
}

function findHotel(ctx: RequestCtx): HotelRow | undefined {
  const id = idOf(ctx.params.id);
  return id === undefined ? undefined : getHotel(ctx.db, id);
}

function reserve(ctx: RequestCtx): Reply {
  const h = findHotel(ctx);
  if (!h) return ctx.notFound('That hotel does not exist.');
  const values = { room: ctx.field('room'), checkin: ctx.field('checkin'), nights: ctx.field('nights'), guests: ctx.field('guests') };
  const room = roomsOf(ctx.db, h.id).find((r) => r.name === values.room);
  const last = addDays(ctx.site.today, 365);
  const errors: Record<string, string> = {};
  if (!room) errors.room = 'Choose a room.';
  if (!isDate(values.checkin)) errors.checkin = 'Enter the check-in date as YYYY-MM-DD.';
  else if (values.checkin < ctx.site.today || values.checkin > last) errors.checkin = `Choose a check-in date between ${ctx.site.today} and ${last}.`;
  if (!/^\d{1,2}$/.test(values.nights) || Number(values.nights) < 1 || Number(values.nights) > MAX_NIGHTS) errors.nights = `Choose 1 to ${MAX_NIGHTS} nights.`;
  if (!/^[1-6]$/.test(values.guests)) errors.guests = `Choose 1 to ${MAX_TRAVELLERS} guests.`;
  else if (room && Number(values.guests) > room.sleeps) errors.guests = `The ${room.name} sleeps at most ${plural(room.sleeps, 'guest')}.`;
  if (Object.keys(errors).length || !room) return hotelPage(ctx, h, values, errors);
  const me = profile(ctx.db);
  const id = ctx.db.prepare(`INSERT INTO checkouts (title, kind, hotel_id, room, date, nights, travellers, names, email, phone)
    VALUES (?, 'hotel', ?, ?, ?, ?, ?, ?, ?, ?)`).run(`${h.name}, ${h.city_name}`, h.id, room.name, values.checkin, Number(values.nights),
    Number(values.guests), me.name, me.email, me.phone).lastInsertRowid;
  return ctx.redirect(`/checkout/${id}/travellers`);
}

function saveHotel(save: boolean): Handler {
  return (ctx) => {
    const h = findHotel(ctx);
    if (!h) return ctx.notFound('That hotel does not exist.');
    if (save) {
      ctx.db.prepare('INSERT OR IGNORE INTO saved_hotels (hotel_id, name, added) VALUES (?, ?, ?)').run(h.id, h.name, ctx.site.today);
      ctx.flash(`Saved ${h.name} to your list.`);
      return ctx.redirect(`/hotels/${h.id}`);
    }
    ctx.db.prepare('DELETE FROM saved_hotels WHERE hotel_id = ?').run(h.id);
    ctx.flash(`Removed ${h.name} from your saved hotels.`);
    return ctx.redirect(ctx.field('back') === 'saved' ? '/saved' : `/hotels/${h.id}`);
  };
}

function savedPage(ctx: RequestCtx): Reply {
  const list = savedHotels(ctx.db);
  return ctx.render({
    title: 'Saved hotels',
    body: list.length
      ? html`<table><thead><tr><th>Hotel</th><th>Saved</th><th></th></tr></thead><tbody>${list.map(
          (s) => html`<tr><td><a href="${ctx.href(`/hotels/${s.hotel_id}`)}">${s.name}</a></td><td class="muted">${s.added}</td>
<td>${postForm(ctx.href(`/hotels/${s.hotel_id}/unsave`), html`<input type="hidden" name="back" value="saved">${submit('Remove', { label: `Remove ${s.name} from saved`, variant: 'secondary' })}`, { inline: true })}</td></tr>`,
        )}</tbody></table>`
      : html`<p>You have not saved any hotels yet.</p><p><a href="${ctx.href('/hotels')}">Browse hotels</a></p>`,
  });
}

/** Registers hotel search, hotel pages, reservations and saved hotels. */
export function hotelRoutes(r: Router<Handler>): void {
  r.get('/hotels', hotelSearch);
  r.get('/hotels/:id', (ctx) => {
    const h = findHotel(ctx);
    return h ? hotelPage(ctx, h) : ctx.notFound('That hotel does not exist.');
  });
  r.post('/hotels/:id/select', reserve);
  r.post('/hotels/:id/save', saveHotel(true));
  r.post('/hotels/:id/unsave', saveHotel(false));
  r.get('/saved', savedPage);
}
