/**
 * The fake MiniWeb's page pieces: escaping, one layout for every site page, and the two static files a page loads,
 * `/static/site.css` and `/static/recorder.js` (our own small recorder: it reports the page and the user's clicks,
 * typing, selections and form submissions to `/_admin/record` and `/_admin/beacon`, as MiniWeb's recorder does).
 * @module
 */

/** Escapes text for HTML content and attribute values. */
export function esc(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** `$1,234.50`. */
export function money(n: unknown): string {
  return `$${Number(n ?? 0).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** A link in a site's top bar. */
export interface NavLink {
  readonly href: string;
  readonly text: string;
}

/** One site page: its `<title>`, the site's brand and top links, and the main content (HTML). */
export function page(opts: { title: string; brand: string; home: string; nav?: readonly NavLink[]; body: string }): string {
  const nav = (opts.nav ?? []).map((l) => `<a href="${esc(l.href)}">${esc(l.text)}</a>`).join(' ');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8"><title>${esc(opts.title)}</title>
<link rel="stylesheet" href="/static/site.css"></head>
<body><header class="topbar"><a class="logo" href="${esc(opts.home)}">${esc(opts.brand)}</a><nav>${nav}</nav></header>
<main>${opts.body}</main>
</body></html>`;
}

/** `/static/site.css`. */
export const SITE_CSS = `body{font-family:Arial,sans-serif;margin:0;background:#f6f7f9;color:#1c1c1c}
.topbar{display:flex;gap:16px;align-items:center;padding:10px 20px;background:#fff;border-bottom:1px solid #ddd}
.topbar nav a{margin-right:12px}.logo{font-weight:700;font-size:20px;text-decoration:none}
main{max-width:860px;margin:20px auto;padding:0 16px}.card{background:#fff;border:1px solid #ddd;border-radius:6px;padding:12px;margin:10px 0}
label{display:block;margin:8px 0 2px}input,select,textarea{padding:6px;min-width:260px}button{padding:6px 14px;cursor:pointer}
.error{color:#c0392b}.muted{color:#777}
`;

/**
 * `/static/recorder.js`: on load an observation (`{mw: "observation", url, title}`) to `/_admin/record`; on each
 * click, change and submit an action (`{mw: "action", action, target, selector, url, ...}`) to `/_admin/record`
 * (fetch, keepalive) and to `/_admin/beacon` (`navigator.sendBeacon`, a JSON blob, as MiniWeb's recorder sends it).
 */
export const RECORDER_JS = `(function () {
  'use strict';
  if (window.__mw_recorder) return;
  window.__mw_recorder = true;
  function here() { return location.pathname + location.search; }
  function record(msg) {
    try {
      fetch('/_admin/record', { method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(msg), keepalive: true, credentials: 'same-origin' }).catch(function () {});
    } catch (e) {}
  }
  function beacon(msg) {
    try {
      var body = new Blob([JSON.stringify(msg)], { type: 'application/json' });
      if (!navigator.sendBeacon || !navigator.sendBeacon('/_admin/beacon', body)) {
        fetch('/_admin/beacon', { method: 'POST', headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(msg), keepalive: true, credentials: 'same-origin' }).catch(function () {});
      }
    } catch (e) {}
  }
  function label(el) {
    var a = el.getAttribute('aria-label');
    if (a) return a.trim();
    if (el.id) { var l = document.querySelector('label[for="' + el.id + '"]'); if (l) return l.textContent.trim(); }
    if (el.labels && el.labels.length) return el.labels[0].textContent.trim();
    var t = el.getAttribute('title') || el.getAttribute('placeholder');
    if (t) return t.trim();
    if (/^(BUTTON|A|H[1-6]|LABEL|OPTION|LI)$/.test(el.tagName)) return el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 60);
    return '';
  }
  function describe(el) {
    if (!el || el === document.body) return 'page';
    var tag = el.tagName.toLowerCase(), name = label(el);
    if (tag === 'a') return name ? "link '" + name + "' -> " + (el.getAttribute('href') || '') : 'link -> ' + (el.getAttribute('href') || '');
    if (tag === 'button' || el.type === 'submit') return "button '" + (name || '(unnamed)') + "'";
    if (tag === 'input') return 'input[' + (el.type || 'text') + "] '" + (name || el.name || '') + "'";
    if (tag === 'textarea') return "textarea '" + (name || el.name || '') + "'";
    if (tag === 'select') { var o = el.options[el.selectedIndex]; return "select '" + (name || el.name || '') + "' = '" + (o ? o.text.trim() : '') + "'"; }
    if (tag === 'form') return 'form' + (el.id ? '#' + el.id : '');
    return name ? tag + " '" + name + "'" : tag;
  }
  function selector(el) {
    if (!el || el === document.body) return 'body';
    if (el.id) return '#' + el.id;
    var name = el.getAttribute('name');
    return el.tagName.toLowerCase() + (name ? '[name="' + name + '"]' : '');
  }
  function act(action, el, extra) {
    var msg = { mw: 'action', action: action, target: describe(el), selector: selector(el), url: here(),
      timestamp: new Date().toISOString() };
    for (var k in extra || {}) msg[k] = extra[k];
    record(msg);
    beacon(msg);
  }
  document.addEventListener('click', function (e) {
    var el = e.target.closest ? e.target.closest('a,button,input,select,textarea,[onclick]') || e.target : e.target;
    var extra = { x: e.clientX, y: e.clientY };
    if (el.tagName === 'A' && el.getAttribute('href')) extra.href = el.getAttribute('href');
    act('click', el, extra);
  }, true);
  document.addEventListener('change', function (e) {
    var el = e.target;
    if (el.tagName === 'SELECT') {
      var o = el.options[el.selectedIndex];
      act('select', el, { value: el.value, option_text: o ? o.text.trim() : '' });
    } else if (el.tagName === 'TEXTAREA' || (el.tagName === 'INPUT' && !/^(checkbox|radio|file)$/.test(el.type))) {
      act('type', el, { text: el.value });
    }
  }, true);
  document.addEventListener('submit', function (e) {
    var form = e.target, data = {};
    try { new FormData(form).forEach(function (v, k) { data[k] = typeof v === 'string' ? v.slice(0, 100) : '(file)'; }); } catch (x) {}
    act('submit', form, { method: (form.method || 'GET').toUpperCase(), formData: data });
  }, true);
  function observe() { record({ mw: 'observation', url: here(), title: document.title || '', timestamp: new Date().toISOString() }); }
  if (document.readyState === 'complete') setTimeout(observe, 200);
  else window.addEventListener('load', function () { setTimeout(observe, 200); });
})();
`;

/** What MiniWeb injects before `</body>` of every HTML page under `/sites/` (here only the recorder). */
export const RECORDER_TAG = '<script src="/static/recorder.js"></script>';

/** Puts the recorder tag before the last `</body>`, or at the end when there is none, as MiniWeb injects it. */
export function injectRecorder(body: string): string {
  const at = body.lastIndexOf('</body>');
  return at === -1 ? body + RECORDER_TAG : `${body.slice(0, at)}${RECORDER_TAG}\n${body.slice(at)}`;
}
