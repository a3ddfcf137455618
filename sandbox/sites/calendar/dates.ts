/** Calendar dates as `YYYY-MM-DD` strings, computed in UTC so no time zone can shift a day. @module */
import { addDays } from '../../values';

/** Weekday names, Sunday first (as `Date.getUTCDay`). */
export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
/** Month names. */
export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;

function parse(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

/** Whether `text` is a time `HH:MM` (24 hours). */
export function isTime(text: string): boolean {
  return /^([01]\d|2[0-3]):[0-5]\d$/.test(text);
}

/** 0 (Sunday) to 6. */
export function weekday(date: string): number {
  return parse(date).getUTCDay();
}

/** The first day of the week holding `date` (`start` 1: Monday, 0: Sunday). */
export function weekStart(date: string, start = 1): string {
  return addDays(date, -((weekday(date) - start + 7) % 7));
}

/** `Monday, March 16, 2026` */
export function longDate(date: string): string {
  const d = parse(date);
  return `${WEEKDAYS[d.getUTCDay()]}, ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}

/** `Mon 16` */
export function shortDay(date: string): string {
  const d = parse(date);
  return `${WEEKDAYS[d.getUTCDay()]?.slice(0, 3)} ${d.getUTCDate()}`;
}

/** `2026-03` of a date. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

/** Whether `text` is a month `YYYY-MM`. */
export function isMonth(text: string): boolean {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(text);
}

/** `March 2026` */
export function monthTitle(month: string): string {
  return `${MONTHS[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;
}

/** The month before or after (`delta` months). */
export function addMonths(month: string, delta: number): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7)) - 1 + delta;
  const yy = y + Math.floor(m / 12);
  return `${yy}-${String((((m % 12) + 12) % 12) + 1).padStart(2, '0')}`;
}

/** Minutes since midnight of `HH:MM`. */
export function minutes(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/** `HH:MM` of minutes since midnight. */
export function clock(mins: number): string {
  return `${String(Math.floor(mins / 60)).padStart(2, '0')}:${String(mins % 60).padStart(2, '0')}`;
}
