/** The calendar template's tables and seeded data: a person's calendars, ten weeks of events, invitations. @module */
import type { Faker } from '@faker-js/faker';
import type { SeedInput, SeedResult } from '../../template';
import { addDays } from '../../values';
import { clock, minutes, weekStart } from './dates';

/** Events carry a `title`, calendars, attendees and settings a `name`, so change lines name them. */
export const CALENDAR_SCHEMA = `
CREATE TABLE calendars (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, color TEXT NOT NULL);
CREATE TABLE events (id INTEGER PRIMARY KEY, title TEXT NOT NULL, calendar_id INTEGER NOT NULL REFERENCES calendars(id),
  date TEXT NOT NULL, start TEXT NOT NULL, end TEXT NOT NULL, location TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
  reminder INTEGER NOT NULL DEFAULT 0);
CREATE TABLE attendees (id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE, name TEXT NOT NULL,
  email TEXT NOT NULL, response TEXT NOT NULL CHECK (response IN ('yes', 'no', 'maybe', 'pending')));
CREATE TABLE invitations (id INTEGER PRIMARY KEY, title TEXT NOT NULL, organizer TEXT NOT NULL, organizer_email TEXT NOT NULL,
  date TEXT NOT NULL, start TEXT NOT NULL, end TEXT NOT NULL, location TEXT NOT NULL,
  response TEXT NOT NULL DEFAULT 'pending' CHECK (response IN ('pending', 'accepted', 'declined', 'maybe')));
CREATE TABLE settings (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, week_start TEXT NOT NULL,
  default_length INTEGER NOT NULL, timezone TEXT NOT NULL);
`;

/** Colors a calendar can have. */
export const COLORS = ['Blue', 'Green', 'Red', 'Orange', 'Purple', 'Teal', 'Gray'] as const;
/** Reminder choices: minutes before and label. */
export const REMINDERS = [[0, 'No reminder'], [10, '10 minutes before'], [30, '30 minutes before'], [60, '1 hour before'], [1440, '1 day before']] as const;
/** Time zones the settings offer. */
export const TIMEZONES = ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles', 'Europe/London', 'Europe/Berlin', 'Asia/Tokyo'] as const;

interface Series {
  title: string;
  day: number;
  start: string;
  length: number;
  calendar: number;
  location: string;
  every?: number;
}

interface Theme {
  title: string;
  calendars: readonly [string, string, string, string];
  series: readonly Series[];
  work: readonly string[];
}

