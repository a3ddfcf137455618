/** The mail template's contacts, settings and JSON API. @module */
import { html } from '../../html';
import { checkbox, errorSummary, idOf, postForm, selectField, submit, textArea, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { FOLDERS, findContacts, findMessages, settings, type ContactRow, type Folder } from './queries';

const EMAIL = /^[^@\s,<>]+@[^@\s,<>]+\.[^@\s,<>]+$/;
const CONTACT_FIELDS = ['name', 'email', 'phone', 'company', 'notes'] as const;

function contactsPage(ctx: RequestCtx): Reply {
  const q = ctx.q('q');
  const list = findContacts(ctx.db, q);
  return ctx.render({
    title: 'Contacts',
    body: html`<form method="get" action="${ctx.href('/contacts')}" class="row" aria-label="Find contacts">
<div class="field"><label for="contact-q">Search contacts</label><input id="contact-q" type="search" name="q" value="${q}"></div>${submit('Find')}</form>
<p><a href="${ctx.href('/contacts/new')}">Add contact</a></p>
${list.length ? html`<table><thead><tr><th>Name</th><th>Email</th><th>Company</th></tr></thead><tbody>${list.map(
  (c) => html`<tr><td><a href="${ctx.href(`/contacts/${c.id}`)}">${c.name}</a></td><td>${c.email}</td><td>${c.company}</td></tr>`,
)}</tbody></table>` : html`<p>No contacts found.</p>`}`,
  });
}

function getContact(ctx: RequestCtx): ContactRow | undefined {
  const id = idOf(ctx.params.id);
  return id === undefined ? undefined : (ctx.db.prepare('SELECT * FROM contacts WHERE id = ?').get(id) as ContactRow | undefined);
}

function contactPage(ctx: RequestCtx): Reply {
  const c = getContact(ctx);
  if (!c) return ctx.notFound('That contact does not exist.');
  return ctx.render({
    title: c.name,
    body: html`<table><tbody><tr><th>Email</th><td>${c.email}</td></tr><tr><th>Phone</th><td>${c.phone}</td></tr>
<tr><th>Company</th><td>${c.company}</td></tr><tr><th>Notes</th><td>${c.notes}</td></tr></tbody></table>
<div class="row"><a class="button" href="${ctx.href('/compose', { to: c.email })}">Send email</a> <a href="${ctx.href(`/contacts/${c.id}/edit`)}">Edit contact</a>
${postForm(ctx.href(`/contacts/${c.id}/delete`), submit('Delete contact', { variant: 'danger' }), { inline: true })}</div>`,
  });
}

function contactForm(ctx: RequestCtx, action: string, title: string, v: Record<string, string>, errors: Record<string, string> = {}): Reply {
  return ctx.render({
    title,
    status: Object.keys(errors).length ? 422 : 200,
    body: html`${errorSummary(errors)}${postForm(ctx.href(action), html`
${textField({ label: 'Name', name: 'name', value: v.name, error: errors.name })}
${textField({ label: 'Email', name: 'email', type: 'email', value: v.email, error: errors.email })}
${textField({ label: 'Phone', name: 'phone', type: 'tel', value: v.phone, error: errors.phone })}
${textField({ label: 'Company', name: 'company', value: v.company })}
${textArea({ label: 'Notes', name: 'notes', value: v.notes, rows: 3 })}${submit('Save contact')}`, { label: 'Contact details' })}`,
  });
}

function contactValues(ctx: RequestCtx): Record<string, string> {
  return Object.fromEntries(CONTACT_FIELDS.map((k) => [k, ctx.field(k)]));
}

function contactErrors(ctx: RequestCtx, v: Record<string, string>, selfId?: number): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!v.name) errors.name = 'Enter a name.';
  if (!EMAIL.test(v.email ?? '')) errors.email = 'Enter a valid email address.';
  else {
    const other = ctx.db.prepare('SELECT id FROM contacts WHERE lower(email) = lower(?)').get(v.email) as { id: number } | undefined;
    if (other && other.id !== selfId) errors.email = 'Another contact already has this email address.';
  }
  if (v.phone && !/^[0-9()+\-. ]{7,20}$/.test(v.phone)) errors.phone = 'Enter a phone number (digits, spaces, dashes, parentheses).';
  return errors;
}

function createContact(ctx: RequestCtx): Reply {
  const v = contactValues(ctx);
  const errors = contactErrors(ctx, v);
  if (Object.keys(errors).length) return contactForm(ctx, '/contacts', 'New contact', v, errors);
  const id = ctx.db.prepare('INSERT INTO contacts (name, email, phone, company, notes) VALUES (?, ?, ?, ?, ?)').run(v.name, v.email, v.phone, v.company, v.notes).lastInsertRowid;
  ctx.flash(`Added ${v.name} to your contacts.`);
  return ctx.redirect(`/contacts/${id}`);
}

