/**
 * The issue tracker template: projects, issue lists with search, filters, sort and pages; issue pages with
 * comments and status changes; a two-step new-issue flow; edit and delete; milestones with progress; a board;
 * my issues; a JSON API.
 * @module
 */
import type { SiteTemplate } from '../../template';
import { createRoutes } from './create-pages';
import { issueRoutes } from './issue-pages';
import { listRoutes } from './list-pages';
import { milestoneRoutes } from './milestone-pages';
import { TRACKER_SCHEMA, seedTracker } from './seed';
import { trackerTasks } from './tasks';

/** An issue tracker (one product team per variant). */
export const tracker: SiteTemplate = {
  id: 'tracker',
  kind: 'issue tracker',
  schema: TRACKER_SCHEMA,
  seed: seedTracker,
  nav: [
    { label: 'Issues', path: '/issues' },
    { label: 'My issues', path: '/my-issues' },
    { label: 'Board', path: '/board' },
    { label: 'Projects', path: '/projects' },
    { label: 'Milestones', path: '/milestones' },
    { label: 'New issue', path: '/issues/new' },
  ],
  search: { action: '/issues', param: 'q', label: 'Search issues' },
  routes(router) {
    createRoutes(router);
    listRoutes(router);
    issueRoutes(router);
    milestoneRoutes(router);
  },
  tasks: trackerTasks,
  consequences: [
    // Any change to an issue, its labels or comments stamps the issue.
    { allow: [{ table: 'issues', op: 'update', fields: ['updated'] }] },
    // A new issue takes the project's next number; a renamed one renames its labels' and comments' copies of the
    // title; a deleted one takes its comments and labels with it.
    { when: { table: 'issues', op: 'create' }, allow: [{ table: 'projects', op: 'update', fields: ['next_number'] }] },
    { when: { table: 'issues', op: 'update' }, allow: [{ table: 'issue_labels', op: 'update', fields: ['title'] }, { table: 'comments', op: 'update', fields: ['subject'] }] },
    { when: { table: 'issues', op: 'delete' }, allow: [{ table: 'comments', op: 'delete' }, { table: 'issue_labels', op: 'delete' }] },
  ],
};
