/**
 * The report page's script: filters, counts, the episode list shown a page at a time, and each episode's details
 * loaded from `episodes/<task_id>.js` when it is opened, so a run of thousands of episodes stays light. It only
 * ever sets `textContent` and attributes, never markup: the episode data is untrusted web content.
 * Plain ES2017 in a string (no framework, no build step): it runs as is in any current browser.
 * @module
 */

/** The id of the `<script type="application/json">` element holding the episode list. */
export const DATA_ELEMENT_ID = 'taskgen-data';
/** The global function each `episodes/<task_id>.js` file calls with its episode's details. */
export const EPISODE_CALLBACK = 'taskgenEpisode';
/** How many episodes the list shows at a time. */
export const PAGE_SIZE = 100;

/** The inline script of the report page. */
export const CLIENT_SCRIPT = String.raw`
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('${DATA_ELEMENT_ID}').textContent);
  var episodes = data.episodes;
  var form = document.getElementById('filters');
  var list = document.getElementById('list');
  var more = document.getElementById('more');
  var count = document.getElementById('count');
  var tally = document.getElementById('tally');
  var VERDICT = { success: 'SUCCESS', fail: 'NOT SUCCESS', none: 'not judged' };
  var matched = [];
  var shown = 0;
  var waiting = {};
  var cache = {};

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function add(parent) {
    for (var i = 1; i < arguments.length; i++) if (arguments[i]) parent.appendChild(arguments[i]);
    return parent;
  }
  function fmt(n) { return n.toLocaleString('en-US'); }
  function badge(cls, text) { return el('span', 'badge ' + cls, text); }

  function filters() {
    var f = form.elements;
    return { site: f.site.value, verdict: f.verdict.value, disagree: f.disagree.checked, q: f.q.value.trim().toLowerCase() };
  }
  function matches(ep, f) {
    if (f.site && ep.site !== f.site) return false;
    if (f.verdict && ep.verdict !== f.verdict) return false;
    if (f.disagree && !ep.disagree) return false;
    if (f.q && (ep.key + '\n' + ep.instruction).toLowerCase().indexOf(f.q) < 0) return false;
    return true;
  }

  function apply() {
    var f = filters();
    matched = episodes.filter(function (ep) { return matches(ep, f); });
    var t = { success: 0, fail: 0, none: 0, disagree: 0 };
    matched.forEach(function (ep) { t[ep.verdict]++; if (ep.disagree) t.disagree++; });
    tally.textContent = 'success ' + fmt(t.success) + ' \u00b7 not success ' + fmt(t.fail) + ' \u00b7 not judged ' +
      fmt(t.none) + ' \u00b7 judge\u2013verifier disagreements ' + fmt(t.disagree);
    list.textContent = '';
    shown = 0;
    showMore();
  }

  function showMore() {
    var end = Math.min(matched.length, shown + ${PAGE_SIZE});
    var frag = document.createDocumentFragment();
    for (var i = shown; i < end; i++) frag.appendChild(row(matched[i]));
    list.appendChild(frag);
    shown = end;
    count.textContent = 'Showing ' + fmt(shown) + ' of ' + fmt(matched.length) + ' matching episodes (' +
      fmt(episodes.length) + ' in the run)';
    more.hidden = shown >= matched.length;
    more.textContent = 'Show ' + fmt(Math.min(${PAGE_SIZE}, matched.length - shown)) + ' more';
  }

  function row(ep) {
    var d = el('details', 'ep');
    d.dataset.id = ep.key;
    var s = add(el('summary'),
      badge('v-' + ep.verdict, 'judge: ' + VERDICT[ep.verdict]),
      ep.verifier === null ? null : badge(ep.verifier ? 'ok' : 'bad', verifierName(ep.verifierSource) + ': ' + (ep.verifier ? 'pass' : 'fail')),
      ep.disagree ? badge('disagree', 'disagreement') : null,
      el('span', 'mono muted', ep.site + ' \u00b7 ' + ep.kind),
      el('span', 'ins', ep.instruction || '(no instruction)'),
      el('code', 'muted', ep.try > 1 ? ep.id + ' \u00b7 try ' + ep.try : ep.id));
    d.appendChild(s);
    d.addEventListener('toggle', function () { if (d.open && !d.dataset.state) load(d, ep.key); });
    return d;
  }

  function load(d, id) {
    var body = add(d, el('div', 'ep-body', 'Loading\u2026')).lastChild;
    if (cache[id]) return show(d, body, cache[id]);
    d.dataset.state = 'loading';
    (waiting[id] = waiting[id] || []).push(d);
    var s = document.createElement('script');
    s.src = 'episodes/' + encodeURIComponent(id) + '.js';
    s.onload = function () { s.remove(); };
    s.onerror = function () {
      s.remove();
      (waiting[id] || []).forEach(function (w) {
        w.dataset.state = 'error';
        w.querySelector('.ep-body').textContent = 'Could not load episodes/' + id + '.js (was the report copied without it?)';
      });
      delete waiting[id];
    };
    document.head.appendChild(s);
  }

  function verifierName(source) { return source === 'written-verifier' ? 'written verifier' : 'verifier'; }

  window.${EPISODE_CALLBACK} = function (detail) {
    cache[detail.key] = detail;
    (waiting[detail.key] || []).forEach(function (d) { show(d, d.querySelector('.ep-body'), detail); });
    delete waiting[detail.key];
  };

  function show(d, body, detail) {
    body.textContent = '';
    fill(body, detail);
    d.dataset.state = 'loaded';
  }

  function kv(pairs) {
    var dl = el('dl', 'kv');
    pairs.forEach(function (p) { if (p[1] !== null && p[1] !== undefined && p[1] !== '') add(dl, el('dt', null, p[0]), el('dd', null, p[1])); });
    return dl;
  }
  function table(headers, rows) {
    var t = el('table', 'wide');
    var tr = el('tr');
    headers.forEach(function (h) { tr.appendChild(el('th', null, h)); });
    add(t, add(el('thead'), tr));
    var tb = el('tbody');
    rows.forEach(function (r) {
      var row = el('tr', r.cls);
      r.cells.forEach(function (c) { row.appendChild(c instanceof Node ? add(el('td'), c) : el('td', null, c)); });
      tb.appendChild(row);
    });
    return add(t, tb);
  }
  function pre(text) { return el('pre', null, text); }
  function heading(body, title, n) { body.appendChild(el('h3', null, n === undefined ? title : title + ' (' + fmt(n) + ')')); }

  function fill(body, d) {
    var task = d.task || {};
    heading(body, 'Task');
    add(body, kv([['instruction', task.instruction], ['site', task.site], ['kind', task.kind], ['task id', d.id], ['try', d.try > 1 ? String(d.try) : ''],
      ['start path', task.startPath]]));
    if (d.episode) add(body, kv([['outcome', d.episode.outcome], ['steps', d.episode.steps], ['error', d.episode.error],
      ['agent model', d.episode.model]]));

    heading(body, 'Verdicts');
    var v = el('p');
    if (d.judge) add(v, badge('v-' + d.judge.verdict, 'judge: ' + VERDICT[d.judge.verdict]), el('span', 'muted', ' ' + d.judge.model + ' '));
    else add(v, badge('v-none', 'not judged'), document.createTextNode(' '));
    if (d.verifier) add(v, badge(d.verifier.ok ? 'ok' : 'bad', 'verifier: ' + (d.verifier.ok ? 'pass' : 'fail')), el('span', 'muted', ' ' + d.verifier.by));
    else add(v, el('span', 'muted', 'no verifier result'));
    body.appendChild(v);

    heading(body, 'Screenshots', d.shots.length);
    if (d.shots.length) {
      var strip = el('div', 'shots');
      d.shots.forEach(function (s) {
        var a = el('a');
        a.href = data.runHref + '/' + s.href;
        a.target = '_blank';
        a.rel = 'noopener';
        var img = el('img');
        img.loading = 'lazy';
        img.decoding = 'async';
        img.alt = s.label;
        img.src = data.runHref + '/' + s.href;
        strip.appendChild(add(el('figure'), add(a, img), el('figcaption', null, s.label)));
      });
      body.appendChild(strip);
    } else body.appendChild(el('p', 'note', 'no screenshots'));

    heading(body, 'Actions', d.actions.length);
    var ol = el('ol', 'actions');
    d.actions.forEach(function (a) { ol.appendChild(add(el('li'), el('code', null, a.kind), document.createTextNode(' ' + a.args))); });
    body.appendChild(d.actions.length ? ol : el('p', 'note', 'none'));

    heading(body, 'Answer');
    body.appendChild(d.answer === null ? el('p', 'note', 'none') : pre(d.answer));

    heading(body, 'Judge');
    if (d.judge) {
      if (d.judge.stated) body.appendChild(kv([['verdict stated', d.judge.stated]]));
      if (d.judge.parts.length) body.appendChild(table(['part', 'done', 'evidence'], d.judge.parts.map(function (p) {
        var done = p.done === null ? badge('none', '?') : badge(p.done ? 'ok' : 'bad', p.done ? 'done' : 'not done');
        return { cells: [p.part, done, p.evidence] };
      })));
      if (d.judge.note) body.appendChild(el('p', 'note', d.judge.note));
      if (d.judge.raw !== null) body.appendChild(add(el('details'), el('summary', 'muted', 'the judge\u2019s reply as recorded'), pre(d.judge.raw)));
    } else body.appendChild(el('p', 'note', 'no judge record'));

    heading(body, 'Requests', d.log.length);
    if (d.log.length) body.appendChild(table(['request', 'query', 'body', 'status'], d.log.map(function (r) {
      return { cls: r.static ? 'static' : '', cells: [el('code', null, r.method + ' ' + r.path), pre(r.query), pre(r.body), r.status] };
    })));
    else body.appendChild(el('p', 'note', 'none'));

    heading(body, 'Data changes', d.changes.length);
    if (d.changes.length) body.appendChild(table(['op', 'table', 'item', 'changed'], d.changes.map(function (c) {
      var lines = c.fields.map(function (f) {
        return (f.field ? f.field + ': ' : '') + (f.before === null ? f.after : f.before + ' \u2192 ' + f.after);
      });
      return { cells: [c.op, c.table, c.name, pre(lines.join('\n'))] };
    })));
    else body.appendChild(el('p', 'note', 'none'));

    if (d.notes.length) {
      heading(body, 'Notes');
      var ul = el('ul');
      d.notes.forEach(function (n) { ul.appendChild(el('li', null, n)); });
      body.appendChild(ul);
    }
  }

  form.addEventListener('submit', function (e) { e.preventDefault(); });
  form.addEventListener('input', apply);
  more.addEventListener('click', showMore);
  apply();
  // '#<task_id>' (the judge lab's links), '#<task_id>@<try>': that episode alone, opened
  function openHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id || !episodes.some(function (ep) { return ep.key === id; })) return;
    form.elements.q.value = id;
    apply();
    var d = Array.prototype.find.call(list.children, function (n) { return n.dataset.id === id; });
    if (d) d.open = true;
  }
  window.addEventListener('hashchange', openHash);
  openHash();
})();
`;
