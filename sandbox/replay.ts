/**
 * Replays an oracle solution over plain HTTP, the way a browser without scripts would: links are followed,
 * fields are filled, forms are submitted (with their submitter, and by Enter in a field), redirects followed.
 * It checks tasks and templates in milliseconds; the browser harness is the real thing.
 * @module
 */
import type { HTMLElement } from 'node-html-parser';
import { parseHtml, scanElements, type StaticElement } from 'miniweb-taskgen/toolkit';
import { createSession } from './admin-client';
import { normName, resolveTarget, type OracleStep } from './oracle';
import { SESSION_COOKIE } from './sessions';
import { MINIWEB_SESSION_COOKIE } from './miniweb-protocol';

/** Options of {@link replayOracle}. */
export interface ReplayOptions {
  /** The sandbox's URL, `http://127.0.0.1:8000`. */
  readonly url: string;
  /** Where the episode starts (the site's home). */
  readonly startPath: string;
  /** The solution's steps, replayed in order. */
  readonly oracle: readonly OracleStep[];
  /** The session: its id, or its MiniWeb `session` cookie's value (as the evidence opens it); default a fresh session from `/_admin/sessions`. */
  readonly session?: string;
}

/** How a replay ended. */
export interface ReplayResult {
  /** The session the replay ran in (its evidence is at `/_admin/sessions/<session>`). */
  readonly session: string;
  /** The `done` answer, or the error that stopped the replay. */
  readonly answer: string | null;
  /** Why the replay stopped early (an element not found, a server error), else `null`. */
  readonly error: string | null;
  /** Steps executed. */
  readonly steps: number;
  /** The path of the last page. */
  readonly path: string;
}

interface Page {
  url: URL;
  root: HTMLElement;
  elements: StaticElement[];
  values: Map<HTMLElement, string>;
  checked: Map<HTMLElement, boolean>;
}

