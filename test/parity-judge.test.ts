/**
 * The judge against the seed's own functions (through seed_bridge) on run dirs made here: the formatted
 * evidence, the judge prompt, the chosen screenshots, the model call and the record files, byte for byte.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeLLM, judgeEpisode } from '../src/index';
import { formatActions, formatChanges, formatLog, lastSeen } from '../src/judge';
import { PyFloat } from '../src/core/py/float';
import { parsePyJson } from '../src/core/py/json';
import { pyDumps } from '../src/core/py/dumps';
import { runPython } from './helpers/python';
import { randomGradeInputs, rng, tempDir, writeRun, type EpisodeFixture } from './helpers/runs';

const MODEL = 'gemini-3.5-flash';
const REPLIES: string[][] = [
  ['{"verdict": "SUCCESS"}'],
  ['{"parts": [{"part": "é 😀", "done": true, "evidence": "10.0"}], "verdict": " not success "}'],
  ['not json', '{"verdict": "Success", "score": 10.0}'],
  ['{"verdict": "maybe"}', '', '[1, 2]'],
  ['{"verdict": "SUCCESS"} trailing'],
  ['{"verdict": null}', '{"verdict": "NOT SUCCESS"}'],
  ['"SUCCESS"'],
];

// Hand-made episodes for the seed's sharpest edges; the rest are random.
const EDGE_INPUTS: unknown[] = [
  { actions: [{ click: { index: 0 } }, { type: { index: 0.0, text: '', enter: false } }], answer: 'x'.repeat(1499) + '😀😀', seen: [{ price: new PyFloat(10), ok: true }] },
  { log: [{ method: 'POST', path: '/a', body: 'csrf_token=1&q=%C3%A9', status: 200 }, { method: 'PUT', path: '/b', body: ['x', 0, null], status: new PyFloat(201) }] },
  { log: [{ method: 'GET', path: '/q', query: { '2': 'two', b: 'bee', '10': 'ten', z: new PyFloat(0) }, status: 200 }], seen: [] },
  { changes: [{ table: 'orders', op: null, before: null, after: { name: 'Lamp 😀', id: 1 }, changed: { qty: new PyFloat(2), n: Number.NaN } }] },
  { answer: ['a', 'b', new PyFloat(3)], seen: ['x', 0], actions: [{ done: { answer: 'x' } }, { macro_done: {} }] },
  { answer: '', log: [{ path: '/sites/x/a.woff2' }, { path: '/sites/x/a.css\n' }, { path: '/staticx' }] },
  { seen: ['{"looks": "like json"}'], changes: [{ kind: 'mail', before: { subject: 'Hi' }, after: null, changed: {} }] },
  { actions: [{ select: { index: 3, option: 'Größe {n}' } }], answer: '{task} {{literal}}', seen: ['🙂'.repeat(3000)] },
];

const SHOT_SETS: Array<[string[], boolean]> = [
  [[], false],
  [[], true],
  [['step_0.png'], false],
  [Array.from({ length: 9 }, (_, i) => `step_${i}.png`), false],
  [Array.from({ length: 9 }, (_, i) => `step_${i}.png`), true],
  [Array.from({ length: 10 }, (_, i) => `step_${i}.png`), true],
  [Array.from({ length: 11 }, (_, i) => `step_${i}.png`), false],
  [Array.from({ length: 30 }, (_, i) => `step_${i * 3 + 1}.png`), true],
  [['step_2.png', 'step_10.png', 'step_1.png', 'step_007.png', 'step_3_b.png', 'notes.png'], true],
];

interface PyEpisode {
  log: string;
  changes: string;
  actions: string[];
  seen: string;
  rec: unknown;
  calls: number;
  call: { prompt: string; images: string[]; system: string; max_tokens: number; json_mode: boolean; temperature: number; model: string } | null;
}

describe('judge parity with the seed', () => {
  let run: string;
  let episodes: Array<EpisodeFixture & { instruction: string; replies: string[] }>;
  let py: PyEpisode[];

  beforeAll(async () => {
    run = await tempDir('parity-judge-');
    const next = rng(20261008);
    episodes = [];
    const instructions = ['Find the price of the blue lamp', 'Réservez une table {pour deux} 😀', 'What is {task}?', 'x'];
    for (let i = 0; i < 140; i++) {
      const gradeInputs = i < EDGE_INPUTS.length ? pyDumps(EDGE_INPUTS[i], { ensureAscii: false }) : randomGradeInputs(next, 0.5 + next());
      const [shots, final] = SHOT_SETS[i % SHOT_SETS.length]!;
      episodes.push({
        taskId: `tg-site${i % 7}-${String(i).padStart(8, '0')}`,
        gradeInputs,
        shots,
        final,
        instruction: instructions[i % instructions.length]!,
        replies: REPLIES[i % REPLIES.length]!,
      });
    }
    await writeRun(run, episodes);
    py = runPython<PyEpisode[]>(
      `
import os
from pathlib import Path
import seed_bridge as b
seed = b.seed
run, out = Path(INPUT["run"]), Path(INPUT["out"])
out.mkdir(exist_ok=True)
res = []
for ep in INPUT["episodes"]:
    p = run / ep["id"]
    g = json.loads((p / "grade_inputs.json").read_text())
    item = {"log": seed._fmt_log(g.get("log")), "changes": seed._fmt_changes(g.get("changes")),
            "actions": seed._fmt_actions(g.get("actions")), "seen": seed._last_seen(g.get("seen"))}
    b.script(ep["replies"])
    item["rec"] = seed.judge_episode(p, ep["instruction"], out, model=${JSON.stringify(MODEL)})
    item["calls"] = len(b.CALLS)
    c = b.CALLS[0] if b.CALLS else None
    item["call"] = c and dict(c, images=[os.path.relpath(x, run) for x in c["images"]])
    res.append(item)
emit(res)
`,
      { run, out: `${run}_judge_py`, episodes: episodes.map((e) => ({ id: e.taskId, instruction: e.instruction, replies: e.replies })) },
    );
  });

  it('formats the log, changes, actions and last screen text identically', () => {
    episodes.forEach((ep, i) => {
      const g = parsePyJson(ep.gradeInputs!) as Record<string, never>;
      const p = py[i]!;
      expect(formatLog(g.log), ep.taskId).toBe(p.log);
      expect(formatChanges(g.changes), ep.taskId).toBe(p.changes);
      expect(formatActions(g.actions), ep.taskId).toEqual(p.actions);
      expect(lastSeen(g.seen), ep.taskId).toBe(p.seen);
    });
  });

  it('sends the same prompt, screenshots and options, and writes the same records', async () => {
    const judgeDir = `${run}_judge_ts`;
    for (const [i, ep] of episodes.entries()) {
      const llm = fakeLLM({ replies: ep.replies, modelId: MODEL });
      const rec = await judgeEpisode({ episode: path.join(run, ep.taskId), instruction: ep.instruction, judgeDir, llm });
      const p = py[i]!;
      expect(llm.calls.length, ep.taskId).toBe(p.calls);
      const call = llm.calls[0]!;
      expect(call.prompt, ep.taskId).toBe(p.call!.prompt);
      expect(call.options.images!.map((img) => img.name), ep.taskId).toEqual(p.call!.images);
      expect([call.options.system, call.options.maxTokens, call.options.json, call.options.temperature]).toEqual([
        p.call!.system, p.call!.max_tokens, p.call!.json_mode, p.call!.temperature,
      ]);
      expect(rec, ep.taskId).toEqual(p.rec);
    }
    const pyFiles = (await fs.readdir(`${run}_judge_py`)).sort();
    // Beside the seed's records: their episode bindings (src/files/episode-id.ts), one per record.
    expect((await fs.readdir(judgeDir)).sort()).toEqual(['_episodes', ...pyFiles]);
    expect((await fs.readdir(path.join(judgeDir, '_episodes'))).sort()).toEqual(pyFiles);
    expect(pyFiles.length).toBeGreaterThan(40);
    for (const f of pyFiles) {
      expect(await fs.readFile(path.join(judgeDir, f), 'utf8'), f).toBe(await fs.readFile(path.join(`${run}_judge_py`, f), 'utf8'));
    }
  });

  it('covers the edges it claims to', () => {
    const shotCounts = new Set(py.map((p) => p.call!.images.length));
    expect([...shotCounts].sort((a, b) => a - b)).toEqual([0, 1, 6, 9, 10]);
    expect(py.some((p) => p.call!.prompt.includes('10.0'))).toBe(true);
    expect(py.some((p) => (p.rec as { verdict: boolean }).verdict === false)).toBe(true);
    expect(py.filter((p) => p.log.includes(' body "')).length).toBeGreaterThan(3);
  });
});
