/**
 * The fake `banking` site (SecureBank Online): user 1's accounts with masked numbers, a transfer that saves the
 * user's accounts as the whole `accounts` collection (so another user's account reads as deleted for the session)
 * and adds two transactions, a reveal of full account numbers behind a mailed code, and a logout that answers 200
 * and lasts.
 * @module
 */
import type { Row, TableSpec } from '../db';
import { esc, money, page } from '../html';
import { html, json, redirect, type Ctx, type Reply, type Route } from '../http';
import { request2fa, type Events } from '../payments';
import { round2 } from '../pyjson';
import { currentUid, floatOf, intOf, today, type SiteModule } from '../site';

const SITE = 'banking';
const BRAND = 'SecureBank Online';
const HOME = '/sites/banking/';

const TABLES: TableSpec[] = [
  {
    collection: 'users',
    table: 'banking_users',
    columns: [
      ['id', 'INTEGER PRIMARY KEY'],
      ['username', "TEXT NOT NULL DEFAULT ''"],
      ['password', "TEXT NOT NULL DEFAULT ''"],
      ['name', "TEXT NOT NULL DEFAULT ''"],
      ['email', "TEXT NOT NULL DEFAULT ''"],
      ['notifications', "TEXT NOT NULL DEFAULT ''"],
    ],
    rows: [
      { id: 1, username: 'user1', password: 'password1', name: 'Alex Rivera', email: 'alex.rivera@meridiansystems.com', notifications: { email: true, sms: false } },
      { id: 2, username: 'jordan', password: 'password2', name: 'Jordan Lee', email: 'jordan.lee@meridiansystems.com', notifications: { email: false, sms: true } },
    ],
  },
  {
    collection: 'accounts',
    table: 'banking_accounts',
    columns: [
      ['id', 'INTEGER PRIMARY KEY'],
      ['user_id', 'INTEGER NOT NULL DEFAULT 0'],
      ['account_number', "TEXT NOT NULL DEFAULT ''"],
      ['type', "TEXT NOT NULL DEFAULT ''"],
      ['balance', 'REAL NOT NULL DEFAULT 0.0'],
      ['currency', "TEXT NOT NULL DEFAULT ''"],
      ['opened_date', "TEXT NOT NULL DEFAULT ''"],
      ['status', "TEXT NOT NULL DEFAULT ''"],
      ['interest_rate', 'REAL NOT NULL DEFAULT 0.0'],
    ],
    indexes: ['user_id', 'type'],
    rows: [
      { id: 1, user_id: 1, account_number: 'CHK-847291', type: 'checking', balance: 2450.75, currency: 'USD', opened_date: '2019-04-02', status: 'active', interest_rate: 0.01 },
      { id: 2, user_id: 1, account_number: 'SAV-193847', type: 'savings', balance: 10200.5, currency: 'USD', opened_date: '2020-01-15', status: 'active', interest_rate: 2.1 },
      { id: 3, user_id: 2, account_number: 'CHK-552031', type: 'checking', balance: 830.25, currency: 'USD', opened_date: '2021-09-30', status: 'active', interest_rate: 0.01 },
    ],
  },
  {
    collection: 'transactions',
    table: 'banking_transactions',
    columns: [
      ['id', 'INTEGER PRIMARY KEY'],
      ['account_id', 'INTEGER NOT NULL DEFAULT 0'],
      ['user_id', 'INTEGER NOT NULL DEFAULT 0'],
      ['date', "TEXT NOT NULL DEFAULT ''"],
      ['description', "TEXT NOT NULL DEFAULT ''"],
      ['amount', 'REAL NOT NULL DEFAULT 0.0'],
      ['type', "TEXT NOT NULL DEFAULT ''"],
      ['category', "TEXT NOT NULL DEFAULT ''"],
      ['status', "TEXT NOT NULL DEFAULT ''"],
      ['reference', "TEXT NOT NULL DEFAULT ''"],
    ],
    indexes: ['account_id', 'user_id', 'date'],
    rows: [
      { id: 1, account_id: 1, user_id: 1, date: '2026-11-02', description: 'Payroll deposit', amount: 3200.0, type: 'credit', category: 'Income', status: 'posted', reference: 'TXN000001' },
      { id: 2, account_id: 1, user_id: 1, date: '2026-11-05', description: 'Lakeport Grocers', amount: 86.4, type: 'debit', category: 'Groceries', status: 'posted', reference: 'TXN000002' },
      { id: 3, account_id: 3, user_id: 2, date: '2026-11-06', description: 'Transit pass', amount: 45.0, type: 'debit', category: 'Transport', status: 'posted', reference: 'TXN000003' },
    ],
  },
];

