/**
 * The online banking template: accounts overview, account activity with search, filters, sort and pages,
 * transactions, payees, transfers and bill payments (form, review, confirm), scheduled payments, cards,
 * statements, settings and a read-only JSON API.
 * @module
 */
import type { SiteTemplate } from '../../template';
import { accountRoutes } from './account-pages';
import { cardRoutes } from './card-pages';
import { payeeRoutes } from './payee-pages';
import { paymentRoutes } from './payment-pages';
import { BANK_SCHEMA, seedBank } from './seed';
import { statementRoutes } from './statement-pages';
import { bankTasks } from './tasks';
import { transferRoutes } from './transfer-pages';

/** An online bank (one bank and customer per variant). */
export const bank: SiteTemplate = {
  id: 'bank',
  kind: 'online banking',
  schema: BANK_SCHEMA,
  seed: seedBank,
  nav: [
    { label: 'Accounts', path: '/' },
    { label: 'Transfer', path: '/transfer' },
    { label: 'Pay bills', path: '/pay' },
    { label: 'Payees', path: '/payees' },
    { label: 'Scheduled', path: '/scheduled' },
    { label: 'Activity', path: '/payments' },
    { label: 'Cards', path: '/cards' },
    { label: 'Statements', path: '/statements' },
    { label: 'Settings', path: '/settings' },
  ],
  search: { action: '/search', param: 'q', label: 'Search transactions' },
  routes(router) {
    accountRoutes(router);
    transferRoutes(router);
    paymentRoutes(router);
    payeeRoutes(router);
    cardRoutes(router);
    statementRoutes(router);
  },
  tasks: bankTasks,
  consequences: [
    // A payment or transfer sent now moves the balances and books the transactions.
    { when: { table: 'payments', op: 'create' }, allow: [{ table: 'accounts', op: 'update', fields: ['balance'] }, { table: 'transactions', op: 'create', pin: { account_id: ['from_account_id', 'to_account_id'] } }] },
    // A removed payee leaves its payments without one.
    { when: { table: 'payees', op: 'delete' }, allow: [{ table: 'payments', op: 'update', fields: ['payee_id'] }] },
  ],
};
