import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError, UnsafeNameError, memorySource, memoryStore, miniwebSource, siteContext, visibleText, type FileStore } from '../src/index';

describe('visibleText', () => {
  it('turns every tag into a line break and keeps the text of nested tags', () => {
    expect(visibleText('<div><p>Hello <b>big</b> world</p><p>again</p></div>', 100)).toBe('Hello\nbig\nworld\nagain');
  });

  it('replaces script, style, noscript and svg blocks whatever their case by a space', () => {
    const html = '<SCRIPT>var a = "<p>x</p>";</script>one<Style>p {}</STYLE>two<noscript>n</noscript><svg><text>t</text></svg>three';
    expect(visibleText(html, 100)).toBe('one two three');
  });

  it('closes a block only on the same name, as Python compares a backreference', () => {
    // Python's IGNORECASE lets 'ſ' open a script block, but only '</ſcript>' closes it.
    expect(visibleText('<\u017fcript>a</Script>b</\u017fcript>c', 100)).toBe('c');
    // An unclosed script is not a block: its tags are just tags.
    expect(visibleText('<script>x<p>y', 100)).toBe('x\ny');
  });

  it('decodes entities as html.unescape does, legacy ones without ";" included', () => {
    expect(visibleText('<p>&amp &lt3 &copy2023 &notit; &#133; &euro;</p>', 100)).toBe('& <3 ©2023 ¬it; … €');
  });

  it("collapses Python's whitespace (\\x85, \\u3000, \\x1c) and keeps \\ufeff", () => {
    expect(visibleText('<p>\u3000a\x85\x85b\x1cc\ufeff\u200bd&nbsp;</p>', 100)).toBe('a b c\ufeff\u200bd');
  });

  it('drops empty lines and repeats of the previous line only', () => {
    expect(visibleText('<p>a</p><p> a </p><br><p>b</p><p>a</p>', 100)).toBe('a\nb\na');
  });

  it('counts code points plus one per line, stops past the cap and cuts to the cap', () => {
    // 'abc' -> 4, 'defg' -> 9 > 8: stop after 'defg'; 'abc\ndefg' is 8 code points.
    expect(visibleText('<p>abc</p><p>defg</p><p>hi</p>', 8)).toBe('abc\ndefg');
    expect(visibleText('<p>abc</p><p>defg</p><p>hi</p>', 7)).toBe('abc\ndef');
    // Emoji are one code point each (two UTF-16 units): the cut never splits one.
    const cut = visibleText('<p>😀😀😀😀😀</p><p>😀😀😀😀</p>', 8);
    expect(cut).toBe('😀😀😀😀😀\n😀😀');
    expect([...cut]).toHaveLength(8);
  });
});

// A sitemap as JSON text: dict controls keep their order only when parsed from text.
const MAIL_SITEMAP = `{"name": "Mail", "pages": [{"path": "/sites/mail/"}, {"path": "/sites/mail/compose", "title": "Compose"}, {"title": "no path"}],
 "controls": {"10": {"kind": "input", "label": "To", "page": "/sites/mail/compose"},
              "2": {"kind": "select", "label": "Folder", "page": "/sites/mail/", "options": [{"value": 0}, {"text": "", "value": 1.0}, {"text": "Spam"}]},
              "b": {"kind": "qa", "label": "hidden", "page": "/sites/mail/"},
              "1": {"kind": "carry", "label": "hidden", "page": "/sites/mail/"},
              "x": {"kind": "button", "name": "send", "page": "/sites/mail/compose"},
              "y": {"label": "orphan"}}}`;

