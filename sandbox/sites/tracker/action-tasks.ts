/** The tracker template's action tasks: workflow, assignment, labels, comments, edits, deletion, creation, filters. @module */
import type { Faker } from '@faker-js/faker';
import { noRow, request, row, step } from '../../task-kit';
import type { TaskInput, TaskSpec } from '../../template';
import { slugify } from '../../values';
import { LABELS, PRIORITIES, STATUSES, THEMES, TITLES, TYPES } from './content';
import { moveLabel, ISSUE_PAGE_SIZE } from './list-pages';
import { ISSUE_SORTS } from './queries';
import { fillTemplate } from './seed';
import { editIssue, filterIssues, openIssue, openMilestone, type TrackerData } from './task-steps';

/** Comments the tasks ask for (never one a seeded issue already has, so doing nothing fails). */
const NEW_COMMENTS = ['Confirmed on my machine as well.', 'I will pick this up after the release.', 'Attaching the logs from this morning.',
  'Can we discuss this at planning on Thursday?', 'The fix is deployed to staging now.', 'This also affects the tablet layout.', 'Only admins see this, lowering the impact.'];

function workflowTasks(d: TrackerData, faker: Faker): TaskSpec[][] {
  const mix = faker.helpers.shuffle([...d.issues]);
  const by = (status: string) => mix.filter((i) => i.status === status);
  const set = (status: string) => (key: string) => ({ state: [row('issues', { key }, { status })] });
  const start = by('Open').slice(0, 12).map((i) => ({
    slug: `start-${i.key}`, kind: 'action' as const, instruction: `Start work on "${i.title}": move it to In progress.`,
    verifier: set('In progress')(i.key), oracle: [...openIssue(i), step.button('Start progress'), step.done()],
  }));
  const done = by('In progress').slice(0, 10).map((i) => ({
    slug: `done-${i.key}`, kind: 'action' as const, instruction: `Mark the issue "${i.title}" as done.`,
    verifier: set('Done')(i.key), oracle: [...openIssue(i), step.button('Mark as done'), step.done()],
  }));
  const close = by('Open').slice(12, 22).map((i) => ({
    slug: `close-${i.key}`, kind: 'action' as const, instruction: `We won't fix "${i.title}". Close the issue.`,
    verifier: set('Closed')(i.key), oracle: [...openIssue(i), step.button('Close issue'), step.done()],
  }));
  const reopen = mix.filter((i) => i.status === 'Done' || i.status === 'Closed').slice(0, 10).map((i) => ({
    slug: `reopen-${i.key}`, kind: 'action' as const, instruction: `"${i.title}" is happening again. Reopen it.`,
    verifier: set('Open')(i.key), oracle: [...openIssue(i), step.button('Reopen issue'), step.done()],
  }));
  const board = mix.filter((i) => i.status !== 'Closed').slice(20, 32).map((i, k) => {
    const to = i.status === 'In progress' ? (k % 2 ? 'Open' : 'Done') : 'In progress';
    return {
      slug: `board-${i.key}`, kind: 'action' as const, instruction: `On the ${i.project} board, move "${i.title}" to the ${to} column.`,
      verifier: set(to)(i.key), oracle: [step.link('Board'), step.select('Project', i.project), step.button('Show board'), step.button(moveLabel(i.key, to)), step.done()],
    };
  });
  return [start, done, close, reopen, board];
}

