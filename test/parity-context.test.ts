/** The seed's `_text` and `site_context` (run through seed_bridge) against visibleText and siteContext. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { memorySource, siteContext, visibleText } from '../src/index';
import { PyRandom } from '../src/core/py/random';
import { runPython } from './helpers/python';

const SNIPPETS: Array<[string, number]> = [
  ['<div><p>Hello <b>world</b></p><p>again</p></div>', 1800],
  ['<SCRIPT>var x = "<p>no</p>";</SCRIPT>visible<Style>p{}</sTyLe>after', 1800],
  ['<script>a</SCRIPT>b<noscript>n</NOSCRIPT>c<svg viewBox="0 0"><path d="M0"/></svg>d', 1800],
  ['<\u017fcript>x</script>y<\u017fcript>x</\u017fcript>z<scr\u0130pt>q</script>w', 1800],
  ['<\u017fcript>x</Script>y</\u017fcript>z<\u017fvg>a</SVG>b</\u017fvg>c<styl\u0130>d</STYL\u0130>e', 1800],
  ['<scr\u0131pt>x</script>y<scr\u0131pt>x</scr\u0131pt>z<scr\u0130pt>q</scrIpt>w<scrIpt>k</scr\u0130pt>v', 1800],
  ['<script type="t">1<style>2</style>3</script>after<style>a</style><style>b</style>end', 1800],
  ['<script>never closed <p>para</p> text', 1800],
  ['<scripts>x</scripts>y</script>z<svgx>s</svg>t<styles a="b">u</style>', 1800],
  ['<p>&amp &lt3 &copy2023 &notin &notit; &nbspx &hellip &#133; &#x85; &#0; &#xD800; &AMP;</p>', 1800],
  ['<p>a\x85b\u3000c\x1cd\ufeffe\u200bf\xa0g &nbsp; h&#10;i&#13;j\tk\r\nl</p>', 1800],
  ['<p>a</p><p>a</p><p>b</p><br><br><p>a</p><p> a </p><p>\u3000a\x85</p>', 1800],
  [`<ul>${Array.from({ length: 30 }, (_, i) => `<li>item ${i} 😀😀</li>`).join('')}</ul>`, 50],
  [`${'<p>😀😀😀😀😀</p>'.repeat(8)}`, 17],
  [`${'<p>😀😀😀😀😀</p><p>x</p>'.repeat(8)}`, 23],
  ['<p>abc</p><p>defg</p><p>hi</p>', 7],
  ['<p>abc</p><p>defg</p><p>hi</p>', 8],
  ['<p>abc</p><p>defg</p><p>hi</p>', 0],
  ['', 100],
  ['<div></div><br/>', 100],
  ['a < b and c > d <= e', 100],
  ['<p title="x>y">text</p><!-- comment <b>x</b> --><![CDATA[z]]>', 100],
  ['line1\nline2\n\nline2\r\n<p>line3</p>', 100],
];

// Random pages built from pieces that exercise every rule, drawn with a seeded generator.
const PIECES = [
  '<p>', '</p>', '<div class="a">', '</div>', '<script>', '</script>', '<SCRIPT src=x>', '</Script>', '<style>', '</style>',
  '<svg>', '</svg>', '<noscript>', '</noscript>', 'Hello', ' world ', '&amp;', '&amp', '&copy', '&#x1F600;', '&nbsp;',
  '\n', '\u3000', '\x85', '😀', 'é', 'Price: $12.00', 'Add to cart', 'Add to cart', '<br>', '<', '>', '\t', '&lt;b&gt;',
];
function randomPage(rng: PyRandom): string {
  const n = 5 + rng.randbelow(60);
  return Array.from({ length: n }, () => PIECES[rng.randbelow(PIECES.length)]!).join('');
}

describe('visibleText matches the seed _text', () => {
  const rng = new PyRandom('visible-text');
  const fuzz: Array<[string, number]> = Array.from({ length: 300 }, () => [randomPage(rng), [5, 20, 60, 1800][rng.randbelow(4)]!]);
  const cases = [...SNIPPETS, ...fuzz];
  const py = runPython<string[]>('from seed_bridge import seed\nemit([seed._text(h, c) for h, c in INPUT])', cases);

  it.each(SNIPPETS.map((c, i) => [i, c] as const))('snippet %i', (i, [html, cap]) => {
    expect(visibleText(html, cap)).toBe(py[i]);
  });
  it('300 random pages', () => {
    expect(fuzz.map(([html, cap]) => visibleText(html, cap))).toEqual(py.slice(SNIPPETS.length));
  });
});

// Sitemaps as JSON text, so dict key order reaches both sides as written.
const SITEMAPS: Record<string, string> = {
  shop: JSON.stringify({
    name: 'Lamp Shop',
    pages: [
      { path: '/sites/shop/', title: 'Home' },
      { path: '', title: 'dropped' },
      { title: 'no path' },
      { path: '/sites/shop/cart', title: null },
      { path: '/sites/shop/lamps', title: 'Lamps 😀' },
      { path: '/sites/shop/broken', title: 'Broken' },
      ...Array.from({ length: 95 }, (_, i) => ({ path: `/sites/shop/p/${i}`, title: i % 2 ? `Product ${i}` : '' })),
    ],
    controls: [
      { kind: 'select', label: 'Sort by', page: '/sites/shop/lamps', options: [{ text: 'Price', value: 'price' }, { value: 0 }, { text: '', value: '' }, { text: 'Newest' }, { text: 'fifth' }] },
      { kind: 'qa', label: 'skipped', page: '/sites/shop/lamps' },
      { kind: 'carry', label: 'skipped too', page: '/sites/shop/' },
      { kind: 'button', name: 'add', page: '/sites/shop/cart' },
      { kind: null, label: 'x'.repeat(50), page: '/sites/shop/cart' },
      { label: 'no kind, no page' },
      { kind: 'input', label: 0, name: 'qty', page: null, options: [] },
      { kind: 'radio', label: 'Size', page: '/sites/shop/lamps', options: [{ value: 0 }, { value: false }, { text: null, value: '' }] },
      { kind: 'link', label: 'Home link', page: '/sites/shop/' },
      { kind: 'link', label: 'Broken link', page: '/sites/shop/broken' },
      ...Array.from({ length: 12 }, (_, i) => ({ kind: 'button', label: `B${i} 😀 ${'é'.repeat(40)}`, page: '/sites/shop/lamps' })),
      ...Array.from({ length: 45 }, (_, i) => ({ kind: 'link', label: `L${i}`, page: `/sites/shop/p/${i}` })),
    ],
  }).replace('"value":0}', '"value":1.0}'),
  mail: `{"pages": [{"path": "/sites/mail/inbox", "title": "Inbox"}, {"path": "/sites/mail/compose", "title": "Compose"},
    {"path": "/sites/mail/missing", "title": "Gone"}],
   "controls": {"10": {"kind": "input", "label": "To", "page": "/sites/mail/compose"},
                "b": {"kind": "button", "label": "Send", "page": "/sites/mail/compose"},
                "2": {"kind": "select", "label": "Folder", "page": "/sites/mail/inbox", "options": [{"text": "Inbox"}, {"value": 0}, {"value": 2.0}]},
                "1": {"kind": "button", "label": "Archive", "page": "/sites/mail/missing"},
                "03": {"kind": "qa", "label": "q", "page": "/sites/mail/inbox"},
                "0": {"kind": "link", "label": "Spam", "page": "/sites/mail/inbox"}}}`,
  empty: '{"name": "", "pages": [], "controls": {}}',
  ties: JSON.stringify({
    pages: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((p) => ({ path: `/sites/ties/${p}`, title: p.toUpperCase() })),
    controls: ['h', 'g', 'f', 'e', 'd', 'c', 'b', 'a', 'h', 'b'].map((p, i) => ({ kind: 'k', label: `c${i}`, page: `/sites/ties/${p}` })),
  }),
};

const PAGES: Record<string, string> = {
  '/sites/shop/': '<html><head><title>Shop</title><script>x()</script></head><body><h1>Lamp Shop</h1><p>Red lamp &euro;12</p></body></html>',
  '/sites/shop/lamps': `<ul>${Array.from({ length: 300 }, (_, i) => `<li>Lamp ${i} &amp; shade</li>`).join('')}</ul>`,
  '/sites/shop/cart': '<p>Your cart is empty</p>',
  '/sites/mail/inbox': '<p>3 unread</p>',
  '/sites/mail/compose': '<form><input name=to><button>Send</button></form>',
  '/sites/empty/': '<p>nothing here</p>',
  ...Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((p) => [`/sites/ties/${p}`, `<p>page ${p}</p>`])),
  ...Object.fromEntries(Array.from({ length: 45 }, (_, i) => [`/sites/shop/p/${i}`, `<p>Product ${i}</p>`])),
};

// The seed's site_context with sitemaps in a temp dir and pages from a dict; a missing page raises an error named
// as memorySource names its error, so both sides print the same `(could not render: ...)`.
const SITE_CONTEXT_PY = `
import seed_bridge
from pathlib import Path
seed_bridge.config.SITEMAP_DIR = Path(INPUT["dir"])
class PageNotFoundError(Exception):
    pass
class Client(seed_bridge.PageClient):
    def get(self, path, follow_redirects=True):
        if path not in self.pages:
            raise PageNotFoundError(path)
        return super().get(path, follow_redirects)
client = Client(INPUT["pages"])
emit([seed_bridge.seed.site_context(s, client, n_pages=n, cap=c) for s, n, c in INPUT["runs"]])`;

describe('siteContext matches the seed site_context', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'taskgen-sitemaps-'));
  for (const [site, text] of Object.entries(SITEMAPS)) writeFileSync(path.join(dir, `${site}.json`), text);
  const runs: Array<[string, number, number]> = [
    ['shop', 6, 1800], ['shop', 3, 40], ['shop', 1, 10], ['shop', 0, 100], ['mail', 6, 1800], ['mail', 2, 5],
    ['empty', 6, 1800], ['ties', 6, 1800], ['ties', 4, 3],
  ];
  const py = runPython<unknown[]>(SITE_CONTEXT_PY, { dir, pages: PAGES, runs });
  const source = memorySource({ sitemaps: SITEMAPS, pages: PAGES });

  it.each(runs.map((r, i) => [i, ...r] as const))('run %i: %s nPages=%i cap=%i', async (i, site, nPages, cap) => {
    const ours = await siteContext(site, source, { nPages, cap });
    expect(ours).toEqual(py[i]);
  });
});
