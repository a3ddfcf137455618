/** The tracker template's tables and seeded data. @module */
import type { SeedInput, SeedResult } from '../../template';
import { COMMENTS, DESCRIPTIONS, LABELS, PRIORITIES, ROLES, THEMES, TITLES, TYPES, type TrackerTheme } from './content';

/**
 * The tracker's tables. Issues carry a `title` and a readable `key`; label and comment rows repeat the issue's
 * title (`title`, `subject`) so change lines name the issue they belong to.
 */
export const TRACKER_SCHEMA = `
CREATE TABLE members (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, email TEXT NOT NULL, role TEXT NOT NULL, me INTEGER NOT NULL DEFAULT 0);
CREATE TABLE projects (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, name TEXT NOT NULL UNIQUE, description TEXT NOT NULL, lead TEXT NOT NULL,
  next_number INTEGER NOT NULL);
CREATE TABLE milestones (id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL REFERENCES projects(id), name TEXT NOT NULL UNIQUE, due TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '');
CREATE TABLE issues (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, project_id INTEGER NOT NULL REFERENCES projects(id), title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '', type TEXT NOT NULL, status TEXT NOT NULL, priority TEXT NOT NULL, assignee TEXT NOT NULL DEFAULT '',
  reporter TEXT NOT NULL, milestone_id INTEGER REFERENCES milestones(id) ON DELETE SET NULL, created TEXT NOT NULL, updated TEXT NOT NULL);
CREATE TABLE issue_labels (id INTEGER PRIMARY KEY, issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE, title TEXT NOT NULL,
  name TEXT NOT NULL, UNIQUE (issue_id, name));
CREATE TABLE comments (id INTEGER PRIMARY KEY, issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE, subject TEXT NOT NULL,
  author TEXT NOT NULL, body TEXT NOT NULL, created TEXT NOT NULL);
`;

function day(ref: Date, daysAgo: number): string {
  return new Date(ref.getTime() - daysAgo * 86400_000).toISOString().slice(0, 10);
}

/** `{C} crashes` with `checkout page` → `Checkout page crashes`. */
export function fillTemplate(template: string, component: string): string {
  return template.replace('{C}', component[0]?.toUpperCase() + component.slice(1)).replace('{c}', component);
}

/** Fills a tracker: a team of eight, four projects with milestones, about 100 issues with labels and comments. */
export function seedTracker({ db, faker, variant, today }: SeedInput): SeedResult {
  const theme = THEMES[(variant - 1) % THEMES.length] ?? (THEMES[0] as TrackerTheme);
  const ref = new Date(`${today}T12:00:00Z`);
  const domain = `${theme.title.toLowerCase().replace(/[^a-z]+/g, '')}.example`;
  const team: string[] = [];
  while (team.length < 8) {
    const name = faker.person.fullName({ sex: faker.helpers.arrayElement(['female', 'male']) }).replace(/^(Mr|Mrs|Ms|Miss|Dr)\.? /, '');
    if (!team.includes(name) && !/ (Jr|Sr|I|II|III|IV|V|MD|DDS|PhD|DVM)\.?$/.test(name)) team.push(name);
  }
  const addMember = db.prepare('INSERT INTO members (name, email, role, me) VALUES (?, ?, ?, ?)');
  team.forEach((name, i) => addMember.run(name, `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@${domain}`, ROLES[i] ?? 'Engineer', i === 0 ? 1 : 0));

  const addProject = db.prepare('INSERT INTO projects (key, name, description, lead, next_number) VALUES (?, ?, ?, ?, 1)');
  const addMilestone = db.prepare('INSERT INTO milestones (project_id, name, due, description) VALUES (?, ?, ?, ?)');
  const addIssue = db.prepare(`INSERT INTO issues (key, project_id, title, description, type, status, priority, assignee, reporter, milestone_id, created, updated)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const addLabel = db.prepare('INSERT INTO issue_labels (issue_id, title, name) VALUES (?, ?, ?)');
  const addComment = db.prepare('INSERT INTO comments (issue_id, subject, author, body, created) VALUES (?, ?, ?, ?, ?)');
  const titles = new Set<string>();
  for (const p of theme.projects) {
    const projectId = Number(addProject.run(p.key, p.name, p.description, faker.helpers.arrayElement(team.slice(1))).lastInsertRowid);
    const major = faker.number.int({ min: 1, max: 4 });
    let minor = faker.number.int({ min: 0, max: 6 });
    const milestones = [-12, 18, 45].map((dueIn) => {
      const name = `${p.name} ${major}.${minor++}`;
      const due = day(ref, -dueIn - faker.number.int({ min: 0, max: 6 }));
      return Number(addMilestone.run(projectId, name, due, `Release ${major}.${minor - 1} of the ${p.name.toLowerCase()}.`).lastInsertRowid);
    });
    const count = faker.number.int({ min: 22, max: 28 });
    for (let n = 1; n <= count; n++) {
      const type = faker.helpers.weightedArrayElement([{ weight: 5, value: TYPES[0] }, { weight: 3, value: TYPES[1] }, { weight: 2, value: TYPES[2] }]);
      const component = faker.helpers.arrayElement(p.components);
      let title = '';
      for (let tries = 0; tries < 30 && (!title || titles.has(title)); tries++) title = fillTemplate(faker.helpers.arrayElement(TITLES[type]), faker.helpers.arrayElement(p.components));
      if (titles.has(title)) continue;
      titles.add(title);
      const age = faker.number.int({ min: 1, max: 120 });
      const status = faker.helpers.weightedArrayElement([{ weight: 8, value: 'Open' }, { weight: 5, value: 'In progress' }, { weight: 5, value: 'Done' }, { weight: 2, value: 'Closed' }]);
      const priority = faker.helpers.weightedArrayElement([{ weight: 3, value: PRIORITIES[0] }, { weight: 5, value: PRIORITIES[1] }, { weight: 3, value: PRIORITIES[2] }, { weight: 1, value: PRIORITIES[3] }]);
      const assignee = status === 'Open' && faker.number.int({ min: 0, max: 3 }) === 0 ? '' : faker.helpers.arrayElement(team);
      const milestone = faker.number.int({ min: 0, max: 4 }) === 0 ? null : faker.helpers.arrayElement(status === 'Done' || status === 'Closed' ? milestones : milestones.slice(1));
      const description = fillTemplate(faker.helpers.arrayElement(DESCRIPTIONS[type]), component);
      const key = `${p.key}-${n}`;
      const issueId = Number(addIssue.run(key, projectId, title, description, type, status, priority, assignee, faker.helpers.arrayElement(team), milestone,
        day(ref, age), day(ref, faker.number.int({ min: 0, max: age }))).lastInsertRowid);
      for (const label of faker.helpers.arrayElements(LABELS, faker.helpers.weightedArrayElement([{ weight: 2, value: 0 }, { weight: 4, value: 1 }, { weight: 3, value: 2 }, { weight: 1, value: 3 }]))) {
        addLabel.run(issueId, title, label);
      }
      const comments = faker.number.int({ min: 0, max: 4 });
      let when = age;
      for (let c = 0; c < comments; c++) {
        when = faker.number.int({ min: 0, max: when });
        addComment.run(issueId, title, faker.helpers.arrayElement(team), faker.helpers.arrayElement(COMMENTS), day(ref, when));
      }
    }
    db.prepare('UPDATE projects SET next_number = ? WHERE id = ?').run(count + 1, projectId);
  }
  return { title: theme.title };
}
