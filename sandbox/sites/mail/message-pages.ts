/** The mail template's message view, message actions and compose form. @module */
import { html } from '../../html';
import { bodyHtml, errorSummary, idOf, postForm, selectField, submit, textArea, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { LABELS } from './content';
import { folderName } from './list-pages';
import { getMessage, settings, type MessageRow } from './queries';

const EMAIL = /^[^@\s,<>]+@[^@\s,<>]+\.[^@\s,<>]+$/;

function viewMessage(ctx: RequestCtx): Reply {
  const id = idOf(ctx.params.id);
  const m = id === undefined ? undefined : getMessage(ctx.db, id);
  if (!m) return ctx.notFound('That message does not exist or was deleted forever.');
  if (m.folder === 'drafts') return ctx.redirect('/compose', { draft: m.id });
  if (!m.read) ctx.db.prepare('UPDATE messages SET read = 1 WHERE id = ?').run(m.id);
  const act = (path: string, button: ReturnType<typeof submit>, fields = html``) => postForm(ctx.href(`/messages/${m.id}/${path}`), html`${fields}${button}`, { inline: true });
  const moves = [
    m.folder !== 'archive' && m.folder !== 'trash' && m.folder !== 'sent' ? act('move', submit('Archive', { name: 'folder', value: 'archive', variant: 'secondary' })) : '',
    m.folder === 'archive' || m.folder === 'trash' ? act('move', submit('Move to inbox', { name: 'folder', value: 'inbox', variant: 'secondary' })) : '',
    m.folder !== 'trash' ? act('move', submit('Move to trash', { name: 'folder', value: 'trash', variant: 'danger' })) : act('delete', submit('Delete forever', { variant: 'danger' })),
  ];
  return ctx.render({
    title: m.subject,
    body: html`<p><strong>From:</strong> ${m.from_name} &lt;${m.from_email}&gt;<br><strong>To:</strong> ${m.to_email}${m.cc ? html`<br><strong>Cc:</strong> ${m.cc}` : ''}
<br><strong>Date:</strong> ${m.sent_at}<br><strong>Folder:</strong> ${folderName(m.folder)}${m.label ? html` · <strong>Label:</strong> ${m.label}` : ''}${m.starred ? ' · ★ Starred' : ''}</p>
<div class="row"><a class="button" href="${ctx.href('/compose', { reply_to: m.id })}">Reply</a> <a class="button" href="${ctx.href('/compose', { forward: m.id })}">Forward</a>
${moves} ${act('star', submit(m.starred ? 'Unstar' : 'Star', { variant: 'secondary' }))} ${act('unread', submit('Mark as unread', { variant: 'secondary' }))}</div>
${postForm(ctx.href(`/messages/${m.id}/label`), html`<div class="row">${selectField({ label: 'Label', name: 'label', value: m.label, options: [{ value: '', text: 'No label' }, ...LABELS.map((l) => ({ value: l, text: l }))] })}${submit('Apply label', { variant: 'secondary' })}</div>`, { label: 'Label this message' })}
<hr>${bodyHtml(m.body)}`,
  });
}

function messageAction(run: (ctx: RequestCtx, m: MessageRow) => Reply): Handler {
  return (ctx) => {
    const id = idOf(ctx.params.id);
    const m = id === undefined ? undefined : getMessage(ctx.db, id);
    return m ? run(ctx, m) : ctx.notFound('That message does not exist or was deleted forever.');
  };
}

const move = messageAction((ctx, m) => {
  const folder = ctx.field('folder');
  if (!['inbox', 'archive', 'trash'].includes(folder)) return ctx.badRequest(`Messages cannot be moved to "${folder}".`);
  ctx.db.prepare('UPDATE messages SET folder = ? WHERE id = ?').run(folder, m.id);
  ctx.flash(folder === 'trash' ? `"${m.subject}" was moved to the trash.` : folder === 'archive' ? `"${m.subject}" was archived.` : `"${m.subject}" was moved to the inbox.`);
  return ctx.redirect(m.folder === 'inbox' ? '/' : `/folder/${m.folder}`);
});

const destroy = messageAction((ctx, m) => {
  if (m.folder !== 'trash') return ctx.badRequest('Only messages in the trash can be deleted forever.');
  ctx.db.prepare('DELETE FROM messages WHERE id = ?').run(m.id);
  ctx.flash(`"${m.subject}" was deleted forever.`);
  return ctx.redirect('/folder/trash');
});

const star = messageAction((ctx, m) => {
  ctx.db.prepare('UPDATE messages SET starred = ? WHERE id = ?').run(m.starred ? 0 : 1, m.id);
  ctx.flash(m.starred ? `Removed the star from "${m.subject}".` : `Starred "${m.subject}".`);
  return ctx.redirect(`/messages/${m.id}`);
});

const unread = messageAction((ctx, m) => {
  ctx.db.prepare('UPDATE messages SET read = 0 WHERE id = ?').run(m.id);
  ctx.flash(`"${m.subject}" was marked as unread.`);
  return ctx.redirect(m.folder === 'inbox' ? '/' : `/folder/${m.folder}`);
});

const label = messageAction((ctx, m) => {
  const value = ctx.field('label');
  if (value && !(LABELS as readonly string[]).includes(value)) return ctx.badRequest(`There is no label "${value}".`);
  ctx.db.prepare('UPDATE messages SET label = ? WHERE id = ?').run(value, m.id);
  ctx.flash(value ? `Labelled "${m.subject}" as ${value}.` : `Removed the label from "${m.subject}".`);
  return ctx.redirect(`/messages/${m.id}`);
});

interface ComposeValues {
  to: string;
  cc: string;
  subject: string;
  body: string;
  reply_to: string;
  forward_of: string;
  draft_id: string;
}

function composePage(ctx: RequestCtx, v: ComposeValues, errors: Record<string, string> = {}, quoted?: MessageRow): Reply {
  return ctx.render({
    title: v.draft_id ? 'Edit draft' : v.reply_to ? 'Reply' : v.forward_of ? 'Forward' : 'New message',
    status: Object.keys(errors).length ? 422 : 200,
    body: html`${errorSummary(errors)}${postForm(ctx.href('/compose'), html`
<input type="hidden" name="reply_to" value="${v.reply_to}"><input type="hidden" name="forward_of" value="${v.forward_of}"><input type="hidden" name="draft_id" value="${v.draft_id}">
${textField({ label: 'To', name: 'to', type: 'text', value: v.to, error: errors.to, placeholder: 'name@example.com' })}
${textField({ label: 'Cc', name: 'cc', type: 'text', value: v.cc, error: errors.cc })}
${textField({ label: 'Subject', name: 'subject', value: v.subject, error: errors.subject })}
${textArea({ label: 'Message', name: 'body', value: v.body, rows: 10, error: errors.body })}
<div class="row">${submit('Send', { name: 'action', value: 'send' })} ${submit('Save draft', { name: 'action', value: 'draft', variant: 'secondary' })}</div>`, { label: 'Compose' })}
${quoted ? html`<h2>Original message</h2><p class="muted">On ${quoted.sent_at}, ${quoted.from_name} &lt;${quoted.from_email}&gt; wrote:</p><blockquote>${bodyHtml(quoted.body)}</blockquote>` : ''}`,
  });
}

function compose(ctx: RequestCtx): Reply {
  const v: ComposeValues = { to: ctx.q('to'), cc: '', subject: '', body: '', reply_to: '', forward_of: '', draft_id: '' };
  const ref = (name: string): MessageRow | undefined | null => {
    const raw = ctx.q(name);
    if (!raw) return null;
    const id = idOf(raw);
    return id === undefined ? undefined : getMessage(ctx.db, id);
  };
  const [reply, forward, draft] = [ref('reply_to'), ref('forward'), ref('draft')];
  if (reply === undefined || forward === undefined || draft === undefined) return ctx.notFound('That message does not exist.');
  if (reply) {
    v.reply_to = String(reply.id);
    v.to = reply.folder === 'sent' ? reply.to_email : reply.from_email;
    v.subject = /^re:/i.test(reply.subject) ? reply.subject : `Re: ${reply.subject}`;
    return composePage(ctx, v, {}, reply);
  }
  if (forward) {
    v.forward_of = String(forward.id);
    v.subject = /^fwd:/i.test(forward.subject) ? forward.subject : `Fwd: ${forward.subject}`;
    v.body = `---------- Forwarded message ----------\nFrom: ${forward.from_name} <${forward.from_email}>\nDate: ${forward.sent_at}\nSubject: ${forward.subject}\n\n${forward.body}`;
  }
  if (draft) {
    if (draft.folder !== 'drafts') return ctx.redirect(`/messages/${draft.id}`);
    Object.assign(v, { to: draft.to_email, cc: draft.cc, subject: draft.subject, body: draft.body, draft_id: String(draft.id) });
  }
  return composePage(ctx, v);
}

function sendOrSave(ctx: RequestCtx): Reply {
  const v: ComposeValues = {
    to: ctx.field('to'), cc: ctx.field('cc'), subject: ctx.field('subject'), body: ctx.field('body'),
    reply_to: ctx.field('reply_to'), forward_of: ctx.field('forward_of'), draft_id: ctx.field('draft_id'),
  };
  const action = ctx.field('action') || 'send';
  if (action !== 'send' && action !== 'draft') return ctx.badRequest(`"${action}" is not something we can do with a message.`);
  const errors: Record<string, string> = {};
  const list = (s: string): string[] => s.split(/[,;]/).map((x) => x.trim()).filter(Boolean);
  if (action === 'send' && !list(v.to).length) errors.to = 'Add at least one recipient.';
  const bad = [...list(v.to), ...list(v.cc)].filter((a) => !EMAIL.test(a));
  if (bad.length) errors.to = `Not a valid email address: ${bad.join(', ')}`;
  if (v.subject.length > 200) errors.subject = 'The subject can be at most 200 characters.';
  if (v.body.length > 20000) errors.body = 'The message is too long.';
  const refs = [v.reply_to, v.forward_of, v.draft_id].map((x) => (x ? idOf(x) ?? -1 : null));
  if (refs.includes(-1)) return ctx.badRequest('The form refers to a message that does not exist.');
  const [replyTo, forwardOf, draftId] = refs as Array<number | null>;
  const draft = draftId ? getMessage(ctx.db, draftId) : undefined;
  if (draftId && draft?.folder !== 'drafts') return ctx.notFound('That draft was already sent or deleted.');
  if (Object.keys(errors).length) return composePage(ctx, v, errors);
  const me = settings(ctx.db);
  const folder = action === 'send' ? 'sent' : 'drafts';
  const body = action === 'send' && me.signature ? `${v.body}\n\n-- \n${me.signature}` : v.body;
  const to = list(v.to).join(', ');
  const cc = list(v.cc).join(', ');
  const when = `${ctx.site.today} 12:00`;
  if (draft) {
    ctx.db.prepare('UPDATE messages SET folder = ?, to_email = ?, cc = ?, subject = ?, body = ?, sent_at = ? WHERE id = ?').run(folder, to, cc, v.subject, body, when, draft.id);
  } else {
    ctx.db
      .prepare(`INSERT INTO messages (folder, from_name, from_email, to_email, cc, subject, body, sent_at, read, starred, label, in_reply_to, forwarded_from)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, 0, '', ?, ?)`)
      .run(folder, me.name, me.email, to, cc, v.subject, body, when, replyTo, forwardOf);
  }
  ctx.flash(action === 'send' ? `Message sent to ${to}.` : 'Draft saved.');
  return ctx.redirect(action === 'send' ? '/folder/sent' : '/folder/drafts');
}

/** Registers the message view, its actions and the compose form. */
export function messageRoutes(r: Router<Handler>): void {
  r.get('/messages/:id', viewMessage);
  r.post('/messages/:id/move', move);
  r.post('/messages/:id/delete', destroy);
  r.post('/messages/:id/star', star);
  r.post('/messages/:id/unread', unread);
  r.post('/messages/:id/label', label);
  r.get('/compose', compose);
  r.post('/compose', sendOrSave);
}
