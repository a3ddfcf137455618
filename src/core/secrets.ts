/**
 * API keys kept out of what the library writes. A key is removed as written and in the encodings a server or
 * proxy may echo it in (URL-encoded, JSON-escaped, base64). The model adapters remember the keys they are given
 * ({@link rememberSecret}); their replies, and every text a file store writes, go through
 * {@link redactKnownSecrets}, so a key echoed in a successful reply reaches no task, record, episode or row.
 * @module
 */

/** What a removed secret is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * The shortest key remembered for the data guard: a shorter "key" (vLLM's `EMPTY`, a test's `abc`) is not a real
 * credential, and removing it from every file would damage ordinary text. Error messages still drop it.
 */
const MIN_REMEMBERED = 8;

const known = new Set<string>();
let knownForms: readonly string[] = [];

/** Remembers a key the process holds, so that {@link redactKnownSecrets} removes it (short placeholders are ignored). */
export function rememberSecret(secret: string | undefined): void {
  if (secret === undefined || secret.length < MIN_REMEMBERED || known.has(secret)) return;
  known.add(secret);
  knownForms = [...new Set([...known].flatMap((s) => secretForms(s)))].sort((a, b) => b.length - a.length);
}

/** `text` without any key remembered by {@link rememberSecret}, in any of its encodings; `text` itself when none is there. */
export function redactKnownSecrets(text: string): string {
  return knownForms.length === 0 ? text : replaceForms(text, knownForms);
}

/** `text` without the given secrets, in any of their encodings (secrets shorter than 4 characters are skipped). */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = replaceForms(out, secretForms(secret));
  return out;
}

function replaceForms(text: string, forms: readonly string[]): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
  return out;
}

const formCache = new Map<string, readonly string[]>();

/** A secret's spellings, longest first so that a longer form is replaced before a raw copy inside it. */
export function secretForms(secret: string): readonly string[] {
  const cached = formCache.get(secret);
  if (cached) return cached;
  const url = encodeURIComponent(secret);
  const json = JSON.stringify(secret).slice(1, -1);
  const forms = new Set<string>([
    secret,
    url,
    url.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    url.replace(/%20/g, '+'),
    encodeURI(secret),
    json,
    json.replace(/\//g, '\\/'),
    json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    ...base64Forms(secret),
  ]);
  const list = [...forms].filter((form) => form.length >= 4).sort((a, b) => b.length - a.length);
  if (formCache.size < 64) formCache.set(secret, list);
  return list;
}

/**
 * The secret's base64 at each of the three byte alignments it can have inside a longer encoded text, keeping only
 * the characters that depend on the secret's bytes alone (so the match holds whatever surrounds it).
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms: string[] = [];
  for (let pad = 0; pad < 3; pad++) {
    const encoded = Buffer.concat([Buffer.alloc(pad), bytes]).toString('base64');
    const start = Math.ceil((pad * 8) / 6);
    const end = Math.floor(((pad + bytes.length) * 8) / 6);
    const core = encoded.slice(start, end);
    // Short cores would match ordinary text; a secret of a few bytes is still removed raw.
    if (core.length >= 8) forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}
