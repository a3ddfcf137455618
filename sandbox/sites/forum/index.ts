/** The discussion forum template: boards, thread lists with sort, tags and pages; search; threads with replies, votes, follows, bookmarks; members, notifications, settings. @module */
import type { SiteTemplate } from '../../template';
import { accountRoutes } from './account-pages';
import { boardRoutes } from './board-pages';
import { composeRoutes } from './compose-pages';
import { FORUM_SCHEMA, seedForum } from './seed';
import { forumTasks } from './tasks';
import { threadRoutes } from './thread-pages';

/** A discussion forum (one community per variant). */
export const forum: SiteTemplate = {
  id: 'forum',
  kind: 'discussion forum',
  schema: FORUM_SCHEMA,
  seed: seedForum,
  nav: [
    { label: 'Boards', path: '/' },
    { label: 'All threads', path: '/threads' },
    { label: 'New thread', path: '/threads/new' },
    { label: 'Bookmarks', path: '/bookmarks' },
    { label: 'Notifications', path: '/notifications' },
    { label: 'Members', path: '/members' },
    { label: 'Settings', path: '/settings' },
  ],
  search: { action: '/search', param: 'q', label: 'Search the forum' },
  routes(router) {
    boardRoutes(router);
    composeRoutes(router);
    threadRoutes(router);
    accountRoutes(router);
  },
  tasks: forumTasks,
};
