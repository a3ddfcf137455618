/**
 * What MiniWeb does by itself on other sites as the consequence of a task's own changes, declared so that the
 * footprint rule (an unrequested write fails the episode) admits these and nothing else. Each entry is pinned to
 * the shape MiniWeb writes (its sender, its subject, its fields), so a write the agent made itself does not pass as
 * one of them.
 *
 * - A payment with a code (`/verify-payment`) mails the code to the user's inbox on `email` (`sent_messages`, from
 *   `security@miniweb.local`); reading that mail on `email` marks it read (`email_state`, only for a message the
 *   session opened).
 * - A finished purchase or payment debits the user's bank (`banking` `transactions`, a posted debit, and the
 *   account's `balance`) and mails a receipt (`orders@…` or `bookings@…`).
 * - Saving a collection whole (MiniWeb's `save_collection`) makes every row the session did not save read as
 *   deleted for it: banking saves the user's own accounts whole, so another user's account reads as deleted.
 * @module
 */
import type { Consequence } from '../claims/schema';

/** The sites whose purchases or payments ask for a code mailed to `email` (and `/verify-payment`). */
export const CODE_SITES: readonly string[] = Object.freeze(['banking', 'books-comics', 'crowdfunding-donations', 'e-commerce', 'flights-hotels', 'insurance-loans']);

/** Where the code is entered: MiniWeb's one page outside every site. */
export const VERIFY_PAYMENT_PATH = '/verify-payment';

/** Where the code is mailed: the `email` site, which an episode on a code site may read. */
export const EMAIL_PREFIX = '/sites/email/';

const CODE_MAIL: Consequence = {
  allow: [{ table: 'sent_messages', op: 'create', where: { from_addr: 'security@miniweb.local', subject: { pattern: '^Verification Code: \\d{6}$' } } }],
};

const READ_RECEIPT: Consequence = {
  allow: [
    { table: 'email_state', op: 'create', where: { is_read: 1 }, opened: '/message/{email_id}' },
    { table: 'email_state', op: 'update', fields: ['is_read'], opened: '/message/{email_id}' },
  ],
};

const CHARGE: Consequence = {
  allow: [
    { table: 'transactions', op: 'create', where: { type: 'debit', status: 'posted', reference: { pattern: '^(ORD-|BRIDGE-|TRADE-)' } } },
    { table: 'accounts', op: 'update', fields: ['balance'] },
    { table: 'sent_messages', op: 'create', where: { from_addr: { pattern: '^(orders|bookings)@[a-z0-9.-]+$' }, subject: { pattern: '^(Order|Booking) Confirm' } } },
  ],
};

// Banking saves the user's accounts whole: every other user's account reads as deleted for the session.
const BANKING_WHOLE_SAVE: Consequence = {
  when: { table: 'accounts', op: 'update' },
  allow: [{ table: 'accounts', op: 'delete', before: { user_id: { pattern: '^(?!1$)' } } }],
};

/**
 * MiniWeb's declared consequences for an episode on `site` (see the module notes); `codes` false: the session asks
 * for no codes (MiniWeb's annotator switch), so no code mail can be admitted.
 */
export function miniwebConsequences(site: string, options: { readonly codes: boolean }): Consequence[] {
  const out: Consequence[] = [];
  if (CODE_SITES.includes(site)) {
    if (options.codes) out.push(CODE_MAIL, READ_RECEIPT);
    out.push(CHARGE);
  }
  if (site === 'banking') out.push(BANKING_WHOLE_SAVE);
  return out;
}