function editTasks(d: TrackerData, faker: Faker): TaskSpec[][] {
  const mix = faker.helpers.shuffle([...d.issues]);
  const others = d.members.filter((m) => !m.me);
  const assign = mix.slice(0, 14).map((i, k) => {
    const who = others.filter((m) => m.name !== i.assignee)[k % (others.length - 1)] ?? others[0];
    return {
      slug: `assign-${i.key}`, kind: 'action' as const, instruction: `Assign "${i.title}" to ${who?.name}.`,
      verifier: { state: [row('issues', { key: i.key }, { assignee: who?.name ?? '' })] },
      oracle: [...editIssue(i), step.select('Assignee', who?.name ?? ''), step.button('Save changes'), step.done()],
    };
  });
  const assignMe = mix.filter((i) => i.assignee !== d.me.name).slice(14, 24).map((i) => ({
    slug: `take-${i.key}`, kind: 'action' as const, instruction: `I'll take "${i.title}". Assign it to me.`,
    verifier: { state: [row('issues', { key: i.key }, { assignee: d.me.name })] }, oracle: [...openIssue(i), step.button('Assign to me'), step.done()],
  }));
  const priority = mix.slice(24, 36).map((i, k) => {
    const to = PRIORITIES.filter((p) => p !== i.priority)[k % 3] ?? 'Urgent';
    return {
      slug: `set-priority-${i.key}`, kind: 'action' as const, instruction: `Change the priority of "${i.title}" to ${to}.`,
      verifier: { state: [row('issues', { key: i.key }, { priority: to })] },
      oracle: [...editIssue(i), step.select('Priority', to), step.button('Save changes'), step.done()],
    };
  });
  const addLabel = mix.slice(36, 50).flatMap((i, k) => {
    const has = i.labels ? i.labels.split(', ') : [];
    const label = LABELS.filter((l) => !has.includes(l))[k % 4];
    return label ? [{
      slug: `label-${i.key}-${slugify(label)}`, kind: 'action' as const, instruction: `Add the label "${label}" to "${i.title}".`,
      verifier: { state: [row('issue_labels', { issue_id: i.id, name: label })] }, oracle: [...editIssue(i), step.check(label), step.button('Save changes'), step.done()],
    }] : [];
  });
  const removeLabel = mix.filter((i) => i.labels).slice(0, 10).map((i) => {
    const label = i.labels.split(', ')[0] ?? '';
    return {
      slug: `unlabel-${i.key}-${slugify(label)}`, kind: 'action' as const, instruction: `Remove the "${label}" label from "${i.title}".`,
      verifier: { state: [noRow('issue_labels', { issue_id: i.id, name: label })] }, oracle: [...editIssue(i), step.check(label), step.button('Save changes'), step.done()],
    };
  });
  const comment = mix.slice(50, 64).map((i, k) => {
    const body = NEW_COMMENTS[k % NEW_COMMENTS.length] ?? 'Confirmed on my machine as well.';
    return {
      slug: `comment-${i.key}`, kind: 'action' as const, instruction: `Comment "${body}" on the issue "${i.title}".`,
      verifier: { state: [row('comments', { issue_id: i.id, body })] }, oracle: [...openIssue(i), step.type('Add a comment', body), step.button('Comment'), step.done()],
    };
  });
  const rename = mix.slice(64, 72).map((i) => {
    const title = `${i.title} (${faker.helpers.arrayElement(['follow-up', 'customer report', 'needs design', 'v2'])})`;
    return {
      slug: `rename-${i.key}`, kind: 'action' as const, instruction: `Rename the issue "${i.title}" to "${title}".`,
      verifier: { state: [row('issues', { key: i.key }, { title })] }, oracle: [...editIssue(i), step.type('Title', title), step.button('Save changes'), step.done()],
    };
  });
  const plan = mix.slice(72, 84).flatMap((i) => {
    const m = d.milestones.find((x) => x.project_id === i.project_id && x.id !== i.milestone_id && x.due >= '2026-03-16');
    return m ? [{
      slug: `plan-${i.key}`, kind: 'action' as const, instruction: `Plan "${i.title}" for the ${m.name} milestone.`,
      verifier: { state: [row('issues', { key: i.key }, { milestone_id: m.id })] }, oracle: [...editIssue(i), step.select('Milestone', m.name), step.button('Save changes'), step.done()],
    }] : [];
  });
  const remove = mix.slice(84, 96).map((i) => ({
    slug: `delete-${i.key}`, kind: 'action' as const, instruction: `Delete the issue "${i.title}"; it was filed by mistake.`,
    verifier: { state: [noRow('issues', { key: i.key })] }, oracle: [...openIssue(i), step.link('Delete issue'), step.button('Yes, delete this issue'), step.done()],
  }));
  return [assign, addLabel, comment, remove, assignMe, priority, removeLabel, rename, plan];
}

