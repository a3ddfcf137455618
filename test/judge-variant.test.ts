/**
 * Judge variants with fakeLLM: each preset's prompt shows exactly its parts (the seed preset byte for byte the
 * seed's own, through seed_bridge; the others the seed's prompt with their sections cut), votes make k calls and
 * combine as configured, template files are checked, and variants' records never touch `<run>_judge`.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { InputError, SYSTEM_JUDGE, fakeLLM, runJudgeLab, runJudge, loadVariant, resolveVariant, type FakeCall } from '../src/index';
import { PRESETS } from '../src/lab';
import { runPython } from './helpers/python';
import { randomGradeInputs, rng, tempDir, writeRun } from './helpers/runs';

const N = 6;
const SHOTS = Array.from({ length: 12 }, (_, i) => `step_${i}.png`);
const ids = Array.from({ length: N }, (_, i) => `tg-shop-${String(i).padStart(8, '0')}`);
const tasks = ids.map((id, i) => ({ task_id: id, instruction: `Task ${i}: buy the {blue} lamp 😀`, site: i % 2 ? 'shop' : 'mail', task_kind: i % 3 ? 'action' : 'info' }));
const verdictOf = (call: FakeCall) => (/Task (\d)/.exec(call.prompt)![1]! < '3' ? 'SUCCESS' : 'NOT SUCCESS');

let run: string;
let seedCalls: Array<{ prompt: string; images: string[]; system: string }>;

beforeAll(async () => {
  run = path.join(await tempDir('variant-'), 'run');
  const next = rng(13);
  await writeRun(run, ids.map((taskId, i) => ({ taskId, gradeInputs: randomGradeInputs(next), shots: SHOTS.slice(0, 4 + i), final: true })), tasks);
  await fs.writeFile(path.join(run, 'results.jsonl'), ids.map((id, i) => `{"task_id": "${id}", "ok": ${i % 2 === 0}}\n`).join(''));
  seedCalls = runPython(
    `
import os
from pathlib import Path
import seed_bridge as b
run = Path(INPUT["run"]); out = Path(INPUT["out"]); out.mkdir(exist_ok=True)
res = []
for t in INPUT["tasks"]:
    b.script(['{"verdict": "SUCCESS"}'])
    b.seed.judge_episode(run / t["task_id"], t["instruction"], out)
    c = b.CALLS[0]
    res.append({"prompt": c["prompt"], "system": c["system"], "images": [os.path.relpath(x, run) for x in c["images"]]})
emit(res)
`,
    { run, out: `${run}_py`, tasks },
  );
});

async function judgeWith(name: keyof typeof PRESETS) {
  const llm = fakeLLM({ replies: (call) => `{"verdict": "${verdictOf(call)}"}` });
  const result = await runJudge({ run, llm, variant: PRESETS[name], workers: 1 });
  return { llm, result };
}
const imageNames = (call: FakeCall) => call.options.images!.map((img) => img.name);
const cut = (prompt: string, head: string) => prompt.replace(new RegExp(`\\n\\n${head}[^]*?(?=\\n\\n)`), '');

describe('judge variants', () => {
  it('seed: the prompt, system, screenshots and records are the seed\'s own', async () => {
    const { llm, result } = await judgeWith('seed');
    expect(result.judgeDir).toBe(`${run}_judge`);
    llm.calls.forEach((call, i) => {
      expect(call.prompt).toBe(seedCalls[i]!.prompt);
      expect(call.options.system).toBe(seedCalls[i]!.system);
      expect(imageNames(call)).toEqual(seedCalls[i]!.images);
    });
    const record = JSON.parse(await fs.readFile(path.join(run + '_judge', `${ids[0]}.json`), 'utf8'));
    expect(Object.keys(record)).toEqual(['task_id', 'predicted_label', 'verdict', 'response', 'model']);
  });

  it('no-evidence: no request log or data changes, in prompt or system; the rest as the seed', async () => {
    const { llm, result } = await judgeWith('no-evidence');
    expect(result.judgeDir).toBe(`${run}_judge/lab/no-evidence`);
    llm.calls.forEach((call, i) => {
      const seed = seedCalls[i]!;
      expect(call.prompt).toBe(cut(cut(seed.prompt, 'SERVER REQUESTS OF THE SESSION'), 'DATA CHANGES OF THE SESSION'));
      expect(call.prompt).toContain("AGENT'S FINAL ANSWER:");
      expect(call.prompt).toContain('TEXT ON SCREEN AT THE END:');
      expect(call.options.system).not.toContain('server record');
      expect(imageNames(call)).toEqual(seed.images);
    });
  });

  it('text-only: the seed\'s evidence, no screenshots and no word of them', async () => {
    const { llm } = await judgeWith('text-only');
    llm.calls.forEach((call, i) => {
      expect(call.prompt).toBe(seedCalls[i]!.prompt.replace('Screenshots of the episode follow, in order. ', ''));
      expect(call.options.images).toEqual([]);
      expect(call.options.system).not.toMatch(/screenshot/i);
    });
  });

  it('last-3-shots: the seed\'s prompt with the last 3 screenshots', async () => {
    const { llm } = await judgeWith('last-3-shots');
    llm.calls.forEach((call, i) => {
      expect(call.prompt).toBe(seedCalls[i]!.prompt);
      expect(call.options.system).toBe(SYSTEM_JUDGE);
      const all = [...SHOTS.slice(0, 4 + i).map((s) => `${ids[i]}/screenshots/${s}`), `${ids[i]}/final.png`];
      expect(imageNames(call)).toEqual(all.slice(-3));
    });
  });

  it('votes make k calls and combine by majority or unanimity', async () => {
    const dir = await tempDir('votes-');
    for (const [combine, want] of [['majority', 1], ['unanimity', 0]] as const) {
      const variant = await resolveVariant({ name: `three-${combine}`, votes: 3, combine, temperature: 0.7 });
      const llm = fakeLLM({ replies: ['{"verdict": "SUCCESS"}', '{"verdict": "NOT SUCCESS"}', '{"verdict": "SUCCESS"}'] });
      const { records } = await runJudge({ run, llm, variant, judgeDir: path.join(dir, combine), workers: 1, tasks: undefined });
      expect(llm.calls.length).toBe(3 * N); // one call per vote: every reply has a verdict
      expect(llm.calls.every((c) => c.options.temperature === 0.7)).toBe(true);
      expect(records[0]).toMatchObject({ predicted_label: want, votes: ['SUCCESS', 'NOT SUCCESS', 'SUCCESS'], variant: `three-${combine}`, usage: { calls: 3 } });
    }
  });

  it('checks template files: an unknown, a missing or a hidden placeholder is named', async () => {
    const dir = await tempDir('template-');
    const write = async (name: string, template: string, extra: object = {}) => {
      await fs.writeFile(path.join(dir, `${name}.txt`), template);
      await fs.writeFile(path.join(dir, `${name}.json`), JSON.stringify({ name, prompt: `${name}.txt`, ...extra }));
      return path.join(dir, `${name}.json`);
    };
    const full = 'TASK: {task}\n{n_act} {actions}\n{answer}\n{log}\n{changes}\n{seen}\nReturn JSON {{"verdict": ...}}';
    const ok = await loadVariant(await write('mine', full));
    expect(ok.template).toBe(full);
    await expect(loadVariant(await write('unknown', `${full} {sceen}`))).rejects.toThrow(/unknown placeholder \{sceen\}/);
    await expect(loadVariant(await write('missing', full.replace('{log}', '')))).rejects.toThrow(/missing placeholder \{log\}/);
    await expect(loadVariant(await write('hidden', full, { shows: ['actions', 'answer', 'seen'] }))).rejects.toThrow(/placeholder \{log\} shows log, which the variant hides/);
    await expect(loadVariant(await write('brace', `${full} {`))).rejects.toThrow(InputError);
    await expect(loadVariant('no-such-preset')).rejects.toThrow(/presets are seed, no-evidence, text-only, last-3-shots/);
  });

  it('keeps variants\' records out of <run>_judge, and the lab too', async () => {
    const before = (await fs.readdir(`${run}_judge`)).sort();
    const bytes = await Promise.all(before.filter((f) => f.endsWith('.json')).map((f) => fs.readFile(path.join(`${run}_judge`, f), 'utf8')));
    await expect(runJudge({ run, llm: fakeLLM({ replies: ['{}'] }), variant: PRESETS['text-only'], judgeDir: `${run}_judge/` })).rejects.toThrow(/seed's judge's records/);
    const llm = fakeLLM({ replies: (call) => `{"verdict": "${verdictOf(call)}"}` });
    const { report } = await runJudgeLab({ run, llm, workers: 2 });
    expect(report.variants.map((v) => v.name)).toEqual(['seed', 'no-evidence', 'text-only', 'last-3-shots']);
    expect(report.variants.every((v) => v.judged === N && v.usage.calls === N)).toBe(true);
    expect((await fs.readdir(`${run}_judge`)).sort()).toEqual(before);
    const after = await Promise.all(before.filter((f) => f.endsWith('.json')).map((f) => fs.readFile(path.join(`${run}_judge`, f), 'utf8')));
    expect(after).toEqual(bytes);
    expect((await fs.readdir(`${run}_judge/lab`)).sort()).toEqual(['lab.html', 'lab.json', 'last-3-shots', 'no-evidence', 'seed', 'text-only']);
    // resumable: a second lab makes no call
    const again = fakeLLM({ replies: ['{"verdict": "SUCCESS"}'] });
    await runJudgeLab({ run, llm: again });
    expect(again.calls.length).toBe(0);
  });
});
