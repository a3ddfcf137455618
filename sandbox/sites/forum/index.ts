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
  consequences: [
    // An edit stamps the post; a renamed thread renames its first post.
    { when: { table: 'posts', op: 'update' }, allow: [{ table: 'posts', op: 'update', fields: ['edited'] }] },
    { when: { table: 'threads', op: 'update' }, allow: [{ table: 'posts', op: 'update', fields: ['subject', 'edited'] }] },
    // A vote moves the post's score.
    { when: { table: 'votes' }, allow: [{ table: 'posts', op: 'update', fields: ['score'] }] },
    { when: { table: 'votes', op: 'delete' }, allow: [{ table: 'posts', op: 'update', fields: ['score'] }] },
    // A deleted thread takes its posts, follows, bookmarks, votes and notifications with it.
    { when: { table: 'threads', op: 'delete' }, allow: ['posts', 'follows', 'bookmarks', 'votes', 'notifications'].map((table) => ({ table, op: 'delete' as const })) },
  ],
};
