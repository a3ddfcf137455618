/**
 * The dataset card (`README.md`): YAML front matter the Hub reads (`configs` with their `data_files`, and
 * `dataset_info` with the features and split sizes), then text written from the run's own files: the recipe,
 * counts per site and task kind, and the judge's measured precision and recall when `validate` ran; how to load it,
 * its license (or that none was set), its limitations, and in plain words when sandbox stand-ins made it.
 * @module
 */
import type { PassAtKCurve, PassAtKReport } from '../validate/pass-at-k';
import { stringify } from 'yaml';
import type { Provenance } from '../rows/provenance';
import { LIBRARY } from '../rows/provenance';
import type { JudgeScoreWithIntervals, RowsReport, ValidateReport } from '../core/schemas';
import { featuresToYaml, type Features } from './features';
import { labelsSection } from './card-labels';
import type { LabelsReport } from '../rows/labels-format';

/** One split of a config, as written. */
export interface CardSplit {
  readonly name: string;
  readonly rows: number;
  readonly files: readonly string[];
}

/** One config, as written. */
export interface CardConfig {
  readonly name: string;
  readonly features: Features;
  readonly splits: readonly CardSplit[];
}

/** What the card is written from. */
export interface CardInput {
  readonly runId: string;
  readonly configs: readonly CardConfig[];
  /** The `train` episodes' provenance (the run's). */
  readonly episodes: readonly Provenance[];
  /** The steps' provenance, one per episode with its row count. */
  readonly steps: ReadonlyArray<{ readonly provenance: Provenance; readonly rows: number }>;
  readonly rowsReport: RowsReport | null;
  readonly validate: ValidateReport | null;
  /** The rows step's `<rows>_labels.json` (label sources and their precision); null when there is none. */
  readonly labels?: LabelsReport | null;
  /** The dataset's license id (`cc-by-4.0`); absent: the card says none was set. */
  readonly license?: string;
  /** pass@k of a run with several tries per task (config `rollouts`); absent for a run of one try. */
  readonly passAtK?: PassAtKReport;
}

/** The sandbox's stand-ins name themselves `stand-in-<role>` (`stand-in-proposer`, `stand-in-oracle`, `stand-in-judge`). */
export function isStandIn(model: string | null): boolean {
  return model !== null && /^stand-in-/.test(model);
}

/** The card's front matter (as an object) and its whole text. */
export function datasetCard(input: CardInput): { frontMatter: Record<string, unknown>; text: string } {
  const frontMatter = {
    pretty_name: `miniweb-taskgen ${input.runId}`,
    ...(input.license ? { license: input.license } : {}),
    tags: ['web-agents', 'synthetic', 'miniweb-taskgen'],
    configs: input.configs.map((c, i) => ({
      config_name: c.name,
      ...(i === 0 ? { default: true } : {}),
      data_files: c.splits.map((s) => ({ split: s.name, path: `data/${c.name}/${s.name}-*` })),
    })),
    dataset_info: input.configs.map((c) => ({
      config_name: c.name,
      features: featuresToYaml(c.features),
      splits: c.splits.map((s) => ({ name: s.name, num_examples: s.rows })),
    })),
  };
  const body = [
    `# miniweb-taskgen: ${input.runId}`,
    '',
    `Web-agent episodes made with [miniweb-taskgen](https://www.npmjs.com/package/miniweb-taskgen) ${LIBRARY.version}: tasks ` +
      'proposed per site, attempted in Chromium by the agent, judged from screenshots and the server\'s record of the ' +
      'session. Config `steps` holds the training rows (the judged successes, one row per step, in the chat form ' +
      'ms-swift and LLaMA-Factory read); config `episodes` holds every episode, successes and failures' +
      (input.configs.some((c) => c.name === 'tasks')
        ? '; config `tasks` holds the tasks with a written verifier (a claim over the server\'s record, checked on the episode it was written from): instruction, start path, site, kind, verifier, a task set for RL.'
        : '.'),
    '',
    ...standInLines(input),
    '## Loading',
    '',
    loadingSnippet(input),
    '',
    '## License',
    '',
    input.license
      ? `Released under \`${input.license}\` (the front matter's \`license\`).`
      : 'No license was set for this dataset (`taskgen export --license <id>` sets one): ask its authors before reusing it.',
    '',
    '## Recipe',
    '',
    recipeTable(input),
    '',
    ...setupsSection(input),
    '## Counts per site and task kind',
    '',
    countsTable(input),
    '',
    '## Labels',
    '',
    labelsSection({ steps: input.steps, labels: input.labels ?? null }, table),
    '',
    '## The judge, measured against task verifiers',
    '',
    judgeSection(input.validate),
    '',
    ...passAtKSection(input.passAtK),
    '## Limitations',
    '',
    limitations(input),
    '',
    '## Provenance',
    '',
    'Every row carries `run_id`, `task_id`, `episode_id` (the episode the verdict was given for), `site`, ' +
      '`task_kind`, `proposer_model`, `agent_model`, `judge_model`, `judge_variant`, `judge_prompt_sha256` (sha256 ' +
      'of the judge\'s exact prompt template), `verdict`, `verifier_ok` (null where no verifier ran) and ' +
      '`library_version`, `agent_setup` and `judge_setup` (the digests of the set-ups that recorded the episode ' +
      'and wrote its verdict, as the run dir\'s `_setup/` records them; null where unknown), `label_source` ' +
      '(where its label came from: see Labels), and `try` (1 for the run dir\'s own episode, n for try n of a run with ' +
      'several tries per task: the try a row was picked from).',
    '',
  ].join('\n');
  return { frontMatter, text: `---\n${stringify(frontMatter, { lineWidth: 0 })}---\n\n${body}` };
}

