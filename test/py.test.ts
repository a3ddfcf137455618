import { describe, expect, it } from 'vitest';
import { PyFloat, floatRepr } from '../src/core/py/float';
import { pyUnescape } from '../src/core/py/html';
import { PyJsonError, parsePyJson, pyDict, pyErrorName, pyKeys } from '../src/core/py/json';
import { pyDumps } from '../src/core/py/dumps';
import { pyPathStr } from '../src/core/py/path';
import { PyRandom } from '../src/core/py/random';
import { isDict, pyDictGet, pyEquals, pyIn, pyRepr, pyStr, pyTruthy, pyTypeName } from '../src/core/py/repr';
import { pyRound } from '../src/core/py/round';
import { collapseWhitespace, compareCodePoints, cpLength, cpSlice, pyIsBlank, pyStrip } from '../src/core/py/text';
import { runPython } from './helpers/python';

const DOCS = [
  '{"a": 1, "b": 10.0, "c": -0.0, "d": 1e5, "e": 2.5, "f": 12345678901234567890, "g": null, "h": true}',
  '{"10": "x", "2": "y", "name": "z", "1": [1, 2.0, "3"]}',
  '{"s": "tab\\there \\"q\\" \\\\ \\u00e9 \\ud83d\\ude00 \\u0001 \\u007f \\u2028 \\ud800 caf\\u00e9"}',
  '[NaN, Infinity, -Infinity, 1E400, 0.1, 1e-7, 1e16, 1e15, 123456789.125, 5e-324, 1.7976931348623157e308]',
  '{"nested": {"list": [], "obj": {}, "deep": [{"k": [0, false, ""]}]}, "emoji": "😀 ünï"}',
  '{"a": 1, "a": 2, "b": 3}',
  '  [1, 2]  ',
  '{"s": "\\u0000f1.0", "t": "\\u0000k1", "n": 1.0, "3": {"2": -Infinity, "1": 1e400}}',
];

describe('parsePyJson + pyDumps match json.loads + json.dumps', () => {
  const py = runPython<{ plain: string[]; ascii: string[]; indent: string[]; sorted: string[] }>(
    `emit({
  "plain": [json.dumps(json.loads(t), ensure_ascii=False) for t in INPUT],
  "ascii": [json.dumps(json.loads(t)) for t in INPUT],
  "indent": [json.dumps(json.loads(t), indent=1, ensure_ascii=False) for t in INPUT],
  "sorted": [json.dumps(json.loads(t), sort_keys=True) for t in INPUT],
})`,
    DOCS,
  );
  DOCS.forEach((doc, i) => {
    it(`document ${i}`, () => {
      const v = parsePyJson(doc);
      expect(pyDumps(v, { ensureAscii: false })).toBe(py.plain[i]);
      expect(pyDumps(v)).toBe(py.ascii[i]);
      expect(pyDumps(v, { indent: 1, ensureAscii: false })).toBe(py.indent[i]);
      expect(pyDumps(v, { sortKeys: true })).toBe(py.sorted[i]);
    });
  });

  it('keeps floats apart from ints and big ints exact', () => {
    const v = parsePyJson('{"a": 10.0, "b": 10, "c": 12345678901234567890}') as Record<string, unknown>;
    expect(v.a).toBeInstanceOf(PyFloat);
    expect(v.b).toBe(10);
    expect(v.c).toBe(12345678901234567890n);
  });

  it('records Python key order where JavaScript would reorder', () => {
    const v = parsePyJson('{"b": 1, "10": 2, "2": 3}') as object;
    expect(Object.keys(v)).toEqual(['2', '10', 'b']);
    expect(pyKeys(v)).toEqual(['b', '10', '2']);
  });

  it.each([
    ['\ufeff{}', 'Unexpected UTF-8 BOM'],
    ['{"a": 1} x', 'Extra data'],
    ['[1,]', 'Expecting value'],
    ['{"a" 1}', "Expecting ':' delimiter"],
    ['"a\nb"', 'Invalid control character'],
    ['', 'Expecting value'],
  ])('rejects %j as Python does', (text, problem) => {
    expect(() => parsePyJson(text)).toThrow(PyJsonError);
    expect(() => parsePyJson(text)).toThrow(problem);
  });
});

describe('float repr', () => {
  const xs = [0.1, 1.5, 10, 1e16, 1e15, 1e-4, 1e-5, 123456789.125, 5e-324, 1.7976931348623157e308, -2.5e-7, 0.3, 2 / 3, 1e22];
  it('matches repr(float)', () => {
    const py = runPython<string[]>('emit([repr(float(x)) for x in INPUT])', xs);
    expect(xs.map(floatRepr)).toEqual(py);
    expect(floatRepr(-0)).toBe('-0.0');
  });
});

