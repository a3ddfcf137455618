/** The tracker template's info tasks: questions about issues, milestones, projects and people. @module */
import type { Faker } from '@faker-js/faker';
import { answer, step } from '../../task-kit';
import type { TaskSpec } from '../../template';
import { slugify } from '../../values';
import { PRIORITIES } from './content';
import { percent } from './queries';
import { filterIssues, openIssue, openMilestone, type TrackerData } from './task-steps';

/** Info task groups (generators), each in its own order. */
export function infoTasks(d: TrackerData, faker: Faker): TaskSpec[][] {
  const mix = faker.helpers.shuffle([...d.issues]);
  const at = (k: number, n: number) => mix.slice(k, k + n);
  const groups: TaskSpec[][] = [];

  groups.push(at(0, 15).map((i) => ({
    slug: `status-${i.key}`, kind: 'info', instruction: `What is the status of the issue "${i.title}"?`,
    verifier: { answer: answer.includes(i.status) }, oracle: [...openIssue(i), step.done(i.status)],
  })));
  groups.push(at(15, 20).filter((i) => i.assignee).map((i) => ({
    slug: `assignee-${i.key}`, kind: 'info', instruction: `Who is working on "${i.title}"? Report the assignee's name.`,
    verifier: { answer: answer.includes(i.assignee) }, oracle: [...openIssue(i), step.done(i.assignee)],
  })));
  groups.push(at(35, 15).map((i) => ({
    slug: `priority-${i.key}`, kind: 'info', instruction: `What priority does the issue "${i.title}" have?`,
    verifier: { answer: answer.includes(i.priority) }, oracle: [...openIssue(i), step.done(i.priority)],
  })));
  groups.push(at(50, 25).filter((i) => i.comments > 0).slice(0, 12).map((i) => ({
    slug: `comments-${i.key}`, kind: 'info', instruction: `How many comments are there on "${i.title}"?`,
    verifier: { answer: answer.number(i.comments, 0) }, oracle: [...openIssue(i), step.done(`${i.comments} comments`)],
  })));
  groups.push(faker.helpers.shuffle([...d.milestones]).map((m) => ({
    slug: `due-${m.id}`, kind: 'info', instruction: `When is the milestone ${m.name} due? Answer as YYYY-MM-DD.`,
    verifier: { answer: answer.includes(m.due) }, oracle: [...openMilestone(m), step.done(m.due)],
  })));
  groups.push(faker.helpers.shuffle(d.milestones.filter((m) => m.total > 0)).map((m) => ({
    slug: `progress-${m.id}`, kind: 'info', instruction: `What percentage of the issues in milestone ${m.name} is complete?`,
    verifier: { answer: answer.number(percent(m), 0) }, oracle: [step.link('Milestones'), step.done(`${percent(m)}% complete`)],
  })));
  const counts: TaskSpec[] = [];
  for (const p of d.projects) {
    for (const priority of PRIORITIES) {
      const n = d.issues.filter((i) => i.project_id === p.id && i.status === 'Open' && i.priority === priority).length;
      if (n) counts.push({
        slug: `count-${p.key}-${priority.toLowerCase()}`, kind: 'info', instruction: `How many ${priority} priority issues in ${p.name} have the status Open?`,
        verifier: { answer: answer.number(n, 0) }, oracle: [...filterIssues({ Project: p.name, Status: 'Open', Priority: priority }), step.done(`${n} issues`)],
      });
    }
  }
  groups.push(faker.helpers.shuffle(counts));
  groups.push(d.projects.map((p) => ({
    slug: `lead-${p.key}`, kind: 'info', instruction: `Who is the lead of the ${p.name} project?`,
    verifier: { answer: answer.includes(p.lead) }, oracle: [step.link('Projects'), step.done(p.lead)],
  })));
  groups.push(at(75, 15).map((i) => ({
    slug: `reporter-${i.key}`, kind: 'info', instruction: `Who reported the issue "${i.title}"?`,
    verifier: { answer: answer.includes(i.reporter) }, oracle: [...openIssue(i), step.done(i.reporter)],
  })));
  groups.push(mix.filter((i) => (d.comments.get(i.id)?.length ?? 0) > 0).slice(12, 24).map((i) => {
    const last = d.comments.get(i.id)?.at(-1);
    return {
      slug: `last-comment-${i.key}`, kind: 'info' as const, instruction: `Who wrote the latest comment on "${i.title}"?`,
      verifier: { answer: answer.includes(last?.author ?? '') }, oracle: [...openIssue(i), step.done(last?.author ?? '')],
    };
  }));
  groups.push(mix.filter((i) => i.milestone).slice(0, 12).map((i) => ({
    slug: `milestone-of-${i.key}`, kind: 'info', instruction: `Which milestone is "${i.title}" planned for?`,
    verifier: { answer: answer.includes(i.milestone ?? '') }, oracle: [...openIssue(i), step.done(i.milestone ?? '')],
  })));
  groups.push(mix.filter((i) => i.labels && i.labels.split(', ').length <= 2).slice(0, 12).map((i) => ({
    slug: `labels-${i.key}`, kind: 'info', instruction: `Which labels does the issue "${i.title}" have?`,
    verifier: { answer: answer.includes(...i.labels.split(', ')) }, oracle: [...openIssue(i), step.done(i.labels)],
  })));
  groups.push(faker.helpers.shuffle(d.members.filter((m) => !m.me)).flatMap((m) => {
    const n = d.issues.filter((i) => i.assignee === m.name && i.status === 'In progress').length;
    return n ? [{
      slug: `in-progress-${slugify(m.name)}`, kind: 'info' as const, instruction: `How many issues assigned to ${m.name} are in progress?`,
      verifier: { answer: answer.number(n, 0) }, oracle: [...filterIssues({ Assignee: m.name, Status: 'In progress' }), step.done(`${n} issues`)],
    }] : [];
  }));
  const mine = d.issues.filter((i) => i.assignee === d.me.name && i.status === 'In progress').length;
  const open = d.projects.map((p) => ({ p, n: d.issues.filter((i) => i.project_id === p.id && i.status === 'Open').length }));
  groups.push([
    ...(mine ? [{ slug: 'my-in-progress', kind: 'info' as const, instruction: 'How many of the issues assigned to me are in progress right now?',
      verifier: { answer: answer.number(mine, 0) }, oracle: [step.link('My issues'), step.select('Status', 'In progress'), step.button('Show'), step.done(`${mine} issues`)] }] : []),
    ...open.filter((x) => x.n).map(({ p, n }) => ({ slug: `open-${p.key}`, kind: 'info' as const, instruction: `How many issues in the ${p.name} project have the status Open?`,
      verifier: { answer: answer.number(n, 0) }, oracle: [...filterIssues({ Project: p.name, Status: 'Open' }), step.done(`${n} issues`)] })),
  ]);
  groups.push(at(90, 15).map((i) => ({
    slug: `type-${i.key}`, kind: 'info', instruction: `Is "${i.title}" filed as a bug, a feature or a task?`,
    verifier: { answer: answer.includes(i.type) }, oracle: [...openIssue(i), step.done(i.type)],
  })));
  return groups;
}