// pass@k per site and overall, for a run of several tries per task: the figures behind config `rollouts`.
function passAtKSection(report: PassAtKReport | undefined): string[] {
  if (!report || report.overall.tasks === 0) return [];
  const ks = report.overall.points.map((p) => p.k);
  const f = (v: number) => v.toFixed(3);
  const row = (site: string, c: PassAtKCurve) =>
    `| ${site} | ${c.tasks} | ${ks.map((k) => { const p = c.points.find((q) => q.k === k); return p ? `${f(p.estimate)} [${f(p.low)}, ${f(p.high)}]` : ''; }).join(' | ')} | ${c.sometimes} (${Math.round(c.sometimesShare * 100)}%) |`;
  return [
    '## Several tries per task: pass@k',
    '',
    `Each task was tried up to ${report.attempts} times; config \`rollouts\` has one row per try, grouped by task (\`group\`), ` +
      'with its reward (1 or 0; by the task verifier where there is one, else by its written verifier, else by the judge: `reward_source`). pass@k is the ' +
      `unbiased estimator of Chen et al. (2021), averaged over tasks; intervals: ${report.interval}. "Sometimes": tasks solved ` +
      'by some tries and not others, the groups whose rewards differ (the learning signal of GRPO-style training).',
    '',
    `| site | tasks | ${ks.map((k) => `pass@${k}`).join(' | ')} | sometimes |`,
    `|---|---|${ks.map(() => '---').join('|')}|---|`,
    row('all', report.overall),
    ...report.bySite.map((s) => row(s.site, s.curve)),
    '',
  ];
}

// A plain sentence when stand-ins proposed, acted or judged: the data shows the format, not what a model does.
function standInLines(input: CardInput): string[] {
  const roles: Array<[string, keyof Provenance]> = [['proposed the tasks', 'proposer_model'], ['acted', 'agent_model'], ['judged', 'judge_model']];
  const found = roles
    .map(([role, key]) => [role, [...new Set(input.episodes.map((p) => p[key] as string | null).filter(isStandIn))]] as const)
    .filter(([, models]) => models.length > 0);
  if (found.length === 0) return [];
  const what = found.map(([role, models]) => `${role} (${models.map((m) => `\`${m}\``).join(', ')})`);
  return [
    `**Made with stand-ins.** The sandbox's stand-ins, not models, ${joinWords(what)}: they replay known tasks and ` +
      'solutions and flip verdicts on purpose. This dataset shows the format and the pipeline; it is not training data ' +
      'from a model and says nothing about how well one does.',
    '',
  ];
}

function joinWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function loadingSnippet(input: CardInput): string {
  const splits = (name: string) => input.configs.find((c) => c.name === name)?.splits.map((s) => s.name) ?? ['train'];
  const lines = [
    '```python',
    'from datasets import load_dataset',
    '',
    `REPO = "path/to/${input.runId}"  # this folder, or its Hub repo id once pushed`,
    '',
    '# training rows: one row per step (messages and images), the judged successes only',
    'steps = load_dataset(REPO, "steps", split="train")',
    '# every episode, successes and failures, with its verdict and provenance',
    ...splits('episodes').map((s) => `episodes_${s} = load_dataset(REPO, "episodes", split="${s}")`),
    '```',
  ];
  return lines.join('\n');
}

function limitations(input: CardInput): string {
  const v = input.validate;
  const judge = v
    ? `The labels are an LLM judge's verdicts, not ground truth: measured against task verifiers on human tasks its precision was ${withInterval(v.overall.precision, v.overall.precision_ci)} (${v.overall.episodes} episodes), so about ${Math.round(100 * (1 - v.overall.precision))}% of the steps may come from episodes that did not succeed.`
    : 'The labels are an LLM judge\'s verdicts, not ground truth, and the judge was not measured against verifiers for this dataset (`validate` did not run): its precision is unknown.';
  const items = [
    judge,
    'The tasks were proposed by an LLM from each site\'s pages: they cover what the proposer thought of, not what people ask, and some may be ambiguous or impossible.',
    'The sites are small self-hosted web apps (MiniWeb-style), not the open web: no logins, pop-ups, captchas or live data.',
    input.rowsReport
      ? `Config \`steps\` stops at a budget of ${input.rowsReport.budget} steps, taken from the sites in turn: judged successes past the budget are in \`episodes\` only.`
      : 'Config `steps` holds the rows selected up to a step budget: judged successes past it are in `episodes` only.',
    'Verifier results (`verifier_ok`) exist only where a task had a verifier; elsewhere they are null.',
  ];
  return items.map((i) => `- ${i}`).join('\n');
}