/** Replays `oracle` from `startPath` in a session and reports the answer or the first error. */
export async function replayOracle(options: ReplayOptions): Promise<ReplayResult> {
  const session = options.session ?? (await createSession(options.url)).id;
  const origin = new URL(options.url).origin;
  const history: URL[] = [];
  let page: Page | undefined;
  let steps = 0;

  const load = async (target: URL, init: { method: string; body?: string } = { method: 'GET' }): Promise<void> => {
    let url = target;
    let req = init;
    for (let hops = 0; hops < 10; hops++) {
      const r = await fetch(url, {
        method: req.method,
        redirect: 'manual',
        // the sandbox's own session id, or MiniWeb's signed `session` cookie (what the evidence opens): each reads its own
        headers: { cookie: `${SESSION_COOKIE}=${session}; ${MINIWEB_SESSION_COOKIE}=${session}`, ...(req.body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        ...(req.body !== undefined ? { body: req.body } : {}),
      });
      const location = r.headers.get('location');
      if (r.status >= 300 && r.status < 400 && location) {
        await r.body?.cancel();
        url = new URL(location, url);
        req = { method: 'GET' };
        continue;
      }
      if (r.status >= 500) throw new Error(`server error ${r.status} on ${req.method} ${url.pathname}`);
      const root = parseHtml(await r.text());
      if (page) history.push(page.url);
      page = { url, root, elements: scanElements(root), values: new Map(), checked: new Map() };
      return;
    }
    throw new Error(`too many redirects from ${target.pathname}`);
  };

  const find = (target: { role?: string; name: string; nth?: number }): StaticElement => {
    const hit = resolveTarget(page?.elements ?? [], target);
    if (typeof hit === 'string') throw new Error(`oracle: ${hit}`);
    return hit;
  };

  try {
    await load(new URL(options.startPath, origin));
    for (const step of options.oracle) {
      steps++;
      const p = page as Page;
      if ('done' in step) return { session, answer: step.done.answer ?? null, error: null, steps, path: p.url.pathname };
      if ('goto' in step) await load(new URL(step.goto.path, origin));
      else if ('back' in step) {
        const prev = history.pop();
        if (prev) await load(prev);
        history.pop();
      } else if ('scroll' in step) continue;
      else if ('click' in step) {
        const el = find(step.click);
        if (el.role === 'link' && el.href !== undefined) await load(new URL(el.href, p.url));
        else if (el.role === 'checkbox' || el.role === 'radio') toggle(p, el);
        else if (isSubmitter(el)) await submit(p, el.node, el, load);
      } else if ('type' in step) {
        const el = find(step.type);
        p.values.set(el.node, step.type.text);
        if (step.type.enter) await submit(p, el.node, undefined, load);
      } else if ('select' in step) {
        const el = find(step.select);
        const want = normName(step.select.option);
        const opt = el.options?.find((o) => normName(o.text) === want) ?? el.options?.find((o) => o.value === step.select.option);
        if (!opt) throw new Error(`oracle: no option "${step.select.option}" in ${el.role} "${el.name}"`);
        p.values.set(el.node, opt.value);
      } else if ('check' in step) toggle(p, find(step.check));
    }
    return { session, answer: null, error: 'the oracle ended without done', steps, path: page?.url.pathname ?? '' };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { session, answer: message, error: message, steps, path: page?.url.pathname ?? '' };
  }
}

function isSubmitter(el: StaticElement): boolean {
  const type = (el.node.getAttribute('type') ?? (el.tag === 'button' ? 'submit' : '')).toLowerCase();
  return (el.tag === 'button' || el.tag === 'input') && (type === 'submit' || type === 'image');
}

function toggle(p: Page, el: StaticElement): void {
  if (el.role === 'radio') {
    const form = el.node.closest('form');
    for (const other of p.elements) {
      if (other.role === 'radio' && other.field === el.field && other.node.closest('form') === form) p.checked.set(other.node, false);
    }
    p.checked.set(el.node, true);
    return;
  }
  p.checked.set(el.node, !(p.checked.get(el.node) ?? el.node.hasAttribute('checked')));
}

/** The form's data set as a browser builds it on submission. */
function formData(p: Page, form: HTMLElement, submitter: StaticElement | undefined): URLSearchParams {
  const data = new URLSearchParams();
  for (const el of form.querySelectorAll('input, select, textarea, button')) {
    const name = el.getAttribute('name');
    if (!name || el.hasAttribute('disabled')) continue;
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute('type') ?? (tag === 'button' ? 'submit' : 'text')).toLowerCase();
    if (tag === 'button' || ['submit', 'image', 'button', 'reset'].includes(type)) {
      if (submitter?.node === el) data.append(name, el.getAttribute('value') ?? '');
      continue;
    }
    if (type === 'checkbox' || type === 'radio') {
      if (p.checked.get(el) ?? el.hasAttribute('checked')) data.append(name, el.getAttribute('value') ?? 'on');
      continue;
    }
    if (tag === 'select') {
      const options = el.querySelectorAll('option');
      const chosen = options.find((o) => o.hasAttribute('selected')) ?? options[0];
      data.append(name, p.values.get(el) ?? chosen?.getAttribute('value') ?? chosen?.text ?? '');
      continue;
    }
    data.append(name, p.values.get(el) ?? (tag === 'textarea' ? el.text : (el.getAttribute('value') ?? '')));
  }
  return data;
}

async function submit(
  p: Page,
  from: HTMLElement,
  submitter: StaticElement | undefined,
  load: (url: URL, init?: { method: string; body?: string }) => Promise<void>,
): Promise<void> {
  const form = from.closest('form');
  if (!form) throw new Error('oracle: the element is not in a form');
  const data = formData(p, form, submitter);
  const action = new URL(form.getAttribute('action') ?? p.url.href, p.url);
  if ((form.getAttribute('method') ?? 'get').toLowerCase() === 'post') return load(action, { method: 'POST', body: data.toString() });
  action.search = data.toString();
  return load(action);
}