/** One theme per variant: the app's name, the person's calendars, weekly series, work-calendar event titles. */
const THEMES: readonly Theme[] = [
  { title: 'Dayplanner', calendars: ['Work', 'Personal', 'Family', 'Fitness'], work: ['{P} kickoff', 'Quarterly review', 'Interview with {N}', 'Budget meeting', 'Architecture workshop', 'Demo day'],
    series: [{ title: 'Weekly planning', day: 1, start: '10:00', length: 45, calendar: 0, location: 'Room 3A' }, { title: 'Yoga class', day: 4, start: '18:30', length: 60, calendar: 3, location: 'Lotus Studio' }, { title: '1:1 with {M}', day: 2, start: '14:00', length: 30, calendar: 0, location: 'Room 2B', every: 2 }] },
  { title: 'Timewise', calendars: ['School', 'Personal', 'Family', 'Clubs'], work: ['Parent evening', 'Grading session', 'Field trip planning', 'Curriculum meeting', 'Observation by {N}', 'Science fair setup'],
    series: [{ title: 'Staff meeting', day: 1, start: '15:30', length: 60, calendar: 0, location: 'Library' }, { title: 'Chess club', day: 3, start: '15:00', length: 60, calendar: 3, location: 'Room 12' }, { title: 'Swim practice', day: 6, start: '09:00', length: 90, calendar: 3, location: 'City Pool' }] },
  { title: 'Agendum', calendars: ['Shifts', 'Personal', 'Family', 'Study'], work: ['Training: wound care', 'Unit meeting', 'CPR recertification', 'Shift swap with {N}', 'Ward audit', 'Flu clinic'],
    series: [{ title: 'Day shift', day: 1, start: '07:00', length: 480, calendar: 0, location: 'Ward 5' }, { title: 'Study group', day: 4, start: '17:00', length: 90, calendar: 3, location: 'Library Room 4' }, { title: 'Pilates', day: 6, start: '10:00', length: 60, calendar: 1, location: 'Core Studio' }] },
  { title: 'Chronos', calendars: ['Clients', 'Personal', 'Family', 'Admin'], work: ['Brand workshop with {C}', 'Portfolio review', 'Pitch to {C}', 'Photo shoot', 'Call with {N}', 'Website launch'],
    series: [{ title: 'Client check-in', day: 2, start: '11:00', length: 30, calendar: 0, location: 'Video call' }, { title: 'Invoicing', day: 5, start: '16:00', length: 60, calendar: 3, location: 'Home office' }, { title: 'Running club', day: 3, start: '07:00', length: 60, calendar: 1, location: 'Riverside Park' }] },
  { title: 'Weekfold', calendars: ['Classes', 'Personal', 'Family', 'Sports'], work: ['Statistics exam', 'Essay deadline', 'Office hours with {N}', 'Group project meeting', 'Career fair', 'Thesis consultation'],
    series: [{ title: 'Statistics lecture', day: 1, start: '09:00', length: 90, calendar: 0, location: 'Hall B' }, { title: 'Lab session', day: 4, start: '13:00', length: 180, calendar: 0, location: 'Lab 2' }, { title: 'Soccer practice', day: 2, start: '18:00', length: 90, calendar: 3, location: 'North Field' }] },
  { title: 'Planwell', calendars: ['Work', 'Personal', 'Family', 'Travel'], work: ['Pipeline review with {N}', 'Quarterly business review', 'Demo for {C}', 'Contract signing with {C}', 'Sales kickoff', 'Forecast call'],
    series: [{ title: 'Pipeline review', day: 1, start: '09:00', length: 60, calendar: 0, location: 'Board room' }, { title: 'Team lunch', day: 5, start: '12:30', length: 60, calendar: 0, location: 'Cafe Aroma' }, { title: 'Tennis', day: 3, start: '19:00', length: 60, calendar: 1, location: 'Court 4' }] },
  { title: 'Daybook', calendars: ['Kitchen', 'Personal', 'Family', 'Suppliers'], work: ['Menu tasting', 'Health inspection', 'Wine pairing with {N}', 'Private dinner for {C}', 'Staff training', 'Inventory count'],
    series: [{ title: 'Menu planning', day: 1, start: '14:00', length: 60, calendar: 0, location: 'Back office' }, { title: 'Fish market run', day: 5, start: '06:00', length: 60, calendar: 3, location: 'Harbor Market' }, { title: 'Boxing class', day: 0, start: '10:00', length: 60, calendar: 1, location: 'Iron Gym' }] },
  { title: 'Tempo', calendars: ['Projects', 'Personal', 'Family', 'Site visits'], work: ['Design review for {C}', 'Permit meeting', 'Client presentation', 'Model making session', 'Call with {N}', 'Competition deadline'],
    series: [{ title: 'Studio design review', day: 3, start: '10:00', length: 90, calendar: 0, location: 'Studio' }, { title: 'Site walk', day: 4, start: '08:00', length: 120, calendar: 3, location: 'Elm Street site' }, { title: 'Climbing gym', day: 2, start: '19:00', length: 90, calendar: 1, location: 'Boulder Barn' }] },
];

const PERSONAL = ['Dentist appointment', 'Haircut', 'Car service', 'Coffee with {F}', 'Lunch with {F}', 'Doctor appointment', 'Concert at {V}', 'Book club', 'Bank appointment', 'Eye exam', 'Pottery class', 'Tax advisor meeting'];
const FAMILY = ["{F}'s birthday party", 'Parent-teacher conference', 'Family dinner at {R}', "Grandma's visit", 'School play', 'Movie night', 'Piano recital', 'Zoo trip', 'Anniversary dinner at {R}'];
const INVITES = ['Project sync: {P}', "{F}'s farewell drinks", 'Vendor demo: {C}', 'Charity gala', 'Neighborhood BBQ', 'Design sprint', 'Volunteer day', 'Alumni meetup'];
const VENUES = ['The Blue Room', 'Symphony Hall', 'Riverside Amphitheater', 'The Jazz Cellar'];
const RESTAURANTS = ['Olive & Vine', 'Sakura House', 'The Copper Pot', 'Casa Lupita', 'Bistro Nord'];
const PROJECTS = ['Atlas', 'Beacon', 'Cobalt', 'Harbor', 'Nimbus', 'Orion'];

function fill(faker: Faker, text: string, people: ReadonlyArray<{ name: string }>, company: string): string {
  return text
    .replace('{P}', faker.helpers.arrayElement(PROJECTS))
    .replace('{N}', faker.helpers.arrayElement(people).name)
    .replace('{M}', people[0]?.name ?? 'my manager')
    .replace('{F}', faker.person.firstName())
    .replace('{V}', faker.helpers.arrayElement(VENUES))
    .replace('{R}', faker.helpers.arrayElement(RESTAURANTS))
    .replace('{C}', company);
}