function recipeTable(input: CardInput): string {
  const values = (key: keyof Provenance) =>
    [...new Set(input.episodes.map((p) => p[key]).filter((v) => v !== null))].map(String).join(', ') || 'unknown';
  const rows: Array<[string, string]> = [
    ['proposer', values('proposer_model')],
    ['agent', values('agent_model')],
    ['judge', values('judge_model')],
    ['judge variant', values('judge_variant')],
    ['judge prompt sha256', values('judge_prompt_sha256')],
    ['step budget', input.rowsReport ? `${input.rowsReport.budget} (selected ${input.rowsReport.selected_rows} steps of ${input.rowsReport.selected_trajectories} episodes)` : 'unknown'],
  ];
  return table(['', ''], rows);
}

// Only when the episodes come from more than one agent or judge set-up (mixed on purpose): each one's share.
function setupsSection(input: CardInput): string[] {
  const roles = [['agent', 'agent_setup', 'agent_model'], ['judge', 'judge_setup', 'judge_model']] as const;
  const mixed = roles.some(([role, key]) => new Set(input.episodes.filter((p) => role === 'agent' || p.verdict !== null).map((p) => p[key])).size > 1);
  if (!mixed) return [];
  const rows = roles.flatMap(([role, key, modelKey]) => {
    const counts = new Map<string | null, { models: Set<string>; episodes: number; steps: number }>();
    const at = (p: Provenance) => {
      let c = counts.get(p[key]);
      if (!c) counts.set(p[key], (c = { models: new Set(), episodes: 0, steps: 0 }));
      return c;
    };
    // An episode not judged has no judge set-up: it is not counted under the judge's.
    const counted = (p: Provenance) => role === 'agent' || p.verdict !== null;
    for (const p of input.episodes.filter(counted)) {
      const c = at(p);
      c.episodes++;
      if (p[modelKey] !== null) c.models.add(p[modelKey]);
    }
    for (const s of input.steps) if (counted(s.provenance)) at(s.provenance).steps += s.rows;
    return [...counts].map(([digest, c]) => [role, digest ?? 'none recorded', [...c.models].sort().join(', ') || 'unknown', String(c.episodes), String(c.steps)]);
  });
  return [
    '## Set-ups',
    '',
    'The episodes were made with more than one set-up (mixed on purpose); each set-up\'s share:',
    '',
    table(['role', 'set-up', 'model', 'episodes', 'training steps'], rows),
    '',
  ];
}

function countsTable(input: CardInput): string {
  type Count = { episodes: number; judged: number; successes: number; steps: number };
  const counts = new Map<string, Count>();
  const at = (p: Provenance) => {
    const key = `${p.site}\u0000${p.task_kind ?? 'unknown'}`;
    let c = counts.get(key);
    if (!c) counts.set(key, (c = { episodes: 0, judged: 0, successes: 0, steps: 0 }));
    return c;
  };
  for (const p of input.episodes) {
    const c = at(p);
    c.episodes++;
    if (p.verdict !== null) c.judged++;
    if (p.verdict === true) c.successes++;
  }
  for (const s of input.steps) at(s.provenance).steps += s.rows;
  const keys = [...counts.keys()].sort();
  const rows = keys.map((k) => {
    const [site, kind] = k.split('\u0000') as [string, string];
    const c = counts.get(k)!;
    return [site, kind, String(c.episodes), String(c.judged), String(c.successes), String(c.steps)];
  });
  return table(['site', 'task kind', 'episodes', 'judged', 'judged successes', 'training steps'], rows);
}

function judgeSection(validate: ValidateReport | null): string {
  if (!validate) return 'Not measured: `validate` did not run for this dataset.';
  const line = (name: string, s: JudgeScoreWithIntervals) => [
    name,
    String(s.episodes),
    withInterval(s.precision, s.precision_ci),
    withInterval(s.recall, s.recall_ci),
    withInterval(s.agreement, s.agreement_ci),
  ];
  const rows = [line('overall', validate.overall)];
  for (const [site, s] of Object.entries(validate.by_site)) rows.push(line(`site ${site}`, s));
  for (const [kind, s] of Object.entries(validate.by_kind)) rows.push(line(`kind ${kind}`, s));
  return (
    `Judge \`${validate.judge}\` on human tasks with verifiers (95% Wilson intervals):\n\n` +
    table(['', 'episodes', 'precision', 'recall', 'agreement'], rows)
  );
}

function withInterval(value: number, ci: readonly [number, number] | null): string {
  return ci ? `${value.toFixed(3)} [${ci[0].toFixed(3)}, ${ci[1].toFixed(3)}]` : value.toFixed(3);
}

function table(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  return [`| ${head.map(cell).join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}
