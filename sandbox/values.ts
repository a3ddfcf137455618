/**
 * Plain value helpers the sandbox templates share: calendar dates as `YYYY-MM-DD` strings (computed in UTC so no
 * time zone can shift a day), money rounded to cents, and URL slugs.
 * @module
 */

const DAY_MS = 86_400_000;

/** Whether `text` is a real calendar date written `YYYY-MM-DD` (`2026-02-30` is not). */
export function isDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const t = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === text;
}

/** The date `days` after `date` (`YYYY-MM-DD`; negative `days` go back). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Rounds to cents. */
export function cents(x: number): number {
  return Math.round(x * 100) / 100;
}

/** `Arts & Crafts` → `arts-crafts`: lower case, each run of other characters one hyphen, none at either end. */
export function slugify(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
