/**
 * One sandbox setup for every client (the CLI's `attempt` and `pipeline --sandbox`, the examples): the bundled
 * server (or one already running), its source and evidence, training sites spread over the templates, their human
 * tasks, and the offline stand-in models, each labelled as a stand-in.
 * @module
 */
import type { EvidenceProvider, JudgeTarget, LanguageModel, Policy, SiteSource, Task } from 'miniweb-taskgen';
import { assertPlainName } from 'miniweb-taskgen';
import { defaultCatalog } from './catalog';
import { sandboxEvidence } from './evidence';
import { startSandbox } from './server';
import { sandboxSource } from './source';
import { sandboxJudge } from './stand-ins/judge';
import { oraclePolicy } from './stand-ins/oracle-policy';
import { sandboxProposer } from './stand-ins/proposer';
import { sandboxVerifierWriter } from './stand-ins/verifier-writer';
import { sandboxRelabeler } from './stand-ins/relabeler';

/** Options of {@link sandboxSetup}. */
export interface SandboxSetupOptions {
  /** The training sites; default `siteCount` sites spread over the templates. `[]`: none (sites are not needed). */
  readonly sites?: readonly string[];
  /** How many training sites when `sites` is not given. Default 3. */
  readonly siteCount?: number;
  /** Human tasks per site, info and action tasks alternating. Default 2. */
  readonly humanPerSite?: number;
  /** A sandbox already running at this URL: nothing is started, and `close` leaves it running. */
  readonly url?: string;
  /** The port of the server started (0: a free one). Default 0. */
  readonly port?: number;
  /** The tasks the stand-in agent knows solutions for. Default the human tasks. */
  readonly tasks?: readonly Task[];
  /** The share of tasks the stand-in agent gets wrong on purpose. Default 0. */
  readonly failureRate?: number;
  /** The share of verdicts the stand-in judge flips on purpose. Default 0. */
  readonly judgeNoise?: number;
  /** The share of tasks the stand-in verifier writer gets wrong on purpose. Default 0. */
  readonly verifierErrorRate?: number;
  /** The share of tasks the stand-in relabeler writes wrong on purpose (a claim that does not hold). Default 0. */
  readonly relabelErrorRate?: number;
  /** Seeds the stand-ins (each has its own default). */
  readonly seed?: number;
}

/** A running sandbox with what a run needs of it. */
export interface SandboxSetup {
  /** The sandbox's URL, `http://127.0.0.1:<port>` (or the `url` given). */
  readonly url: string;
  /** The sandbox as a site source: its sitemaps, pages and split. */
  readonly source: SiteSource;
  /** Each episode's session evidence, from the sandbox's `/_admin/` API. */
  readonly evidence: EvidenceProvider;
  /** The training sites chosen. */
  readonly sites: readonly string[];
  /** The templates the sites come from, in order. */
  readonly templates: readonly string[];
  /** The sites' human tasks (with verifiers), `humanPerSite` per site, info and action alternating. */
  readonly humanTasks: readonly Task[];
  /** The stand-ins, each labelled (provider `sandbox-stand-in`). */
  readonly proposer: LanguageModel;
  /** The stand-in judge of a run (it reads the run dir to grade with the verifiers). */
  readonly judge: (target: JudgeTarget) => LanguageModel;
  /** The stand-in judge for `--judge-lab` on a run: it also estimates tokens, so variants differ in them. */
  readonly labJudge: (run: string) => LanguageModel;
  /** The stand-in verifier writer: the bank's hand-written verifiers as claims, wrong on `verifierErrorRate` of tasks. */
  readonly verifierWriter: LanguageModel;
  /** The stand-in relabeler: bank tasks whose verifiers pass on the episode, verifiers as claims, wrong on purpose at `relabelErrorRate`. */
  readonly relabeler: LanguageModel;
  /** The stand-in judge of relabeled episodes: it grades the prompt's evidence with the bank task's verifier. */
  readonly relabelJudge: LanguageModel;
  /** The stand-in agent: it replays known solutions, deviating on `failureRate` of the tasks. */
  readonly policy: Policy;
  /** What each stand-in is, in words, for a CLI or notebook to print. */
  readonly describe: { readonly proposer: string; readonly judge: string; readonly agent: string; readonly verifierWriter: string; readonly relabeler: string };
  /** Stops the server this setup started; a sandbox given by `url` is left running. */
  close(): Promise<void>;
}

