/**
 * `taskgen export` on the sandbox demo's run (the CLI end to end, stand-in models): the Parquet shards read back
 * by hyparquet (independent of the library's reader) give the rows of `rows.jsonl` and the image files byte for
 * byte and one row per episode with the judge's verdicts; the features in the Parquet metadata and the card's
 * YAML are what `datasets` writes (a checked-in expected schema); a stale verdict, a missing screenshot, a torn
 * `rows.jsonl` or a file that is a symbolic link stops the export with an error naming episode and file, and leaves no folder behind.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkClaim, emptyEvidence, loadEpisodes, loadStepEvidence, loadSteps, nodeStore, type Claim, type StepRow } from '../src/index';
import { runCli } from './helpers/cli';
import { tempDir } from './helpers/runs';

const expected = JSON.parse(await fs.readFile(path.join(__dirname, 'fixtures', 'hf-features.json'), 'utf8')) as Record<
  'steps' | 'episodes',
  { metadata: unknown; yaml: unknown }
>;

type Row = Record<string, unknown>;

async function readConfig(dir: string, config: string, split = 'train'): Promise<{ files: string[]; rows: Row[] }> {
  const folder = path.join(dir, 'data', config);
  const files = (await fs.readdir(folder)).filter((f) => f.startsWith(`${split}-`)).sort();
  const rows: Row[] = [];
  for (const f of files) rows.push(...((await parquetReadObjects({ file: await asyncBufferFromFile(path.join(folder, f)), utf8: false })) as Row[]));
  return { files, rows };
}

async function jsonl(file: string): Promise<Row[]> {
  return (await fs.readFile(file, 'utf8')).split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Row);
}

describe('taskgen export', () => {
  let root: string;
  let demo: string;
  let hf: string;

  beforeAll(async () => {
    root = await tempDir('export-');
    demo = path.join(root, 'demo');
    const made = await runCli(['pipeline', '--sandbox', '--out', demo, '--sandbox-sites', '2', '--per-site', '3', '--human-per-site', '2']);
    expect(made.code, made.stderr).toBe(0);
    hf = path.join(root, 'hf');
    const exported = await runCli(['export', demo, '--out', hf, '--shard-steps', '5', '--row-group', '2']);
    expect(exported.code, exported.stderr).toBe(0);
  });

  it('steps: the rows of rows.jsonl, the image bytes of the files, in shards named as the Hub names them', async () => {
    const { files, rows } = await readConfig(hf, 'steps');
    const provenance = await jsonl(path.join(demo, 'rows_provenance.jsonl')); // written by the rows step
    const selected = provenance.map((p) => p.task_id as string);
    expect(selected.length).toBeGreaterThan(0);
    const want: Row[] = [];
    for (const id of selected) {
      for (const [step, row] of (await jsonl(path.join(demo, 'rows', id, 'rows.jsonl'))).entries()) {
        const images = await Promise.all(
          (row.images as string[]).map(async (img) => ({ bytes: new Uint8Array(await fs.readFile(path.join(demo, 'rows', id, img))), path: `${id}/${img}` })),
        );
        want.push({ task_id: id, step: BigInt(step), messages: row.messages, images });
      }
    }
    expect(rows.length).toBe(want.length);
    const n = Math.ceil(want.length / 5);
    expect(files).toEqual(Array.from({ length: n }, (_, i) => `train-${String(i).padStart(5, '0')}-of-${String(n).padStart(5, '0')}.parquet`));
    expect(rows.map((r) => ({ task_id: r.task_id, step: r.step, messages: r.messages, images: r.images }))).toEqual(want);
    for (const r of rows) {
      expect(r).toMatchObject(provenance.find((p) => p.task_id === r.task_id)!);
      expect(r).toMatchObject({ run_id: 'demo', proposer_model: 'stand-in-proposer', verdict: true, agent_model: 'stand-in-oracle', judge_model: 'stand-in-judge', judge_variant: 'seed' });
      expect(r.judge_prompt_sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(r.episode_id).toMatch(/^[0-9a-f]+$/);
      expect(r.try).toBe(1n); // a run of one try: every row is the run dir's own
    }
    const loaded: StepRow[] = [];
    for await (const s of loadSteps(hf)) loaded.push(s);
    expect(loaded.map((s) => [s.task_id, s.step, s.images.map((i) => i.bytes.length)])).toEqual(
      want.map((w) => [w.task_id, Number(w.step), (w.images as Array<{ bytes: Uint8Array }>).map((i) => i.bytes.length)]),
    );
  });

  it("episodes: one row per episode, successes and failures, with the judge's verdicts and the verifiers' results", async () => {
    for (const [split, run] of [['train', 'run'], ['human', 'human']] as const) {
      const { rows } = await readConfig(hf, 'episodes', split);
      // The run's episodes, and on train the relabeled ones (in `run_relabel`, judged in `run_relabel_judge`).
      const home = new Map<string, string>();
      for (const dir of run === 'run' ? [run, `${run}_relabel`] : [run]) {
        const entries = existsSync(path.join(demo, dir)) ? await fs.readdir(path.join(demo, dir), { withFileTypes: true }) : [];
        for (const d of entries) if (d.isDirectory() && !d.name.startsWith('_')) home.set(d.name, dir);
      }
      expect(rows.map((r) => r.task_id).sort()).toEqual([...home.keys()].sort());
      const results = new Map(run === 'human' ? (await jsonl(path.join(demo, run, 'results.jsonl'))).map((l) => [l.task_id, l.ok]) : []);
      for (const r of rows) {
        const dir = home.get(r.task_id as string)!;
        // The set-ups that recorded the episode and wrote its verdict, each one on record (a relabel keeps its parent's agent).
        expect(existsSync(path.join(demo, r.origin === 'relabel' ? run : dir, '_setup', `${r.agent_setup as string}.json`))).toBe(true);
        if (r.verdict !== null) expect(existsSync(path.join(demo, `${dir}_judge`, '_setup', `${r.judge_setup as string}.json`))).toBe(true);
        const record = JSON.parse(await fs.readFile(path.join(demo, `${dir}_judge`, `${r.task_id as string}.json`), 'utf8')) as Row;
        const episode = JSON.parse(await fs.readFile(path.join(demo, dir, r.task_id as string, 'episode.json'), 'utf8')) as Row;
        expect(r.verdict).toBe(record.predicted_label === 1);
        expect(r.judge_reasoning).toBe(record.response);
        expect(r.verifier_ok).toBe(results.get(r.task_id) ?? null);
        expect(r.steps).toBe(BigInt(episode.steps as number));
        expect(r.try).toBe(1n);
        const shots = r.screenshots as Array<{ bytes: Uint8Array }>;
        expect(shots.length).toBe(episode.steps);
        expect(shots[0]!.bytes).toEqual(new Uint8Array(await fs.readFile(path.join(demo, dir, r.task_id as string, 'screenshots', 'step_0.png'))));
      }
      expect(new Set(rows.map((r) => r.verdict))).toEqual(new Set([true, false]));
    }
    let n = 0;
    for await (const e of loadEpisodes(hf, { split: 'human' })) n += e.verifier_ok === null ? 0 : 1;
    expect(n).toBe(4);
  });

  it('writes the features as datasets does: Parquet metadata, Parquet types, the card YAML', async () => {
    for (const config of ['steps', 'episodes'] as const) {
      const folder = path.join(hf, 'data', config);
      const file = path.join(folder, (await fs.readdir(folder)).sort()[0]!);
      const metadata = await parquetMetadataAsync(await asyncBufferFromFile(file));
      const kv = metadata.key_value_metadata?.find((k) => k.key === 'huggingface');
      expect(JSON.parse(kv!.value!)).toEqual(expected[config].metadata);
      const images = metadata.schema.findIndex((s) => s.name === (config === 'steps' ? 'images' : 'screenshots'));
      expect(metadata.schema.slice(images, images + 5).map((s) => [s.name, s.repetition_type, s.type ?? null, s.converted_type ?? null])).toEqual([
        [config === 'steps' ? 'images' : 'screenshots', 'OPTIONAL', null, 'LIST'],
        ['list', 'REPEATED', null, null],
        ['element', 'OPTIONAL', null, null],
        ['bytes', 'OPTIONAL', 'BYTE_ARRAY', null],
        ['path', 'OPTIONAL', 'BYTE_ARRAY', 'UTF8'],
      ]);
    }
    const card = await fs.readFile(path.join(hf, 'README.md'), 'utf8');
    const front = parse(card.split('---\n')[1]!) as { configs: unknown; dataset_info: Array<{ config_name: string; features: unknown; splits: unknown }> };
    expect(front.configs).toEqual([
      { config_name: 'steps', default: true, data_files: [{ split: 'train', path: 'data/steps/train-*' }] },
      {
        config_name: 'episodes',
        data_files: [
          { split: 'train', path: 'data/episodes/train-*' },
          { split: 'human', path: 'data/episodes/human-*' },
        ],
      },
      // the pipeline's verifiers stage wrote verifiers.jsonl: the tasks with one, a task set for RL
      { config_name: 'tasks', data_files: [{ split: 'train', path: 'data/tasks/train-*' }] },
    ]);
    for (const info of front.dataset_info.filter((i) => i.config_name !== 'tasks')) expect(info.features).toEqual(expected[info.config_name as 'steps' | 'episodes'].yaml);
    const tasks = front.dataset_info.find((i) => i.config_name === 'tasks')!;
    expect((tasks.features as Array<{ name: string }>).map((f) => f.name)).toEqual(['task_id', 'site', 'task_kind', 'instruction', 'start_path', 'verifier', 'written_from_episode_id', 'writer_model', 'run_id']);
    expect((tasks.splits as Array<{ num_examples: number }>)[0]!.num_examples).toBeGreaterThan(0);
    expect(card).toMatch(/\| overall \| 4 \| \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\] \|/); // validate's precision with its interval
    expect(card).toContain('| proposer | stand-in-proposer |');
  });

  it('the card: a loading snippet for both configs, no license set, limitations, and that stand-ins made the data', async () => {
    const card = await fs.readFile(path.join(hf, 'README.md'), 'utf8');
    const front = parse(card.split('---\n')[1]!) as Record<string, unknown>;
    expect(front).not.toHaveProperty('license');
    expect(card).toContain('No license was set for this dataset');
    expect(card).toContain('steps = load_dataset(REPO, "steps", split="train")');
    for (const split of ['train', 'human']) expect(card).toContain(`episodes_${split} = load_dataset(REPO, "episodes", split="${split}")`);
    expect(card).toMatch(/## Limitations\n\n- The labels are an LLM judge's verdicts, not ground truth: measured against task verifiers on human tasks its precision was \d\.\d{3} \[/);
    expect(card).toContain("**Made with stand-ins.** The sandbox's stand-ins, not models, proposed the tasks (`stand-in-proposer`), acted (`stand-in-oracle`) and judged (`stand-in-judge`)");

    expect(card).not.toContain('## Set-ups'); // one set-up per role: nothing to split

    const licensed = path.join(root, 'hf-licensed');
    const again = await runCli(['export', demo, '--out', licensed, '--license', 'cc-by-4.0', '--no-progress']);
    expect(again.code, again.stderr).toBe(0);
    const text = await fs.readFile(path.join(licensed, 'README.md'), 'utf8');
    expect((parse(text.split('---\n')[1]!) as Record<string, unknown>).license).toBe('cc-by-4.0');
    expect(text).toContain('Released under `cc-by-4.0`');
    const refused = await runCli(['export', demo, '--out', path.join(root, 'hf-bad'), '--license', 'cc by "4"']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('license');
  });

  it('labels: every row names its source, the card counts the rows per source, and its estimate is recomputed from the run\'s files', async () => {
    const provenance = await jsonl(path.join(demo, 'rows_provenance.jsonl'));
    const { rows } = await readConfig(hf, 'steps');
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(['verifier', 'written-verifier', 'relabel', 'judge']).toContain(r.label_source);
    const card = await fs.readFile(path.join(hf, 'README.md'), 'utf8');
    // Steps and episodes per source, from the rows dir itself.
    const per = new Map<string, { episodes: number; steps: number }>();
    for (const p of provenance) {
      const c = per.get(p.label_source as string) ?? { episodes: 0, steps: 0 };
      c.episodes++;
      c.steps += (await jsonl(path.join(demo, 'rows', p.task_id as string, 'rows.jsonl'))).length;
      per.set(p.label_source as string, c);
    }
    expect([...per.values()].reduce((n, c) => n + c.steps, 0)).toBe(rows.length);
    for (const source of ['verifier', 'written-verifier', 'relabel', 'judge']) {
      const c = per.get(source) ?? { episodes: 0, steps: 0 };
      expect(card).toContain(`| ${source} | ${c.episodes} | ${c.steps} |`);
    }
    // Each measured source's precision, from the records and the verifiers, with a Wilson interval computed here.
    const r3 = (x: number) => Math.round(x * 1000) / 1000;
    const wilson = (k: number, n: number) => {
      const z = 1.959963984540054;
      const p = k / n;
      const d = 1 + (z * z) / n;
      const c = (p + (z * z) / (2 * n)) / d;
      const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
      return [r3(Math.max(0, c - h)), r3(Math.min(1, c + h))] as const;
    };
    const labelOf = async (file: string) => (JSON.parse(await fs.readFile(file, 'utf8')) as { predicted_label: number }).predicted_label;
    let tp = 0;
    let judged = 0;
    for (const line of await jsonl(path.join(demo, 'human', 'results.jsonl'))) {
      if ((await labelOf(path.join(demo, 'human_judge', `${line.task_id as string}.json`))) !== 1) continue;
      judged++;
      if (line.ok === true) tp++;
    }
    const relabelDir = path.join(demo, 'run_relabel_judge');
    const relabels = await Promise.all((await fs.readdir(relabelDir)).filter((f) => f.endsWith('.json')).map((f) => labelOf(path.join(relabelDir, f))));
    const measured: Record<string, { k: number; n: number }> = { judge: { k: tp, n: judged } };
    // A relabel is kept only when its claim held and the judge said yes: their agreement is named, never called a precision.
    const agreed = relabels.filter((l) => l === 1).length;
    expect(relabels.length).toBeGreaterThan(0);
    expect(card).toContain(`| relabel | ${per.get('relabel')?.episodes ?? 0} | ${per.get('relabel')?.steps ?? 0} | not measured | not measured against a truth: the relabel judge confirmed ${agreed} of the ${relabels.length} relabeled episodes`);
    const shown = (k: number, n: number) => { const [lo, hi] = wilson(k, n); return `${(k / n).toFixed(3)} [${lo.toFixed(3)}, ${hi.toFixed(3)}] (${k} of ${n})`; };
    for (const [source, m] of Object.entries(measured)) if (m.n > 0) expect(card).toContain(`| ${source} | ${per.get(source)?.episodes ?? 0} | ${per.get(source)?.steps ?? 0} | ${shown(m.k, m.n)} |`);
    // The estimate: the measured sources' precisions weighted by their steps; the interval's ends widened by which episodes were kept.
    const parts = Object.entries(measured).filter(([s, m]) => m.n > 0 && (per.get(s)?.steps ?? 0) > 0);
    const steps = parts.reduce((n, [s]) => n + per.get(s)!.steps, 0);
    const spread = (p: number, e: number) => 1.959963984540054 * Math.sqrt((p * (1 - p)) / e);
    const mean = (f: (m: { k: number; n: number }, episodes: number) => number) => r3(parts.reduce((sum, [s, m]) => sum + per.get(s)!.steps * f(m, per.get(s)!.episodes), 0) / steps);
    const est = [mean((m) => m.k / m.n), mean((m, e) => Math.max(0, wilson(m.k, m.n)[0] - spread(wilson(m.k, m.n)[0], e))), mean((m, e) => Math.min(1, wilson(m.k, m.n)[1] + spread(wilson(m.k, m.n)[1], e)))];
    // Here the judge (the one measured source) labels no kept step: the card says the estimate is not measured.
    if (steps === 0) expect(card).toContain('Estimated label precision of the dataset: not measured (no training step comes from a measured source).');
    else expect(card).toContain(`**Estimated label precision of the dataset: ${est[0]!.toFixed(3)} [${est[1]!.toFixed(3)}, ${est[2]!.toFixed(3)}]** over ${steps} of ${rows.length} training steps`);
    expect(await fs.readFile(path.join(demo, 'run_report', 'rows.html'), 'utf8')).toContain('<table id="label-sources">');

    // A precision target no judge configuration reaches (4 human episodes cannot show 0.99): no judge-only row, and why.
    const out = path.join(root, 'rows-target');
    const target = await runCli(['rows', path.join(demo, 'run'), '--out', out, '--tasks', path.join(demo, 'tasks.jsonl'), '--min-precision', '0.99', '--no-progress']);
    expect(target.code, target.stderr).toBe(0);
    expect(target.stderr).toMatch(/no judge configuration reaches the precision target 0\.99: the best lower 95% bound is 0\.\d+ .*no judge-only rows selected/);
    const kept = await jsonl(`${out}_provenance.jsonl`);
    expect(kept.filter((p) => p.label_source === 'judge')).toEqual([]);
    const labels = JSON.parse(await fs.readFile(`${out}_labels.json`, 'utf8')) as { left_out: Array<{ reason: string }> };
    const judgeOnly = provenance.filter((p) => p.label_source === 'judge').length;
    expect(labels.left_out.filter((l) => l.reason === 'left out: below the precision target').length).toBe(judgeOnly);
  });

  it('the card counts per set-up when the episodes come from more than one (a judge set-up changed on purpose)', async () => {
    const copy = path.join(root, 'mixed');
    await fs.cp(demo, copy, { recursive: true });
    const id = (await fs.readdir(path.join(copy, 'run_judge', '_episodes')))[0]!.replace(/\.json$/, '');
    const file = path.join(copy, 'run_judge', '_episodes', `${id}.json`);
    const binding = JSON.parse(await fs.readFile(file, 'utf8')) as Row;
    await fs.writeFile(file, `${JSON.stringify({ ...binding, setup: '0000000000000000' })}\n`);
    const out = path.join(root, 'mixed-hf');
    const done = await runCli(['export', copy, '--out', out, '--no-progress']);
    expect(done.code, done.stderr).toBe(0);
    const card = await fs.readFile(path.join(out, 'README.md'), 'utf8');
    expect(card).toContain('## Set-ups');
    expect(card).toMatch(/\| judge \| 0000000000000000 \| stand-in-judge \| 1 \| \d+ \|/);
    expect(card).toContain(`| judge | ${binding.setup as string} | stand-in-judge |`);
    const { rows } = await readConfig(out, 'episodes');
    expect(rows.find((r) => r.task_id === id)!.judge_setup).toBe('0000000000000000');
  });

  describe('refuses a run whose provenance does not hold', () => {
    const broken = async (name: string, mutate: (copy: string, id: string) => Promise<void>) => {
      const copy = path.join(root, name);
      await fs.cp(demo, copy, { recursive: true });
      const id = (await jsonl(path.join(copy, 'rows_provenance.jsonl')))[0]!.task_id as string;
      await mutate(copy, id);
      const out = path.join(root, `${name}-hf`);
      const result = await runCli(['export', copy, '--out', out]);
      expect(result.code).not.toBe(0);
      await expect(fs.access(out)).rejects.toThrow();
      expect((await fs.readdir(root)).filter((f) => f.includes('.partial-'))).toEqual([]);
      return { stderr: result.stderr, id, copy };
    };

    it('a verdict given for another episode', async () => {
      const { stderr, id, copy } = await broken('stale', async (copy, id) => {
        // The judge bound its record to the episode it judged; the episode has since been recorded again.
        const file = path.join(copy, 'run', id, 'episode.json');
        const episode = JSON.parse(await fs.readFile(file, 'utf8')) as { timings: { ms: number } };
        episode.timings.ms += 1;
        await fs.writeFile(file, `${JSON.stringify(episode, null, 1)}\n`);
      });
      expect(stderr).toContain(`episode ${id}: stale verdict`);
      expect(stderr).toContain(path.join(copy, 'run_judge', `${id}.json`));
    });

    it('a missing screenshot', async () => {
      const { stderr, id, copy } = await broken('noshot', (copy, id) => fs.rm(path.join(copy, 'rows', id, 'step_0.png')));
      expect(stderr).toContain(`episode ${id}: missing screenshot step_0.png`);
      expect(stderr).toContain(path.join(copy, 'rows', id, 'step_0.png'));
    });

    // A copy of the file outside the run, linked in its place: its bytes are the same, so only the link stops it.
    const linkOut = async (file: string) => {
      const outside = path.join(await tempDir('export-outside-'), path.basename(file));
      await fs.copyFile(file, outside);
      await fs.rm(file);
      await fs.symlink(outside, file);
    };
    const LINK = 'a symbolic link, never followed (it may point out of the run): replace it with the file';

    it("an episode's grade_inputs.json that is a symbolic link", async () => {
      const { stderr, id, copy } = await broken('linked-inputs', (copy, id) => linkOut(path.join(copy, 'run', id, 'grade_inputs.json')));
      expect(stderr).toContain(`${path.join(copy, 'run', id, 'grade_inputs.json')}: episode ${id}: ${LINK}`);
    });

    it("a selected episode's rows.jsonl that is a symbolic link", async () => {
      const { stderr, id, copy } = await broken('linked-rows', (copy, id) => linkOut(path.join(copy, 'rows', id, 'rows.jsonl')));
      expect(stderr).toContain(`${path.join(copy, 'rows', id, 'rows.jsonl')}: episode ${id}: ${LINK}`);
    });

    it('a torn rows.jsonl', async () => {
      const { stderr, id, copy } = await broken('torn', async (copy, id) => {
        const file = path.join(copy, 'rows', id, 'rows.jsonl');
        const text = await fs.readFile(file, 'utf8');
        await fs.writeFile(file, text.slice(0, text.length - 40));
      });
      const lines = (await fs.readFile(path.join(copy, 'rows', id, 'rows.jsonl'), 'utf8')).split('\n').length;
      expect(stderr).toContain(`${path.join(copy, 'rows', id, 'rows.jsonl')}:${lines}: episode ${id}: torn last line`);
    });
  });

  it("tasks: every written verifier fails its task's do-nothing episode and does not hold at its episode's start", async () => {
    const { rows } = await readConfig(hf, 'tasks');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const claim = JSON.parse(String(row.verifier)) as Claim;
      // The task's do-nothing episode: its site's tables as its recorded episode started, nothing done.
      const own = await loadStepEvidence(nodeStore(), path.join(demo, 'run', String(row.task_id)));
      expect(own.start, String(row.task_id)).toBeTruthy();
      expect(checkClaim(claim, emptyEvidence(own.start)).holds, JSON.stringify(claim)).toBe(false);
      expect(checkClaim(claim, own)).toMatchObject({ holds: true, vacuous: null });
    }
  });
});
