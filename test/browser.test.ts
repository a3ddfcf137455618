import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHost, type BrowserHost, type BrowserRequest, type Observation } from '../src/index';
import { performAction } from '../src/browser/actions';
import { openEpisodePage, type EpisodePage } from '../src/browser/host';
import { formatElement, observe } from '../src/browser/observe';
import type { Action } from '../src/core/schemas';
import { startFixtureSite, type FixtureSite } from './agent-fixture';

let site: FixtureSite;
let host: BrowserHost;

beforeAll(async () => {
  site = await startFixtureSite();
  host = browserHost();
});
afterAll(async () => {
  await host.close();
  await site.close();
});

async function open(path = '/sites/shop/', onRequest?: (r: BrowserRequest) => void): Promise<EpisodePage> {
  const ep = await openEpisodePage(host, { origin: site.baseUrl, ...(onRequest ? { onRequest } : {}) });
  await ep.page.goto(site.baseUrl + path);
  return ep;
}

async function act(ep: EpisodePage, action: Action): Promise<{ error: string | null; next: Observation }> {
  const before = await observe(ep.page, { step: 0 });
  const error = await performAction(action, { watch: ep.watch, origin: ep.origin, elements: before.elements });
  return { error, next: await observe(ep.page, { step: 1, error }) };
}

const find = (o: Observation, name: string) => {
  const e = o.elements.find((x) => x.name === name);
  if (!e) throw new Error(`no element named ${name} in\n${o.prompt}`);
  return e;
};

describe('observe', () => {
  it('numbers the interactive elements by the rules, with roles and names', async () => {
    const ep = await open();
    try {
      const o = await observe(ep.page, { step: 0 });
      expect(o.elements.map((e) => `${e.role} ${e.name}`)).toEqual([
        'link Home',
        'link Cart',
        'link Partner site',
        'link Long page',
        'link Open in new tab',
        'searchbox Search products', // placeholder; the hidden input is left out
        'button Search',
        'combobox Sort by', // wrapping label, the options' text left out
        'checkbox Send me the newsletter', // label for=id
        'radio Slow shipping', // aria-label
        'radio Fast shipping',
        'textbox Your email', // title
        'textbox Gift note', // aria-labelledby
        'button Save preferences', // input button: value
        'link Blue Kettle',
        'link Red Teapot',
        'link Green Mug',
        'link Cart icon', // an inner img's alt
        'button Fancy div button', // explicit role, whitespace collapsed
        'button More info', // summary
        'button Clear all',
        'button Save note',
      ]);
      expect(o.elements.map((e) => e.index)).toEqual(o.elements.map((_, i) => i + 1));
      expect(o.screenshot.subarray(1, 4)).toEqual(new Uint8Array([0x50, 0x4e, 0x47]));
      const png = Buffer.from(o.screenshot);
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1280, 800]);
      expect(o.url).toBe('/sites/shop/');
      expect(o.prompt).toContain('TITLE: Fixture Shop');
      expect(o.prompt).toContain('[8] combobox "Sort by" value="Price" options=["Price","Name"]');
      expect(o.prompt).toContain('[9] checkbox "Send me the newsletter" unchecked');
      expect(o.prompt).toContain('[3] link "Partner site" -> https://example.com/elsewhere');
      expect(o.prompt).toContain('Blue Kettle $24.00');
      expect(o.prompt).not.toContain('Hidden button');
      expect(o.prompt).not.toContain('Invisible link');
    } finally {
      await ep.close();
    }
  });

  it('caps names at 80 characters and the text at its limit', async () => {
    const ep = await open();
    try {
      await ep.page.setContent(`<button>${'word '.repeat(40)}</button><p>${'x'.repeat(5000)}</p>`);
      const o = await observe(ep.page, { step: 0, textLimit: 300, error: 'the last one failed' });
      expect(o.elements[0]!.name).toBe('word '.repeat(16)); // collapsed, trimmed, then cut to 80
      expect(o.text.length).toBeLessThanOrEqual(300);
      expect(o.prompt).toContain('ERROR: the last one failed');
      expect(formatElement({ index: 2, role: 'textbox', name: 'Q', tag: 'input', value: 'a"b' })).toBe('[2] textbox "Q" value="a\\"b"');
    } finally {
      await ep.close();
    }
  });
});