describe('siteContext', () => {
  const source = memorySource({
    sitemaps: { mail: MAIL_SITEMAP },
    pages: { '/sites/mail/': '<h1>Inbox</h1><p>3 unread</p>' },
  });

  it("reads dict controls in the file's order, skips qa/carry, shows option value 0 as nothing and 1.0 as 1.0", async () => {
    const ctx = await siteContext('mail', source);
    expect(ctx).toMatchObject({ site: 'mail', name: 'Mail', home: '/sites/mail/', paths: ['/sites/mail/', '/sites/mail/compose'] });
    expect(ctx.text).toBe(
      [
        'PAGES',
        '/sites/mail/ ',
        '/sites/mail/compose Compose',
        '',
        'CONTROLS BY PAGE',
        "/sites/mail/compose: input 'To'; button 'send'",
        "/sites/mail/: select 'Folder' [1.0, Spam]",
        '',
        'PAGE TEXT',
        '--- /sites/mail/',
        'Inbox\n3 unread',
        '',
        '--- /sites/mail/compose',
        '(could not render: PageNotFoundError)',
      ].join('\n'),
    );
  });

  it('without pages starts at /sites/<site>/ and names the site', async () => {
    const empty = memorySource({ sitemaps: { blank: '{"name": "", "pages": [], "controls": [{"kind": "link", "label": "x"}]}' } });
    const ctx = await siteContext('blank', empty);
    expect(ctx).toMatchObject({ name: 'blank', home: '/sites/blank/', paths: [] });
    expect(ctx.text).toBe('PAGES\n\n\nCONTROLS BY PAGE\n\n\nPAGE TEXT\n--- /sites/blank/\n(could not render: PageNotFoundError)');
  });

  it('shows the home page, then the pages with the most controls, ties in first-seen order', async () => {
    const controls = ['/c', '/b', '/c', '/a', '/b', '/c', '/d', null].map((page, i) => ({ kind: 'k', label: `${i}`, page }));
    const sitemap = JSON.stringify({ pages: [{ path: '/b' }], controls });
    const ctx = await siteContext('s', memorySource({ sitemaps: { s: sitemap } }), { nPages: 3 });
    expect([...ctx.text.matchAll(/^--- (.*)$/gm)].map((m) => m[1])).toEqual(['/b', '/c', '/a']);
  });

  it('refuses a site name that is not a plain name before any path is built', async () => {
    const reads: string[] = [];
    const store: FileStore = { ...memoryStore(), readText: async (p) => (reads.push(p), '{}') };
    const web = miniwebSource({ sitemaps: '/data/sitemaps', baseUrl: 'http://127.0.0.1:9', store });
    for (const bad of ['../etc', 'a/b', '..', '.hidden', 'a\0b']) {
      await expect(siteContext(bad, web)).rejects.toThrow(UnsafeNameError);
      await expect(web.sitemap(bad)).rejects.toThrow(UnsafeNameError);
      await expect(memorySource({ sitemaps: {} }).sitemap(bad)).rejects.toThrow(UnsafeNameError);
    }
    expect(reads).toEqual([]);
  });

  it('fails clearly on a sitemap without pages, naming the file and the field', async () => {
    const store = memoryStore({ '/data/sitemaps/shop.json': '{"controls": []}', '/data/sitemaps/bad.json': '{"pages": [}' });
    const web = miniwebSource({ sitemaps: '/data/sitemaps', baseUrl: 'http://127.0.0.1:9', store });
    const error = await siteContext('shop', web).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ file: '/data/sitemaps/shop.json', field: 'pages' });
    expect((error as Error).message).toMatch(/^\/data\/sitemaps\/shop\.json: pages: /);
    await expect(web.sitemap('bad')).rejects.toThrow(/^\/data\/sitemaps\/bad\.json:1: column 12: not valid JSON/);
    await expect(web.sitemap('missing')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('miniwebSource pages over HTTP', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/sites/shop/old') return void res.writeHead(302, { location: '/sites/shop/' }).end();
      if (req.url === '/sites/shop/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Shop</h1>');
      if (req.url === '/sites/shop/bom') return void res.end(Buffer.from('\ufeff<p>x</p>', 'utf8'));
      if (req.url === '/sites/shop/latin1') return void res.end(Buffer.from([0x3c, 0x70, 0x3e, 0xe9]));
      res.writeHead(404).end('<p>Not found</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('follows redirects, gives any status body, keeps a BOM, fails on invalid UTF-8 as Python does', async () => {
    const web = miniwebSource({ sitemaps: '/none', baseUrl: base });
    expect(web.baseUrl).toBe(base.slice(0, -1));
    expect(await web.fetchPage('/sites/shop/old')).toBe('<h1>Shop</h1>');
    expect(await web.fetchPage('/sites/shop/nope')).toBe('<p>Not found</p>');
    expect(await web.fetchPage('/sites/shop/bom')).toBe('\ufeff<p>x</p>');
    await expect(web.fetchPage('/sites/shop/latin1')).rejects.toMatchObject({ name: 'UnicodeDecodeError' });
  });

  it('shows a page that cannot be fetched as the seed does', async () => {
    const sitemaps = { shop: '{"pages": [{"path": "/sites/shop/"}], "controls": [{"kind": "a", "label": "b", "page": "/sites/shop/latin1"}]}' };
    const store = memoryStore({ '/m/shop.json': sitemaps.shop });
    const web = miniwebSource({ sitemaps: '/m', baseUrl: base, store });
    expect((await siteContext('shop', web)).text).toMatch(/--- \/sites\/shop\/\nShop\n\n--- \/sites\/shop\/latin1\n\(could not render: UnicodeDecodeError\)$/);
    const down = miniwebSource({ sitemaps: '/m', baseUrl: 'http://127.0.0.1:9', store });
    expect((await siteContext('shop', down)).text).toMatch(/--- \/sites\/shop\/\n\(could not render: PageFetchError\)\n/);
    await expect(down.fetchPage('/sites/shop/')).rejects.toThrow(/GET http:\/\/127\.0\.0\.1:9\/sites\/shop\/ failed/);
  });

  it('reads the split file', async () => {
    const store = memoryStore({ '/m/split.json': '{"train": ["a", "b"], "test": ["c"]}' });
    expect(await miniwebSource({ sitemaps: '/m', split: '/m/split.json', baseUrl: base, store }).split()).toEqual({ train: ['a', 'b'], test: ['c'] });
    await expect(miniwebSource({ sitemaps: '/m', baseUrl: base, store }).split()).rejects.toThrow(/no split file/);
  });
});