describe('code points', () => {
  const s = 'a😀b\ud800c😀😀d';
  it('len and slices count code points', () => {
    const cases: Array<[number | null, number | null]> = [[0, 2], [1, 3], [null, -1], [-3, null], [2, 100], [5, 2], [0, 0]];
    const py = runPython<{ len: number; slices: string[] }>(
      'emit({"len": len(INPUT["s"]), "slices": [INPUT["s"][a:b] for a, b in INPUT["c"]]})',
      { s, c: cases },
    );
    expect(cpLength(s)).toBe(py.len);
    expect(cases.map(([a, b]) => cpSlice(s, a, b))).toEqual(py.slices);
  });

  it('sorts by code point like sorted()', () => {
    const words = ['b', 'a', '\uffff', '😀', 'Z', 'é', 'ab', 'a\ud83d\ude00', 'a\uffee', ''];
    const py = runPython<string[]>('emit(sorted(INPUT))', words);
    expect([...words].sort(compareCodePoints)).toEqual(py);
  });
});

describe('whitespace', () => {
  it('strip and \\s use Python whitespace', () => {
    const all = Array.from({ length: 0x3001 }, (_, c) => String.fromCharCode(c)).concat(['\ufeff', '\u200b']);
    const py = runPython<number[]>('emit([ord(c) for c in INPUT if c.isspace()])', all);
    const ours = all.filter((c) => pyStrip(c) === '').map((c) => c.charCodeAt(0));
    expect(ours).toEqual(py);
    expect(collapseWhitespace('a\x1c\x85\u3000 b\ufeff')).toBe('a b\ufeff');
  });
  it('pyIsBlank is `not s.strip()`, surrogates and non-BMP characters included', () => {
    const lines = ['', ' ', '\t\n\x1c\x85\u3000', 'a', ' a ', '\ufeff', '\u200b', '😀', ' 😀\u2029', '\ud800', ' \udc00 ', '\x1b', '\xa0\u180e'];
    const py = runPython<boolean[]>('emit([not s.strip() for s in INPUT])', lines);
    expect(lines.map(pyIsBlank)).toEqual(py);
    expect(lines.map(pyIsBlank)).toEqual(lines.map((s) => pyStrip(s) === ''));
  });
});

describe('html.unescape', () => {
  const cases = [
    '&amp', '&ampx', '&notit;', '&notin', '&#x80;', '&#128', '&#0;', '&#xD800;', '&#x110000;', '&#1;', '&#xFFFE;',
    '&#x1F600;', '&AMP;', '&lt&gt', '&unknown;', '&#;', '&#x;', '&amp;amp;', '&copy2', '&aacutex', '&#65x', '&#13;',
    '&#x7f;', '&#999999999999;', '&nbsp;x', '&NotEqualTilde;', '&frac12;', '&#xb;', '&#x81;', '&#xFDD0;', 'no refs',
    `&${'a'.repeat(40)};`, '&hellip', '&hellip;', 'a & b', '&&amp;',
  ];
  it('matches Python', () => {
    const py = runPython<string[]>('import html\nemit([html.unescape(c) for c in INPUT])', cases);
    expect(cases.map(pyUnescape)).toEqual(py);
  });
});

describe('round', () => {
  it('rounds the exact binary value half to even', () => {
    expect(pyRound(0.0625, 3)).toBe(0.062);
    expect(pyRound(2.675, 2)).toBe(2.67);
    expect(pyRound(2.5)).toBe(2);
    expect(pyRound(3.5)).toBe(4);
    expect(pyRound(-2.5)).toBe(-2);
  });
  it('matches round() on many values', () => {
    const rng = new PyRandom(7);
    const xs = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? i / 16 : i % 3 === 1 ? rng.random() * 100 : i / 7 - 20));
    const nd = [0, 1, 2, 3, 4, -1];
    const py = runPython<number[][]>('emit([[round(float(x), n) for n in [0, 1, 2, 3, 4, -1]] + [round(float(x))] for x in INPUT])', xs);
    expect(xs.map((x) => [...nd.map((n) => pyRound(x, n)), pyRound(x)])).toEqual(py);
  });
});

describe('str, repr, truthiness, equality', () => {
  const values = [null, true, false, 0, 1.5, 'it\'s', 'say "hi"', 'both \' "', 'tab\t\x01\xa0é😀\u200b', [1, 'a', null], { k: [true] }];
  it('match str() and repr()', () => {
    const py = runPython<{ s: string[]; r: string[] }>('emit({"s": [str(v) for v in INPUT], "r": [repr(v) for v in INPUT]})', values);
    expect(values.map(pyStr)).toEqual(py.s);
    expect(values.map(pyRepr)).toEqual(py.r);
    expect(pyStr(parsePyJson('10.0'))).toBe('10.0');
  });
  it('truthiness and == follow Python', () => {
    expect([null, false, 0, '', [], {}, new PyFloat(0)].map(pyTruthy)).toEqual(Array(7).fill(false));
    expect([1, 'a', [0], { a: 1 }, new PyFloat(Number.NaN)].map(pyTruthy)).toEqual(Array(5).fill(true));
    expect(pyIn(0, [null, '', false])).toBe(true);
    expect(pyIn(new PyFloat(0), [null, '', false])).toBe(true);
    expect(pyIn(1, [null, '', false])).toBe(false);
    expect(pyEquals({ a: 1, b: [1] }, { b: [true], a: 1 })).toBe(true);
    expect(pyEquals(null, false)).toBe(false);
  });
});

