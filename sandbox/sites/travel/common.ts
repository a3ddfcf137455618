/** Small helpers shared by the travel template's pages and tasks. @module */
import { html, type SafeHtml } from '../../html';
import { money } from '../../layout';
import type { RequestCtx, SiteInfo } from '../../template';
import { durationText, stopsText } from './pricing';
import type { FlightRow } from './queries';
import { THEMES, type TravelTheme } from './themes';

/** The theme of a site's variant. */
export function themeOf(site: Pick<SiteInfo, 'variant'>): TravelTheme {
  return THEMES[(site.variant - 1) % THEMES.length] ?? (THEMES[0] as TravelTheme);
}

/** A price in the site's currency, `€1,234.00`. */
export function price(site: Pick<SiteInfo, 'variant'>, amount: number): string {
  return money(amount, themeOf(site).currency);
}

/** The accessible name of the link to a flight: `View flight BJ482 on 2026-03-24`. */
export function flightLinkName(f: Pick<FlightRow, 'code' | 'date'>): string {
  return `View flight ${f.code} on ${f.date}`;
}

/** `14:05` or `01:10 (+1 day)` */
export function arrivalText(f: Pick<FlightRow, 'depart' | 'arrive' | 'duration'>): string {
  const [h, m] = f.depart.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0) + f.duration >= 1440 ? `${f.arrive} (+1 day)` : f.arrive;
}

/** A table of flights with a link to each. */
export function flightTable(ctx: RequestCtx, list: readonly FlightRow[], passengers = 1): SafeHtml {
  return html`<table><thead><tr><th>Flight</th><th>Date</th><th>Departs</th><th>Arrives</th><th>Duration</th><th>Stops</th><th>Price per traveller</th><th></th></tr></thead>
<tbody>${list.map((f) => html`<tr><td><strong>${f.code}</strong><div class="muted">${f.airline_name}</div></td><td>${f.date}</td>
<td>${f.depart} ${f.origin}</td><td>${arrivalText(f)} ${f.destination}</td><td>${durationText(f.duration)}</td><td>${stopsText(f.stops, f.via)}</td>
<td><strong>${price(ctx.site, f.price)}</strong></td>
<td><a href="${ctx.href(`/flights/${f.id}`, { passengers: passengers > 1 ? passengers : '' })}" aria-label="${flightLinkName(f)}">Details</a></td></tr>`)}</tbody></table>`;
}
