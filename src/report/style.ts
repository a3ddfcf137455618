/** The report's stylesheet: self-contained, readable on screen, plain on paper. @module */

/** The CSS of the report page, inlined in a `<style>` element. */
export const REPORT_CSS = `
:root { --fg: #1d2330; --muted: #5b6475; --line: #d9dde5; --bg: #ffffff; --panel: #f6f7f9;
  --ok: #17733a; --ok-bg: #e3f4e8; --bad: #b3261e; --bad-bg: #fbe6e4; --none: #5b6475; --none-bg: #eceef2;
  --warn: #8a5300; --warn-bg: #fff1d6; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1200px; padding: 1.5rem; color: var(--fg); background: var(--bg);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; }
h3 { font-size: 1rem; margin: 1rem 0 .4rem; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .85em; }
pre { white-space: pre-wrap; word-break: break-word; margin: 0; }
.muted { color: var(--muted); }
.note { color: var(--muted); font-style: italic; }
.stats { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: .5rem; margin: 1rem 0; padding: 0; }
.stats div { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .5rem .75rem; }
.stats dt { color: var(--muted); font-size: .8rem; }
.stats dd { margin: 0; font-size: 1.35rem; font-weight: 600; }
table { border-collapse: collapse; margin: .5rem 0; font-size: .9rem; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: var(--panel); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.confusion td { font-size: 1.1rem; text-align: center; min-width: 7rem; }
table.confusion td small { display: block; color: var(--muted); font-size: .75rem; }
table.wide { width: 100%; }
table.wide td { word-break: break-word; }
.badge { display: inline-block; border-radius: 4px; padding: 0 .4rem; font-size: .8rem; font-weight: 600; white-space: nowrap; }
.v-success, .ok { color: var(--ok); background: var(--ok-bg); }
.v-fail, .bad { color: var(--bad); background: var(--bad-bg); }
.v-none, .none { color: var(--none); background: var(--none-bg); }
.disagree { color: var(--warn); background: var(--warn-bg); }
#filters { display: flex; flex-wrap: wrap; gap: .75rem; align-items: end; background: var(--panel);
  border: 1px solid var(--line); border-radius: 6px; padding: .75rem; position: sticky; top: 0; z-index: 1; }
#filters label { display: flex; flex-direction: column; font-size: .8rem; color: var(--muted); gap: .15rem; }
#filters label.check { flex-direction: row; align-items: center; gap: .35rem; color: var(--fg); font-size: .9rem; }
#filters select, #filters input[type=search] { font: inherit; padding: .2rem .3rem; }
#count { margin: .75rem 0 .25rem; font-weight: 600; }
#tally { margin: 0 0 .75rem; color: var(--muted); }
details.ep { border: 1px solid var(--line); border-radius: 6px; margin: .35rem 0; background: var(--bg); }
details.ep > summary { cursor: pointer; padding: .45rem .6rem; display: flex; gap: .5rem; align-items: baseline; flex-wrap: wrap; }
details.ep > summary .ins { flex: 1 1 20rem; min-width: 0; }
details.ep[open] > summary { border-bottom: 1px solid var(--line); background: var(--panel); }
.ep-body { padding: .25rem .9rem .9rem; }
.shots { display: flex; gap: .5rem; overflow-x: auto; padding: .25rem 0 .5rem; }
.shots figure { margin: 0; flex: none; text-align: center; }
.shots img { display: block; height: 120px; width: auto; min-width: 60px; border: 1px solid var(--line); background: var(--panel); }
.shots figcaption { font-size: .75rem; color: var(--muted); }
tr.static td { color: var(--muted); }
ol.actions { margin: .25rem 0; padding-left: 2rem; }
.kv { display: grid; grid-template-columns: max-content 1fr; gap: .15rem .75rem; margin: .25rem 0; }
.kv dt { color: var(--muted); }
.kv dd { margin: 0; word-break: break-word; }
.issues li { margin: .15rem 0; }
#more { margin: .75rem 0; font: inherit; padding: .35rem 1rem; }
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  #filters, #more, .no-print { display: none !important; }
  details.ep { break-inside: avoid; }
  .shots { flex-wrap: wrap; overflow: visible; }
  a { color: inherit; text-decoration: none; }
}
`;