describe('random.Random', () => {
  it('sample matches CPython for string and int seeds', () => {
    const pop = Array.from({ length: 30 }, (_, i) => `/p${i}`);
    const seeds = ['20261008:shop-01', '1:x', 'é😀', ''];
    const py = runPython<string[][][]>(
      `import random
out = []
for s in INPUT["seeds"]:
    r = random.Random(s)
    out.append([r.sample(INPUT["pop"][:n], min(4, n)) for n in (1, 3, 5, 22, 30)] + [r.sample(INPUT["pop"], 7)])
r = random.Random(12345)
out.append([[r.getrandbits(32) for _ in range(3)]])
emit(out)`,
      { seeds, pop },
    );
    const ours = seeds.map((s) => {
      const r = new PyRandom(s);
      return [...[1, 3, 5, 22, 30].map((n) => r.sample(pop.slice(0, n), Math.min(4, n))), r.sample(pop, 7)];
    });
    const r = new PyRandom(12345);
    expect([...ours, [[r.getrandbits(32), r.getrandbits(32), r.getrandbits(32)]]]).toEqual(py);
  });
});

describe('pathlib', () => {
  it('str(Path(p))', () => {
    const ps = ['runs/a/', 'runs//a', './runs/./a', '/x/../y/', '//x', '///x', '', '.', 'a/.'];
    const py = runPython<string[]>('from pathlib import PurePosixPath as P\nemit([str(P(p)) for p in INPUT])', ps);
    expect(ps.map(pyPathStr)).toEqual(py);
  });
});

describe('dict building and type names', () => {
  it('pyDict keeps insertion order as a dict comprehension does', () => {
    const entries: Array<[string, unknown]> = [['b', 1], ['10', 2], ['2', new PyFloat(3)], ['b', 4]];
    const py = runPython<string>('emit(json.dumps({k: v for k, v in json.loads(INPUT)}))', '[["b", 1], ["10", 2], ["2", 3.0], ["b", 4]]');
    expect(pyDumps(pyDict(entries))).toBe(py);
    expect(pyKeys(pyDict([['a', 1]]))).toEqual(['a']);
  });
  it('pyTypeName names JSON values as type(v).__name__ does', () => {
    const docs = ['null', 'true', '1', '1.0', '1.5', '"s"', '[]', '{}', '123456789012345678901234'];
    const py = runPython<string[]>('emit([type(json.loads(d)).__name__ for d in INPUT])', docs);
    expect(docs.map((d) => pyTypeName(parsePyJson(d)))).toEqual(py);
  });
  it('isDict and pyDictGet read a parsed object as a dict, own keys only', () => {
    const docs = ['null', '1.0', '[]', '"s"', '{}', '{"constructor": 1}'];
    expect(docs.map((d) => isDict(parsePyJson(d)))).toEqual([false, false, false, false, true, true]);
    const d = parsePyJson('{"3": 10.0, "verdict": "SUCCESS"}') as Record<string, unknown>;
    expect(pyDictGet(d, 'verdict')).toBe('SUCCESS');
    expect(pyDumps(pyDictGet(d, '3'))).toBe('10.0');
    expect([pyDictGet(d, 'constructor'), pyDictGet(d, 'toString'), pyDictGet(d, 'missing')]).toEqual([undefined, undefined, undefined]);
  });
  it('pyErrorName names a JSON error as Python does', () => {
    let error: unknown;
    try {
      parsePyJson('{"a": }');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PyJsonError);
    const py = runPython<string>('import json\ntry:\n    json.loads(INPUT)\nexcept Exception as e:\n    emit(type(e).__name__)', '{"a": }');
    expect(pyErrorName(error as Error)).toBe(py);
    expect(pyErrorName(new TypeError('x'))).toBe('TypeError');
  });
});

describe('edge cases of the fast paths', () => {
  it('keeps a __proto__ key as an own key, in order', () => {
    const text = '{"__proto__": {"x": 1}, "3": 10.0, "a": -2.0}';
    const v = parsePyJson(text) as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    const py = runPython<string>('emit(json.dumps(json.loads(INPUT)))', text);
    expect(pyDumps(v)).toBe(py);
    expect(pyDumps(pyDict([['a', v.a], ['3', v['3']], ['__proto__', v.__proto__]]))).toBe('{"a": -2.0, "3": 10.0, "__proto__": {"x": 1}}');
  });
  it('refuses a circular value and accepts a repeated one', () => {
    const shared = { k: [1] };
    expect(pyDumps([shared, shared])).toBe('[{"k": [1]}, {"k": [1]}]');
    const loop: unknown[] = [];
    loop.push(loop);
    expect(() => pyDumps(loop)).toThrow('Circular reference detected');
  });
  it('prints integral floats and cuts short strings as Python does', () => {
    const py = runPython<string[]>('emit([repr(float(x)) for x in INPUT])', [-5, 9999999999999998, -1e15]);
    expect([-5, 9999999999999998, -1e15].map(floatRepr)).toEqual(py);
    expect(cpSlice('a😀', 0, 3)).toBe('a😀');
    expect(cpSlice('😀😀😀', 0, 2)).toBe('😀😀');
  });
});
