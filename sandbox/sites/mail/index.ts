/** The webmail template: folders with filters, sort, pages and bulk actions; messages, compose, contacts, settings. @module */
import type { SiteTemplate } from '../../template';
import { contactRoutes } from './contact-pages';
import { listRoutes } from './list-pages';
import { messageRoutes } from './message-pages';
import { MAIL_SCHEMA, seedMail } from './seed';
import { mailTasks } from './tasks';

/** A webmail client (one provider and mailbox per variant). */
export const mail: SiteTemplate = {
  id: 'mail',
  kind: 'webmail',
  schema: MAIL_SCHEMA,
  seed: seedMail,
  nav: [
    { label: 'Inbox', path: '/' },
    { label: 'Sent', path: '/folder/sent' },
    { label: 'Drafts', path: '/folder/drafts' },
    { label: 'Archive', path: '/folder/archive' },
    { label: 'Trash', path: '/folder/trash' },
    { label: 'Contacts', path: '/contacts' },
    { label: 'Settings', path: '/settings' },
    { label: 'Compose', path: '/compose' },
  ],
  search: { action: '/search', param: 'q', label: 'Search mail' },
  routes(router) {
    listRoutes(router);
    messageRoutes(router);
    contactRoutes(router);
  },
  tasks: mailTasks,
  consequences: [
    // Opening a message marks it read.
    { allow: [{ table: 'messages', op: 'update', where: { read: 1 }, fields: ['read'], opened: '/messages/{id}' }] },
    // Sending stamps the time.
    { when: { table: 'messages', op: 'update' }, allow: [{ table: 'messages', op: 'update', fields: ['sent_at'] }] },
  ],
};
