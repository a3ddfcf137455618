import { describe, expect, it } from 'vitest';
import { parseAction } from '../src/index';
import { actionJson } from '../src/agent/parse-action';

describe('parseAction', () => {
  const ok = (text: string) => {
    const r = parseAction(text);
    if (r.error !== undefined) throw new Error(`expected an action from ${JSON.stringify(text)}, got: ${r.error}`);
    return r.action;
  };

  it('reads the canonical shape', () => {
    expect(ok('{"click": {"index": 3}}')).toEqual({ click: { index: 3 } });
    expect(ok('{"type": {"index": 2, "text": "blue shoes", "enter": true}}')).toEqual({ type: { index: 2, text: 'blue shoes', enter: true } });
    expect(ok('{"back": {}}')).toEqual({ back: {} });
    expect(ok('{"done": {"answer": "$24.00"}}')).toEqual({ done: { answer: '$24.00' } });
    expect(ok('{"done": {}}')).toEqual({ done: {} });
  });

  it('finds the JSON in fences, after thinking and among prose', () => {
    expect(ok('```json\n{"click": {"index": 7}}\n```')).toEqual({ click: { index: 7 } });
    expect(ok('<think>\nI should click [4] {"click": {"index": 4}} maybe\n</think>\n\n{"scroll": {"direction": "down"}}')).toEqual({ scroll: { direction: 'down' } });
    expect(ok('I will search now.\nAction: {"type": {"index": 1, "text": "kettle"}} Done.')).toEqual({ type: { index: 1, text: 'kettle' } });
    // vLLM may keep the opening tag in the prompt: only the closing tag is in the reply
    expect(ok('the cart link is [2]\n</think>\n{"click": {"index": 2}}')).toEqual({ click: { index: 2 } });
    // an explanation first, the decision last
    expect(ok('Before I clicked {"click": {"index": 1}}; now {"goto": {"path": "/sites/shop/cart"}}')).toEqual({ goto: { path: '/sites/shop/cart' } });
  });

  it('accepts flat and tool-call shapes and coerces wrong types', () => {
    expect(ok('{"action": "click", "index": "3"}')).toEqual({ click: { index: 3 } });
    expect(ok('{"action": "type", "index": "[5]", "text": 42, "enter": "true"}')).toEqual({ type: { index: 5, text: '42', enter: true } });
    expect(ok('{"name": "select", "arguments": "{\\"index\\": 4, \\"option\\": \\"Name\\"}"}')).toEqual({ select: { index: 4, option: 'Name' } });
    expect(ok('{"action": {"check": {"index": 9}}}')).toEqual({ check: { index: 9 } });
    expect(ok('{"click": 12}')).toEqual({ click: { index: 12 } });
    expect(ok('{"scroll": "DOWN"}')).toEqual({ scroll: { direction: 'down' } });
    expect(ok('{"goto": {"url": "/sites/shop/long"}}')).toEqual({ goto: { path: '/sites/shop/long' } });
    expect(ok('{"done": "It costs $8.25"}')).toEqual({ done: { answer: 'It costs $8.25' } });
    expect(ok('{"type": "click", "element_id": 2}')).toEqual({ click: { index: 2 } });
    expect(ok("{'click': {'index': 1}}")).toEqual({ click: { index: 1 } });
    expect(ok('{"action": "finish", "answer": "ok"}')).toEqual({ done: { answer: 'ok' } });
    expect(ok('[{"back": {}}]')).toEqual({ back: {} });
  });

  it('returns an error that says what is wrong', () => {
    expect(parseAction('I think I am done here.').error).toMatch(/no JSON action.*\{"click"/);
    expect(parseAction('{"fly": {"to": "moon"}}').error).toMatch(/names no action/);
    expect(parseAction('{"click": {"index": "first"}}').error).toMatch(/invalid click action \(click\.index/);
    expect(parseAction('{"scroll": {"direction": "left"}}').error).toMatch(/invalid scroll action/);
    expect(parseAction('<think>{"click": {"index": 1}}').error).toMatch(/no JSON action/);
  });

  it('writes actions back as canonical JSON that parses to the same action', () => {
    const action = { type: { index: 2, text: 'a "quoted" word', enter: true } } as const;
    expect(actionJson(action)).toBe('{"type":{"index":2,"text":"a \\"quoted\\" word","enter":true}}');
    expect(ok(actionJson(action))).toEqual(action);
  });
});