/** Fills a calendar: four calendars, weekly series and one-off events over ten weeks, attendees, invitations. */
export function seedCalendar({ db, faker, variant, today }: SeedInput): SeedResult {
  const theme = THEMES[(variant - 1) % THEMES.length] ?? (THEMES[0] as Theme);
  const company = faker.company.name().split(/[ ,-]/)[0] ?? 'Acme';
  const domain = `${company.toLowerCase().replace(/[^a-z]/g, '')}.com`;
  const person = () => {
    const first = faker.person.firstName();
    const last = faker.person.lastName();
    return { name: `${first} ${last}`, email: `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, '') + `@${domain}` };
  };
  const me = person();
  const people = Array.from({ length: 10 }, person);
  db.prepare("INSERT INTO settings (id, name, email, week_start, default_length, timezone) VALUES (1, ?, ?, 'monday', 60, ?)").run(
    me.name, me.email, faker.helpers.arrayElement(TIMEZONES.slice(0, 4)));
  const addCalendar = db.prepare('INSERT INTO calendars (name, color) VALUES (?, ?)');
  const calIds = theme.calendars.map((name, i) => Number(addCalendar.run(name, COLORS[i]).lastInsertRowid));
  const addEvent = db.prepare('INSERT INTO events (title, calendar_id, date, start, end, location, description, reminder) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const addAttendee = db.prepare('INSERT INTO attendees (event_id, name, email, response) VALUES (?, ?, ?, ?)');
  const first = weekStart(addDays(today, -28));
  const last = addDays(today, 42);
  const invite = (eventId: number, n: number): void => {
    for (const p of faker.helpers.arrayElements(people, n)) addAttendee.run(eventId, p.name, p.email, faker.helpers.arrayElement(['yes', 'yes', 'no', 'maybe', 'pending']));
  };

  for (const s of theme.series) {
    const title = fill(faker, s.title, people, company);
    let date = addDays(first, (s.day - 1 + 7) % 7);
    for (let k = 0; date <= last; k++, date = addDays(date, 7)) {
      if (k % (s.every ?? 1)) continue;
      const id = Number(addEvent.run(title, calIds[s.calendar], date, s.start, clock(minutes(s.start) + s.length), s.location, '', s.calendar === 0 ? 10 : 0).lastInsertRowid);
      if (s.calendar === 0 && k % 3 === 0) invite(id, 2);
    }
  }
  const titles = new Set<string>();
  const pools: Array<[readonly string[], number, number]> = [[theme.work, 0, 16], [PERSONAL, 1, 14], [FAMILY, 2, 9], [['Hike at {V}', 'Spin class', '5K fun run', 'Massage', 'Swim lesson'], 3, 5]];
  for (const [pool, cal, count] of pools) {
    for (let i = 0; i < count; i++) {
      let title = '';
      for (let tries = 0; tries < 15 && (!title || titles.has(title)); tries++) title = fill(faker, faker.helpers.arrayElement(pool), people, company);
      if (titles.has(title)) continue;
      titles.add(title);
      const date = addDays(first, faker.number.int({ min: 0, max: 69 }));
      const start = clock(faker.number.int({ min: 16, max: 38 }) * 30);
      const length = faker.helpers.arrayElement([30, 45, 60, 60, 90, 120]);
      const location = cal === 0 ? faker.helpers.arrayElement(['Room 3A', 'Board room', 'Video call', `${company} HQ`]) : faker.helpers.maybe(() => faker.location.streetAddress(), { probability: 0.7 }) ?? '';
      const description = faker.helpers.maybe(() => faker.helpers.arrayElement(['Bring the latest figures.', 'Agenda in the shared folder.', 'Remember to bring ID.', 'Parking on level 2.', 'Confirm the day before.']), { probability: 0.6 }) ?? '';
      const id = Number(addEvent.run(title, calIds[cal], date, start, clock(Math.min(minutes(start) + length, 23 * 60 + 59)), location, description, faker.helpers.arrayElement([0, 0, 10, 30, 60])).lastInsertRowid);
      if (cal === 0) invite(id, faker.number.int({ min: 2, max: 4 }));
      else if (cal === 2) invite(id, 1);
    }
  }
  const addInvite = db.prepare('INSERT INTO invitations (title, organizer, organizer_email, date, start, end, location, response) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  INVITES.forEach((t, i) => {
    const org = faker.helpers.arrayElement(people);
    const start = clock(faker.number.int({ min: 18, max: 36 }) * 30);
    addInvite.run(fill(faker, t, people, company), org.name, org.email, addDays(today, faker.number.int({ min: 2, max: 40 })), start, clock(minutes(start) + 60),
      faker.helpers.arrayElement(['Room 3A', 'Rooftop terrace', 'Community Center', `${company} HQ`]), i < 6 ? 'pending' : i === 6 ? 'accepted' : 'declined');
  });
  return { title: theme.title };
}