/** `CHK-847291` as `CHK-••••91`, unless this session revealed the numbers. */
function mask(ctx: Ctx, num: unknown): string {
  const s = String(num ?? '');
  if (ctx.session.get('identity_verified')) return s;
  const cut = s.lastIndexOf('-');
  const digits = s.slice(cut + 1);
  if (cut >= 0 && digits.length > 2) return `${s.slice(0, cut)}-${'•'.repeat(digits.length - 2)}${digits.slice(-2)}`;
  return '•'.repeat(Math.max(s.length - 2, 0)) + s.slice(-2);
}

function view(ctx: Ctx, title: string, body: string, status = 200): Reply {
  const uid = currentUid(ctx);
  const nav = uid
    ? [
        { href: '/sites/banking/accounts', text: 'Accounts' },
        { href: '/sites/banking/transfer', text: 'Transfer' },
        { href: '/sites/banking/logout', text: 'Sign out' },
      ]
    : [{ href: '/sites/banking/login', text: 'Sign in' }];
  return html(page({ title: `${title} - ${BRAND}`, brand: BRAND, home: HOME, nav, body }), status);
}

function signIn(ctx: Ctx, title: string): Reply {
  return view(ctx, title, '<h1>Please sign in</h1><p>Sign in to see your accounts.</p><p><a href="/sites/banking/login">Sign in</a></p>');
}

function accountsOf(ctx: Ctx, uid: number): Row[] {
  return ctx.data.query(SITE, 'accounts', { where: { user_id: uid } });
}

function accountsPage(ctx: Ctx, title: string): Reply {
  const uid = currentUid(ctx);
  if (uid === null) return signIn(ctx, title);
  const rows = accountsOf(ctx, uid).map(
    (a) => `<tr><td>${esc(a.type)}</td><td class="number">${esc(mask(ctx, a.account_number))}</td><td>${money(a.balance)}</td></tr>`,
  );
  const reveal = ctx.session.get('identity_verified')
    ? ''
    : `<form method="post" action="/sites/banking/accounts/reveal"><input type="hidden" name="next" value="${esc(`${ctx.path}?${ctx.query.toString()}`)}"><button type="submit">Reveal account numbers</button></form>`;
  const verified = ctx.session.get('identity_verified') ? '<p class="ok">Identity verified — full numbers shown</p>' : '';
  return view(ctx, title, `<h1>Your accounts</h1><table><tr><th>Type</th><th>Number</th><th>Balance</th></tr>${rows.join('')}</table>${reveal}${verified}`);
}

function transferPage(ctx: Ctx, uid: number, message = ''): Reply {
  const options = accountsOf(ctx, uid)
    .map((a) => `<option value="${esc(a.id)}">${esc(a.type)} ${esc(mask(ctx, a.account_number))} (${money(a.balance)})</option>`)
    .join('');
  return view(
    ctx,
    'Transfer',
    `<h1>Transfer money</h1>${message ? `<p class="error">${esc(message)}</p>` : ''}
<form method="post" action="/sites/banking/transfer">
<label for="from_account">From account</label><select id="from_account" name="from_account">${options}</select>
<label for="to_account">To account</label><select id="to_account" name="to_account">${options}</select>
<label for="amount">Amount</label><input type="text" id="amount" name="amount" placeholder="0.00">
<label for="memo">Memo (optional)</label><input type="text" id="memo" name="memo">
<p><button type="submit">Transfer</button></p></form>`,
  );
}