function createTasks(d: TrackerData, faker: Faker, variant: number): TaskSpec[][] {
  const theme = THEMES[(variant - 1) % THEMES.length] ?? THEMES[0];
  const taken = new Set(d.issues.map((i) => i.title));
  const issues: TaskSpec[] = [];
  for (let k = 0; k < 16; k++) {
    const project = d.projects[k % d.projects.length];
    const components = theme?.projects.find((p) => p.key === project?.key)?.components ?? [];
    const type = TYPES[k % TYPES.length] ?? 'Bug';
    let title = '';
    for (let tries = 0; tries < 40 && (!title || taken.has(title)); tries++) title = fillTemplate(faker.helpers.arrayElement(TITLES[type]), faker.helpers.arrayElement(components));
    if (!project || taken.has(title)) continue;
    taken.add(title);
    const priority = PRIORITIES[(k + 1) % PRIORITIES.length] ?? 'Medium';
    const who = k % 3 === 2 ? undefined : d.members[(k * 3) % d.members.length];
    const milestone = k % 2 ? d.milestones.find((m) => m.project_id === project.id && m.due >= '2026-03-16') : undefined;
    const label = k % 4 === 3 ? undefined : LABELS[k % LABELS.length];
    const description = faker.helpers.arrayElement(['Seen by several users this week.', 'Needed for the next release.', 'See the support ticket for details.', 'Found during QA.']);
    const parts = [`priority ${priority}`, who ? `assigned to ${who.me ? 'me' : who.name}` : 'unassigned', ...(milestone ? [`in milestone ${milestone.name}`] : []),
      ...(label ? [`labelled "${label}"`] : [])];
    issues.push({
      slug: `create-${k}`, kind: 'action',
      instruction: `File a new ${type.toLowerCase()} in ${project.name} titled "${title}" with the description "${description}", ${parts.join(', ')}.`,
      verifier: { state: [
        row('issues', { title }, { project_id: project.id, type, status: 'Open', priority, assignee: who?.name ?? '', milestone_id: milestone?.id ?? null, description }),
        ...(label ? [row('issue_labels', { title, name: label })] : []),
      ] },
      oracle: [step.link('New issue'), step.select('Project', project.name), step.radio(type), step.button('Continue'), step.type('Title', title), step.type('Description', description),
        step.select('Priority', priority), ...(who ? [step.select('Assignee', who.name)] : []), ...(milestone ? [step.select('Milestone', milestone.name)] : []),
        ...(label ? [step.check(label)] : []), step.button('Create issue'), step.done()],
    });
  }
  const names = new Set(d.milestones.map((m) => m.name));
  const newMilestones = d.projects.flatMap((p, k) => ['Hardening sprint', 'Beta', 'Launch'].map((suffix, j) => {
    const name = `${p.name} ${suffix}`;
    const due = `2026-0${5 + j}-${String(10 + k * 4).padStart(2, '0')}`;
    return names.has(name) ? undefined : {
      slug: `milestone-${p.key}-${slugify(suffix)}`, kind: 'action' as const, instruction: `Create a milestone "${name}" for ${p.name}, due on ${due}.`,
      verifier: { state: [row('milestones', { name }, { project_id: p.id, due })] },
      oracle: [step.link('Milestones'), step.link('New milestone'), step.select('Project', p.name), step.type('Milestone name', name), step.type('Due date', due), step.button('Save milestone'), step.done()],
    };
  }).filter((t) => t !== undefined));
  const moveDue = faker.helpers.shuffle([...d.milestones]).map((m, k) => {
    const due = `2026-0${4 + (k % 5)}-${String(1 + ((k * 7) % 27)).padStart(2, '0')}`;
    return due === m.due ? undefined : {
      slug: `move-due-${m.id}`, kind: 'action' as const, instruction: `Move the due date of the milestone ${m.name} to ${due}.`,
      verifier: { state: [row('milestones', { id: m.id }, { due })] }, oracle: [...openMilestone(m), step.link('Edit milestone'), step.type('Due date', due), step.button('Save milestone'), step.done()],
    };
  }).filter((t) => t !== undefined);
  return [issues, faker.helpers.shuffle(newMilestones), moveDue];
}