function updateContact(ctx: RequestCtx): Reply {
  const c = getContact(ctx);
  if (!c) return ctx.notFound('That contact does not exist.');
  const v = contactValues(ctx);
  const errors = contactErrors(ctx, v, c.id);
  if (Object.keys(errors).length) return contactForm(ctx, `/contacts/${c.id}`, `Edit ${c.name}`, v, errors);
  ctx.db.prepare('UPDATE contacts SET name = ?, email = ?, phone = ?, company = ?, notes = ? WHERE id = ?').run(v.name, v.email, v.phone, v.company, v.notes, c.id);
  ctx.flash(`Saved ${v.name}.`);
  return ctx.redirect(`/contacts/${c.id}`);
}

function settingsPage(ctx: RequestCtx, values?: Record<string, string>, errors: Record<string, string> = {}): Reply {
  const s = settings(ctx.db);
  const v = values ?? { name: s.name, signature: s.signature, vacation: String(s.vacation), vacation_message: s.vacation_message, per_page: String(s.per_page) };
  return ctx.render({
    title: 'Settings',
    status: Object.keys(errors).length ? 422 : 200,
    body: html`${errorSummary(errors)}<p>Signed in as ${s.email}</p>${postForm(ctx.href('/settings'), html`
${textField({ label: 'Display name', name: 'name', value: v.name, error: errors.name })}
${textArea({ label: 'Signature', name: 'signature', value: v.signature, rows: 3, error: errors.signature })}
${checkbox({ label: 'Turn on vacation responder', name: 'vacation', checked: v.vacation === '1' })}
${textArea({ label: 'Vacation message', name: 'vacation_message', value: v.vacation_message, rows: 3, error: errors.vacation_message })}
${selectField({ label: 'Messages per page', name: 'per_page', value: v.per_page, options: ['10', '15', '25', '50'].map((n) => ({ value: n, text: n })), error: errors.per_page })}
${submit('Save settings')}`, { label: 'Settings' })}`,
  });
}

function saveSettings(ctx: RequestCtx): Reply {
  const v = { name: ctx.field('name'), signature: ctx.field('signature'), vacation: ctx.field('vacation') === '1' ? '1' : '0', vacation_message: ctx.field('vacation_message'), per_page: ctx.field('per_page') || '15' };
  const errors: Record<string, string> = {};
  if (!v.name) errors.name = 'Enter the name people see on your messages.';
  if (v.signature.length > 500) errors.signature = 'The signature can be at most 500 characters.';
  if (v.vacation === '1' && !v.vacation_message) errors.vacation_message = 'Write the message people get while you are away.';
  if (!['10', '15', '25', '50'].includes(v.per_page)) errors.per_page = 'Choose 10, 15, 25 or 50 messages per page.';
  if (Object.keys(errors).length) return settingsPage(ctx, v, errors);
  ctx.db.prepare('UPDATE settings SET name = ?, signature = ?, vacation = ?, vacation_message = ?, per_page = ? WHERE id = 1').run(v.name, v.signature, Number(v.vacation), v.vacation_message, Number(v.per_page));
  ctx.flash('Your settings were saved.');
  return ctx.redirect('/settings');
}

/** Registers contacts, settings and the JSON API. */
export function contactRoutes(r: Router<Handler>): void {
  r.get('/contacts', contactsPage);
  r.get('/contacts/new', (ctx) => contactForm(ctx, '/contacts', 'New contact', {}));
  r.post('/contacts', createContact);
  r.get('/contacts/:id', contactPage);
  r.get('/contacts/:id/edit', (ctx) => {
    const c = getContact(ctx);
    return c ? contactForm(ctx, `/contacts/${c.id}`, `Edit ${c.name}`, { ...c, id: String(c.id) }) : ctx.notFound('That contact does not exist.');
  });
  r.post('/contacts/:id', updateContact);
  r.post('/contacts/:id/delete', (ctx) => {
    const c = getContact(ctx);
    if (!c) return ctx.notFound('That contact does not exist.');
    ctx.db.prepare('DELETE FROM contacts WHERE id = ?').run(c.id);
    ctx.flash(`Deleted ${c.name} from your contacts.`);
    return ctx.redirect('/contacts');
  });
  r.get('/settings', (ctx) => settingsPage(ctx));
  r.post('/settings', saveSettings);
  r.get('/api/messages', (ctx) => {
    const folder = ctx.q('folder') as Folder;
    if (folder && !FOLDERS.includes(folder)) return ctx.json({ error: `no folder ${folder}` }, 400);
    const list = findMessages(ctx.db, { folder: folder || (ctx.q('q') ? undefined : 'inbox'), q: ctx.q('q') });
    return ctx.json({ total: list.length, messages: list.map(({ body: _b, ...m }) => m) });
  });
  r.get('/api/contacts', (ctx) => ctx.json(findContacts(ctx.db, ctx.q('q'))));
}