/** A transfer as MiniWeb's banking makes it: both balances, the whole `accounts` collection, two transactions. */
function transfer(ctx: Ctx): Reply {
  const uid = currentUid(ctx);
  if (uid === null) return signIn(ctx, 'Transfer');
  const fromId = intOf(ctx.field('from_account'));
  const toId = intOf(ctx.field('to_account'));
  const amount = floatOf(ctx.field('amount'));
  const memo = ctx.field('memo');
  const accounts = accountsOf(ctx, uid);
  const from = accounts.find((a) => a.id === fromId);
  const to = accounts.find((a) => a.id === toId);
  if (!from || !to || fromId === toId) return transferPage(ctx, uid, 'Choose two different accounts.');
  if (!amount || amount <= 0) return transferPage(ctx, uid, 'Enter an amount above zero.');
  if (Number(from.balance) < amount) return transferPage(ctx, uid, 'Insufficient funds.');
  from.balance = round2(Number(from.balance) - amount);
  to.balance = round2(Number(to.balance) + amount);
  ctx.data.saveCollection(SITE, 'accounts', accounts);
  const id = ctx.data.nextId(SITE, 'transactions');
  const note = memo ? ` - ${memo}` : '';
  const txn = (n: number, account: Row, type: string, description: string): Row => ({
    id: n,
    account_id: account.id,
    user_id: uid,
    date: today(),
    description,
    amount,
    type,
    category: 'Transfer',
    status: 'posted',
    reference: `TXN${String(n).padStart(6, '0')}`,
  });
  ctx.data.saveItem(SITE, 'transactions', id, txn(id, from, 'debit', `Transfer to ${String(to.account_number)}${note}`));
  ctx.data.saveItem(SITE, 'transactions', id + 1, txn(id + 1, to, 'credit', `Transfer from ${String(from.account_number)}${note}`));
  return redirect('/sites/banking/accounts');
}

function routes(events: Events): Route[] {
  events.on('account_reveal', function revealAccountNumbers(ctx) {
    ctx.session.set('identity_verified', true);
  });
  return [
    { method: 'GET', path: '/sites/banking/', handle: (ctx) => accountsPage(ctx, 'Dashboard') },
    { method: 'GET', path: '/sites/banking/accounts', handle: (ctx) => accountsPage(ctx, 'Accounts') },
    {
      method: 'GET',
      path: '/sites/banking/transfer',
      handle: (ctx) => {
        const uid = currentUid(ctx);
        return uid === null ? signIn(ctx, 'Transfer') : transferPage(ctx, uid);
      },
    },
    { method: 'POST', path: '/sites/banking/transfer', handle: transfer },
    {
      method: 'POST',
      path: '/sites/banking/accounts/reveal',
      handle: (ctx) => {
        const uid = currentUid(ctx);
        if (uid === null) return signIn(ctx, 'Accounts');
        const next = ctx.field('next') || '/sites/banking/accounts';
        if (ctx.session.get('_disable_2fa')) {
          ctx.session.set('identity_verified', true);
          return redirect(next);
        }
        return redirect(request2fa(ctx, events, 'account_reveal', next, { user_id: uid, category: 'Reveal full account numbers' }));
      },
    },
    {
      method: 'GET',
      path: '/sites/banking/logout',
      handle: (ctx) => {
        ctx.session.pop('user_id');
        ctx.session.pop('identity_verified');
        return view(ctx, 'Signed out', '<h1>You have been signed out</h1><p><a href="/sites/banking/login">Sign in again</a></p>');
      },
    },
    {
      method: 'GET',
      path: '/sites/banking/login',
      handle: (ctx) =>
        view(
          ctx,
          'Sign in',
          `<h1>Sign in</h1><form method="post" action="/sites/banking/login"><label for="username">Username</label><input type="text" id="username" name="username">
<label for="password">Password</label><input type="password" id="password" name="password"><p><button type="submit">Sign in</button></p></form>`,
        ),
    },
    {
      method: 'POST',
      path: '/sites/banking/login',
      handle: (ctx) => {
        const user = ctx.data.query(SITE, 'users', { where: { username: ctx.field('username') }, limit: 1 })[0];
        if (!user || user.password !== ctx.field('password')) return view(ctx, 'Sign in', '<p class="error">Invalid username or password</p>');
        ctx.session.set('user_id', user.id);
        return redirect('/sites/banking/accounts');
      },
    },
    {
      method: 'GET',
      path: '/sites/banking/api/accounts',
      handle: (ctx) => {
        const uid = currentUid(ctx);
        return uid === null ? json({ error: 'Not logged in' }, 401) : json(accountsOf(ctx, uid));
      },
    },
  ];
}

/** SecureBank Online. */
export const banking: SiteModule = {
  id: SITE,
  name: BRAND,
  description: 'SecureBank Online - Digital banking portal',
  tables: TABLES,
  install: routes,
};