describe('performAction', () => {
  it('types and submits, selects, checks, scrolls, goes back', async () => {
    const ep = await open();
    try {
      let r = await act(ep, { type: { index: 6, text: 'kettle', enter: true } });
      expect(r.error).toBeNull();
      expect(r.next.url).toBe('/sites/shop/search?q=kettle&src=home');
      expect(r.next.text).toContain('Blue Kettle');
      r = await act(ep, { back: {} });
      expect(r.next.url).toBe('/sites/shop/');
      r = await act(ep, { select: { index: 8, option: ' name ' } });
      expect(r.error).toBeNull();
      expect(find(r.next, 'Sort by').value).toBe('Name');
      r = await act(ep, { check: { index: 9 } });
      expect(find(r.next, 'Send me the newsletter').checked).toBe(true);
      r = await act(ep, { check: { index: 9 } });
      expect(find(r.next, 'Send me the newsletter').checked).toBe(false);
      r = await act(ep, { check: { index: 11 } });
      expect(find(r.next, 'Fast shipping').checked).toBe(true);
      expect(find(r.next, 'Slow shipping').checked).toBe(false);
      r = await act(ep, { goto: { path: '/sites/shop/long' } });
      expect(r.next.prompt).toMatch(/SCROLL: showing 0-800 of \d+ px/);
      r = await act(ep, { scroll: { direction: 'down' } });
      expect(r.next.prompt).toMatch(/SCROLL: showing 640-1440/);
      r = await act(ep, { scroll: { direction: 'up' } });
      r = await act(ep, { scroll: { direction: 'up' } });
      expect(r.error).toMatch(/did not scroll: already at the top/);
    } finally {
      await ep.close();
    }
  });

  it('reports mistakes as errors for the agent', async () => {
    const ep = await open();
    try {
      expect((await act(ep, { click: { index: 99 } })).error).toBe("there is no element [99]; this page's elements are numbered 1 to 22");
      expect((await act(ep, { select: { index: 1, option: 'x' } })).error).toBe('[1] is a link, not a dropdown');
      expect((await act(ep, { select: { index: 8, option: 'Colour' } })).error).toBe('[8] has no option "Colour"; its options are "price", "name"');
      expect((await act(ep, { type: { index: 9, text: 'x' } })).error).toBe('[9] is a checkbox; use check');
      expect((await act(ep, { check: { index: 7 } })).error).toMatch(/\[7\] is a button, not a checkbox/);
      expect((await act(ep, { back: {} })).error).toBe('there is no previous page');
    } finally {
      await ep.close();
    }
  });

  it('blocks other origins: a link, a goto, a subresource', async () => {
    const seen: BrowserRequest[] = [];
    const ep = await open('/sites/shop/', (r) => seen.push(r));
    try {
      let r = await act(ep, { click: { index: 3 } });
      expect(r.error).toBe(`blocked navigation to https://example.com/elsewhere: only ${site.baseUrl} is allowed`);
      expect(r.next.url).toBe('/sites/shop/');
      r = await act(ep, { goto: { path: 'https://example.com/x?y=1' } });
      expect(r.error).toBe(`goto "https://example.com/x?y=1" blocked: only ${site.baseUrl} is allowed`);
      expect(r.next.url).toBe('/sites/shop/');
      await ep.page.setContent('<img src="https://cdn.example.org/a.png"><p>img</p>');
      r = await act(ep, { scroll: { direction: 'down' } });
      // what the page fetched by itself is stopped and counted, never the agent's error
      expect(r.error ?? '').not.toMatch(/blocked/);
      expect(ep.watch.blockedUrls).toEqual(['https://example.com/elsewhere', 'https://example.com/x?y=1']);
      expect(ep.watch.pageBlocked).toEqual({ count: 1, urls: ['https://cdn.example.org/a.png'] });
      await ep.flushRequests();
      expect(seen.every((q) => q.url.startsWith(site.baseUrl))).toBe(true);
    } finally {
      await ep.close();
    }
  });

  it('waits for the requests an action starts, accepts dialogs, keeps one tab', async () => {
    const ep = await open();
    try {
      let r = await act(ep, { click: { index: 22 } });
      expect(r.error).toBeNull();
      expect(r.next.text).toContain('saved 7');
      r = await act(ep, { click: { index: 21 } });
      expect(r.error).toBe('the page showed a confirm dialog "Really clear?"; it was accepted');
      expect(r.next.text).toContain('cleared');
      r = await act(ep, { click: { index: 5 } }); // a target=_blank link
      expect(r.error).toBeNull();
      expect(r.next.url).toBe('/sites/shop/popup');
      expect(ep.context.pages()).toHaveLength(1);
      await ep.page.evaluate("document.body.insertAdjacentHTML('beforeend', '<button onclick=\\'window.open(\"/sites/shop/cart\")\\'>Pop</button>')");
      r = await act(ep, { click: { index: 1 } });
      expect(r.next.url).toBe('/sites/shop/cart');
      expect(ep.context.pages()).toHaveLength(1);
    } finally {
      await ep.close();
    }
  });

  it('waits for an element to be actionable, names what stops it, scrolls to it and types over a field', async () => {
    const ep = await open();
    const run = async (action: Action, actionTimeoutMs = 400) => {
      const before = await observe(ep.page, { step: 0 });
      const error = await performAction(action, { watch: ep.watch, origin: ep.origin, elements: before.elements, actionTimeoutMs });
      return { error, out: (await ep.page.textContent('#out')) ?? '' };
    };
    try {
      await ep.page.setContent(`<button id="late" disabled onclick="out.textContent='late clicked'">Later</button>
<button disabled>Never</button>
<div style="position:relative;width:200px"><button onclick="out.textContent='under clicked'">Under</button>
<div class="veil" style="position:absolute;inset:0;background:#fff8">a veil</div></div>
<input readonly value="fixed" aria-label="Fixed"><input type="number" aria-label="Count"><input aria-label="Name" value="old">
<input type="file" aria-label="Upload"><p id="out"></p><div style="height:2000px"></div>
<button onclick="out.textContent='far clicked ' + Math.round(scrollY)">Far</button><button id="gone">Gone</button>`);
      await ep.page.evaluate("setTimeout(() => { document.getElementById('late').disabled = false; }, 300)");
      expect(await run({ click: { index: 1 } }, 5000)).toEqual({ error: null, out: 'late clicked' });
      expect((await run({ click: { index: 2 } })).error).toBe('[2] is disabled (waited 400 ms)');
      expect((await run({ click: { index: 3 } })).error).toBe('[3] is covered by <div.veil> "a veil" (waited 400 ms)');
      expect((await run({ type: { index: 4, text: 'x' } })).error).toBe('[4] is read-only (waited 400 ms)');
      expect((await run({ type: { index: 5, text: 'many' } })).error).toBe('[5] is a number field: type a number');
      expect((await run({ type: { index: 7, text: 'x' } })).error).toBe('[7] is an input of type "file", which cannot be typed into');
      expect((await run({ type: { index: 6, text: 'new' } })).error).toBeNull();
      expect(await ep.page.inputValue('[aria-label=Name]')).toBe('new');
      expect((await run({ type: { index: 6, text: '' } })).error).toBeNull();
      expect(await ep.page.inputValue('[aria-label=Name]')).toBe('');
      const far = await run({ click: { index: 8 } });
      expect(far.error).toBeNull();
      expect(far.out).toMatch(/^far clicked [1-9]\d+$/);
      const before = await observe(ep.page, { step: 0 });
      await ep.page.evaluate("document.getElementById('gone').remove()");
      const error = await performAction({ click: { index: 9 } }, { watch: ep.watch, origin: ep.origin, elements: before.elements });
      expect(error).toBe('element [9] is no longer on the page');
      // a link whose first line is above and left of the window is clicked on the line that shows
      await ep.page.setContent(`<div style="position:fixed;left:-200px;top:-20px;font:16px/18px monospace;white-space:nowrap">
<a href="#" onclick="out.textContent='split clicked'; return false">xx<br>a second line long enough to reach into the window</a></div><p id="out"></p>`);
      expect(await run({ click: { index: 1 } })).toEqual({ error: null, out: 'split clicked' });
      // a form submitted by the click's handler navigates in a task of its own: waited for all the same
      await ep.page.setContent('<form action="/sites/shop/search"><input type="hidden" name="q" value="lamp"></form><button onclick="document.forms[0].submit()">Go</button>');
      const form = await observe(ep.page, { step: 0 });
      expect(await performAction({ click: { index: 1 } }, { watch: ep.watch, origin: ep.origin, elements: form.elements })).toBeNull();
      expect((await observe(ep.page, { step: 1 })).url).toBe('/sites/shop/search?q=lamp');
    } finally {
      await ep.close();
    }
  });
});