function filterTasks(d: TrackerData, faker: Faker, href: TaskInput['href']): TaskSpec[][] {
  const combos: TaskSpec[] = [];
  for (const p of d.projects) {
    for (const [k, priority] of PRIORITIES.entries()) {
      const status = STATUSES[(k + p.id) % 2] ?? 'Open';
      combos.push({
        slug: `filter-${p.key}-${priority.toLowerCase()}-${slugify(status)}`, kind: 'action', instruction: `List the ${priority} priority issues in ${p.name} that are ${status === 'Open' ? 'still open' : 'in progress'}.`,
        verifier: { requests: [request('GET', href('/issues'), { project: p.key, status, priority })] }, oracle: [...filterIssues({ Project: p.name, Status: status, Priority: priority }), step.done()],
      });
    }
  }
  const people = d.members.filter((m) => !m.me).map((m, k) => {
    const sort = ISSUE_SORTS[1 + (k % (ISSUE_SORTS.length - 1))] ?? ISSUE_SORTS[1];
    return {
      slug: `filter-assignee-${slugify(m.name)}`, kind: 'action' as const, instruction: `Show the issues assigned to ${m.name}, sorted by ${sort.text.toLowerCase().replace(':', ',')}.`,
      verifier: { requests: [request('GET', href('/issues'), { assignee: m.name, sort: sort.value })] }, oracle: [...filterIssues({ Assignee: m.name, 'Sort by': sort.text }), step.done()],
    };
  });
  const labels = LABELS.map((l) => ({
    slug: `filter-label-${slugify(l)}`, kind: 'action' as const, instruction: `Show every issue labelled "${l}", highest priority first.`,
    verifier: { requests: [request('GET', href('/issues'), { label: l, sort: 'priority' })] }, oracle: [...filterIssues({ Label: l, 'Sort by': 'Priority: highest first' }), step.done()],
  }));
  const words = [...new Set(d.issues.flatMap((i) => i.title.split(' ')).filter((w) => w.length > 5 && /^[a-z]+$/i.test(w)))].slice(0, 12);
  const search = faker.helpers.shuffle(words).map((w) => ({
    slug: `search-${slugify(w)}`, kind: 'action' as const, instruction: `Search the issues for "${w}".`,
    verifier: { requests: [request('GET', href('/issues'), { q: w })] }, oracle: [step.search('Search issues', w), step.done()],
  }));
  const pages = d.issues.length > ISSUE_PAGE_SIZE ? d.projects.filter((p) => d.issues.filter((i) => i.project_id === p.id).length > ISSUE_PAGE_SIZE).map((p) => ({
    slug: `page2-${p.key}`, kind: 'action' as const, instruction: `Open the second page of the ${p.name} issue list.`,
    verifier: { requests: [request('GET', href('/issues'), { project: p.key, page: 2 })] }, oracle: [...filterIssues({ Project: p.name }), step.link('Next page'), step.done()],
  })) : [];
  const mine = STATUSES.map((s) => ({
    slug: `mine-${slugify(s)}`, kind: 'action' as const, instruction: `Show only my issues with the status ${s}.`,
    verifier: { requests: [request('GET', href('/my-issues'), { status: s })] }, oracle: [step.link('My issues'), step.select('Status', s), step.button('Show'), step.done()],
  }));
  return [faker.helpers.shuffle(combos), people, labels, search, pages, mine];
}

/** Action task groups (generators), each in its own order. */
export function actionTasks(d: TrackerData, { faker, href, site }: TaskInput): TaskSpec[][] {
  const [start = [], done = [], close = [], reopen = [], board = []] = workflowTasks(d, faker);
  const [assign = [], addLabel = [], comment = [], remove = [], assignMe = [], priority = [], removeLabel = [], rename = [], plan = []] = editTasks(d, faker);
  const [create = [], milestone = [], moveDue = []] = createTasks(d, faker, site.variant);
  const [combos = [], people = [], labels = [], search = [], pages = [], mine = []] = filterTasks(d, faker, href);
  return [start, assign, addLabel, comment, remove, create, milestone, combos, done, close, reopen, board, assignMe, priority, removeLabel, rename, plan, moveDue,
    people, labels, search, pages, mine];
}
