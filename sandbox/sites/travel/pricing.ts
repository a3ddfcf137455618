/** The travel template's fares, extras and how a booking's total is worked out. @module */
import { cents } from '../../values';

/** Fare classes: stored value, label, price factor over the economy fare. */
export const FARES = [
  { value: 'economy', text: 'Economy', factor: 1 },
  { value: 'premium', text: 'Premium economy', factor: 1.6 },
  { value: 'business', text: 'Business', factor: 2.75 },
] as const;

/** Seat preferences: stored value and label. */
export const SEATS = [
  { value: 'any', text: 'No preference' },
  { value: 'window', text: 'Window' },
  { value: 'aisle', text: 'Aisle' },
] as const;

/** In-flight meals: stored value and label. */
export const MEALS = [
  { value: 'standard', text: 'Standard meal' },
  { value: 'vegetarian', text: 'Vegetarian meal' },
  { value: 'vegan', text: 'Vegan meal' },
  { value: 'gluten-free', text: 'Gluten-free meal' },
] as const;

/** A checked bag, per bag and traveller. */
export const BAG_FEE = 35;
/** Travel insurance, per traveller. */
export const INSURANCE_FEE = 24;
/** Hotel breakfast, per guest and night. */
export const BREAKFAST_FEE = 18;
/** A hotel's late checkout, per stay. */
export const LATE_CHECKOUT_FEE = 30;
/** The most travellers on one booking. */
export const MAX_TRAVELLERS = 6;
/** The longest hotel stay. */
export const MAX_NIGHTS = 14;

/** The price of one traveller's ticket in a fare class. */
export function farePrice(economy: number, fare: string): number {
  return cents(economy * (FARES.find((f) => f.value === fare)?.factor ?? 1));
}

/** What a flight booking costs. */
export function flightTotal(b: { price: number; fare: string; travellers: number; bags: number; insurance: number }): number {
  return cents(farePrice(b.price, b.fare) * b.travellers + b.bags * BAG_FEE * b.travellers + (b.insurance ? INSURANCE_FEE * b.travellers : 0));
}

/** What a hotel booking costs. */
export function hotelTotal(b: { price: number; nights: number; travellers: number; breakfast: number; late_checkout: number }): number {
  return cents(b.price * b.nights + (b.breakfast ? BREAKFAST_FEE * b.travellers * b.nights : 0) + (b.late_checkout ? LATE_CHECKOUT_FEE : 0));
}

/** `2h 05m` */
export function durationText(minutes: number): string {
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/** `Nonstop`, `1 stop (DEN)`, `2 stops (DEN, ORD)` */
export function stopsText(stops: number, via: string): string {
  if (!stops) return 'Nonstop';
  return `${stops} stop${stops === 1 ? '' : 's'} (${via})`;
}