/**
 * Starts the sandbox server (unless `url` names a running one) and makes its stand-in models.
 * @example
 * const sb = await sandboxSetup({ sites: ['shop-01'], failureRate: 0.3, judgeNoise: 0.1, seed: 17 });
 * try { await pipeline({ dir: 'demo', source: sb.source, evidence: sb.evidence, ... }); } finally { await sb.close(); }
 */
export async function sandboxSetup(options: SandboxSetupOptions = {}): Promise<SandboxSetup> {
  const server = options.url ? null : await startSandbox({ port: options.port ?? 0 });
  const url = options.url ?? server!.url;
  try {
    const catalog = server?.catalog ?? defaultCatalog();
    const train = catalog.split().train;
    const sites = options.sites ? [...options.sites] : spread(catalog.templateList().map((t) => t.id), train, options.siteCount ?? 3);
    for (const site of sites) {
      assertPlainName(site, 'site');
      if (!train.includes(site)) {
        throw new Error(`${site} is not a training site of the sandbox (they are ${train.slice(0, 3).join(', ')} ... ${train.at(-1)}: templates x variants 01-07)`);
      }
    }
    const humanTasks = sites.flatMap((site) => alternateKinds(catalog.tasks(site)?.human ?? [], options.humanPerSite ?? 2));
    const { failureRate = 0, judgeNoise = 0, verifierErrorRate = 0, relabelErrorRate = 0, seed } = options;
    const seeded = seed === undefined ? {} : { seed };
    const percent = (x: number) => `${Math.round(x * 100)}%`;
    return {
      url,
      source: sandboxSource({ url }),
      evidence: sandboxEvidence({ url }),
      sites,
      templates: [...new Set(sites.map((s) => catalog.parse(s)!.template.id))],
      humanTasks,
      proposer: sandboxProposer(),
      judge: ({ run }) => sandboxJudge({ runDir: run, noise: judgeNoise, ...seeded }),
      labJudge: (run) => sandboxJudge({ runDir: run, noise: judgeNoise, ...seeded, estimateUsage: true }),
      relabeler: sandboxRelabeler({ errorRate: relabelErrorRate, ...seeded, estimateUsage: true }),
      relabelJudge: sandboxJudge({ noise: judgeNoise, ...seeded, estimateUsage: true }),
      policy: oraclePolicy({ tasks: options.tasks ?? humanTasks, failureRate, ...seeded }),
      verifierWriter: sandboxVerifierWriter({ errorRate: verifierErrorRate, ...seeded }),
      describe: {
        proposer: 'stand-in-proposer (sandbox stand-in, not a model: serves each site\'s bank of known tasks)',
        agent: `stand-in-oracle (sandbox stand-in, not a model: replays known solutions in Chromium, deviating on ${percent(failureRate)} of tasks on purpose: on 60% of those it does another task of the site, on the rest it stops early or answers wrong)`,
        relabeler: `stand-in-relabeler (sandbox stand-in, not a model: relabels from each site's bank of known tasks, their verifiers as claims, wrong on purpose on ${percent(relabelErrorRate)} of tasks)`,
        judge: `stand-in-judge (sandbox stand-in, not a model: grades with the task verifiers, flipping ${percent(judgeNoise)} of verdicts on purpose)`,
        verifierWriter: `stand-in-verifier-writer (sandbox stand-in, not a model: converts the bank's hand-written verifiers into claims, wrong on ${percent(verifierErrorRate)} of tasks on purpose)`,
      },
      close: async () => server?.close(),
    };
  } catch (error) {
    await server?.close();
    throw error;
  }
}

// `count` training sites, one template after another, each time a different variant (shop-01, mail-02, ...).
function spread(templates: readonly string[], train: readonly string[], count: number): string[] {
  const byTemplate = templates.map((t) => train.filter((s) => s.startsWith(`${t}-`)));
  const out: string[] = [];
  const most = Math.max(0, ...byTemplate.map((v) => v.length));
  for (let round = 0; round < most && out.length < count; round++) {
    byTemplate.forEach((variants, t) => {
      const site = variants[(t + round) % Math.max(1, variants.length)];
      if (site && out.length < count && !out.includes(site)) out.push(site);
    });
  }
  return out;
}

// The first `n` tasks taking information and action tasks in turn, so a small validate run scores both kinds.
function alternateKinds<T extends Task>(tasks: readonly T[], n: number): T[] {
  const info = tasks.filter((t) => t.task_kind === 'info');
  const action = tasks.filter((t) => t.task_kind !== 'info');
  const out: T[] = [];
  for (let i = 0; out.length < Math.min(n, tasks.length); i++) {
    if (i < info.length) out.push(info[i]!);
    if (i < action.length && out.length < n) out.push(action[i]!);
  }
  return out;
}
