/**
 * The fake MiniWeb's cross-site events and payments with a code, as `app/events.py` and the email handler do them:
 * `emit` runs a site's handlers for an event and writes `event_log`; `request2fa` keeps the transaction in the
 * cookie's `_pending_2fa` (10 minutes), mails a 6-digit code to user 1's WebMail (`email/sent_messages`, the whole
 * collection saved, as `_add_email` saves it) and sends the browser to `/verify-payment`, which runs it on the
 * right code. With `_disable_2fa` (annotator mode) the transaction runs at once.
 * @module
 */
import { randomInt, randomUUID } from 'node:crypto';
import { esc } from './html';
import { html, redirect, type Ctx, type Reply, type Route } from './http';
import type { Row } from './db';
import { displayDate, localStamp, pyStr } from './pyjson';

/** A site's handler of an event (a purchase, a reveal of account numbers), run with the event's arguments. */
export type EventHandler = (ctx: Ctx, kwargs: Row) => void;

/** The event bus: handlers by event type. */
export class Events {
  private readonly handlers = new Map<string, EventHandler[]>();

  /** Registers a handler of an event type. */
  on(eventType: string, handler: EventHandler): void {
    this.handlers.set(eventType, [...(this.handlers.get(eventType) ?? []), handler]);
  }

  /** `emit`: runs every handler (an error is logged, never thrown) and writes the `event_log` row. */
  emit(ctx: Ctx, eventType: string, kwargs: Row): void {
    const handlers = this.handlers.get(eventType) ?? [];
    const errors: string[] = [];
    for (const h of handlers) {
      try {
        h(ctx, kwargs);
      } catch (error) {
        errors.push(`${h.name || 'handler'}: ${(error as Error).message}`);
      }
    }
    ctx.db.logEvent(ctx.data.sid(), eventType, kwargs, handlers.length, errors);
  }
}

const DEFAULT_ADDRESS = 'alex.rivera@meridiansystems.com';

/** `_add_email`: a message in the user's WebMail inbox, saved with the whole `email/sent_messages` collection. */
export function addEmail(ctx: Ctx, userId: unknown, fromAddr: string, subject: string, body: string, labels: readonly string[]): Row {
  const user = ctx.data.getItem('email', 'users', userId);
  const to = typeof user?.email_address === 'string' ? user.email_address : DEFAULT_ADDRESS;
  const now = new Date();
  const clean = body.replace(/[\n\r]/g, ' ').trim();
  const msgs = ctx.data.query('email', 'sent_messages');
  const message: Row = {
    id: 30000 + msgs.length + 1,
    from_: fromAddr,
    to: [to],
    cc: [],
    subject,
    date: `${localStamp(now)}Z`,
    body,
    message_id: `<bridge-${randomUUID().replace(/-/g, '').slice(0, 8)}@miniweb.local>`,
    folder: 'inbox',
    labels: labels.length ? [...labels] : ['notifications'],
    is_read: false,
    is_starred: false,
    has_attachment: false,
    user_id: userId,
    from_addr: fromAddr,
    to_addrs: [to],
    cc_addrs: [],
    date_display: displayDate(now),
    date_sort: now.getTime() / 1000,
    body_preview: clean.length > 120 ? `${clean.slice(0, 120)}...` : clean,
  };
  ctx.data.saveCollection('email', 'sent_messages', [...msgs, message]);
  return message;
}

/** A transaction waiting for its code, as the cookie keeps it. */
export interface Pending2fa {
  readonly code: string;
  readonly event_type: string;
  readonly kwargs: Row;
  readonly return_url: string;
  /** `time.time()` when asked. */
  readonly created: number;
}

/**
 * `request_2fa`: where to send the browser for a transaction. With `_disable_2fa`, the event runs now and the
 * answer is `returnUrl`; else the code is mailed and kept in the cookie, and the answer is `/verify-payment`.
 */
export function request2fa(ctx: Ctx, events: Events, eventType: string, returnUrl: string, kwargs: Row): string {
  if (ctx.session.get('_disable_2fa')) {
    events.emit(ctx, eventType, kwargs);
    return returnUrl;
  }
  const code = String(randomInt(100000, 1000000));
  const pending: Pending2fa = { code, event_type: eventType, kwargs, return_url: returnUrl, created: Date.now() / 1000 };
  ctx.session.set('_pending_2fa', pending);
  const amount = kwargs.amount;
  const merchant = kwargs.merchant ?? kwargs.recipient ?? '';
  const body =
    `Your verification code is: ${code}\n\nTransaction: ${eventType}\n` +
    `${amount ? `Amount: $${pyStr(amount, true)}` : ''}\n${merchant ? `To: ${pyStr(merchant)}` : ''}\n\n` +
    'If you did not initiate this transaction, ignore this email.';
  addEmail(ctx, kwargs.user_id ?? 1, 'security@miniweb.local', `Verification Code: ${code}`, body, ['security', '2fa']);
  return '/verify-payment';
}

function verifyPage(pending: Pending2fa | undefined, error: string | null): Reply {
  const amount = pending && typeof pending.kwargs.amount === 'number' && pending.kwargs.amount ? `<div class="amount">$${pending.kwargs.amount.toFixed(2)}</div>` : '';
  const inner = pending
    ? `<p class="desc">A 6-digit verification code has been sent to your email.<br>Enter it below to complete your transaction.</p>${amount}
<form method="post"><label for="code">Verification code</label><input type="text" id="code" name="code" maxlength="6" pattern="[0-9]{6}" placeholder="000000" autofocus required>
${error ? `<div class="error">${esc(error)}</div>` : ''}<button type="submit">Verify &amp; Complete</button></form>
<p class="info">Check your email inbox for the code. It expires in 10 minutes.</p>`
    : `<p class="desc">${esc(error ?? 'No pending transaction.')}</p><a href="/">Return Home</a>`;
  return html(`<!DOCTYPE html>
<html><head><meta charset="UTF-8"><title>Verify Transaction</title></head><body>
<div class="card"><h1>Verify Your Transaction</h1>
${inner}
</div></body></html>`);
}

/** `/verify-payment`: the code form; the right code runs the transaction and redirects to its return URL. */
export function verifyRoutes(events: Events): Route[] {
  const handle = (ctx: Ctx): Reply => {
    const pending = ctx.session.get('_pending_2fa') as Pending2fa | undefined;
    if (!pending) return verifyPage(undefined, 'No pending transaction.');
    if (ctx.method !== 'POST') return verifyPage(pending, null);
    if (Date.now() / 1000 - (pending.created ?? 0) > 600) {
      ctx.session.pop('_pending_2fa');
      return verifyPage(pending, 'Verification code expired');
    }
    if (ctx.field('code') !== pending.code) return verifyPage(pending, 'Invalid verification code');
    events.emit(ctx, pending.event_type, pending.kwargs);
    ctx.session.pop('_pending_2fa');
    return redirect(pending.return_url || '/');
  };
  return [
    { method: 'GET', path: '/verify-payment', handle },
    { method: 'POST', path: '/verify-payment', handle },
  ];
}
