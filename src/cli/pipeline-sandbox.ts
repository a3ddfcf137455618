/**
 * The `--sandbox` path of `taskgen pipeline`: the bundled sandbox server and its offline stand-in models. The
 * sandbox is loaded here only, by dynamic import, so the library never depends on it.
 * @module
 */
import type { EvidenceProvider, Policy } from '../agent/types';
import type { LanguageModel } from '../llm/types';
import { assertPlainName } from '../names';
import type { JudgeTarget } from '../pipeline/types';
import type { Task } from '../schemas';
import type { SiteSource } from '../source/types';

/** Options of {@link startSandboxSetup}. */
export interface SandboxSetupOptions {
  /** The training sites; default `siteCount` sites spread over the templates. */
  readonly sites?: readonly string[];
  /** How many training sites when `sites` is not given. */
  readonly siteCount: number;
  /** Human tasks per site, info and action tasks alternating. */
  readonly humanPerSite: number;
  /** The server's port (0: a free one). */
  readonly port: number;
  /** The share of tasks the stand-in agent gets wrong on purpose. */
  readonly failureRate: number;
  /** The share of verdicts the stand-in judge flips on purpose. */
  readonly judgeNoise: number;
  /** Seeds both. */
  readonly seed: number;
}

/** A running sandbox with what the pipeline needs of it. */
export interface SandboxSetup {
  readonly url: string;
  readonly source: SiteSource;
  readonly evidence: EvidenceProvider;
  readonly sites: readonly string[];
  /** The templates the sites come from, in order. */
  readonly templates: readonly string[];
  readonly humanTasks: readonly Task[];
  /** The stand-ins, each labelled (provider `sandbox-stand-in`). */
  readonly proposer: LanguageModel;
  readonly judge: (target: JudgeTarget) => LanguageModel;
  /** The stand-in judge for `--judge-lab` on a run: it also estimates tokens, so variants differ in them. */
  readonly labJudge: (run: string) => LanguageModel;
  readonly policy: Policy;
  /** What each stand-in is, in words, for the CLI to print. */
  readonly describe: { readonly proposer: string; readonly judge: string; readonly agent: string };
  close(): Promise<void>;
}

/** Starts the sandbox server and makes its stand-in models. */
export async function startSandboxSetup(options: SandboxSetupOptions): Promise<SandboxSetup> {
  const sb = await import('../../sandbox/index');
  const server = await sb.startSandbox({ port: options.port });
  try {
    const { catalog } = server;
    const train = catalog.split().train;
    const sites = options.sites ? [...options.sites] : spread(catalog.templateList().map((t) => t.id), train, options.siteCount);
    for (const site of sites) {
      assertPlainName(site, 'site');
      if (!train.includes(site)) {
        throw new Error(`${site} is not a training site of the sandbox (they are ${train.slice(0, 3).join(', ')} ... ${train.at(-1)}: templates x variants 01-07)`);
      }
    }
    const humanTasks = sites.flatMap((site) => alternateKinds(catalog.tasks(site)?.human ?? [], options.humanPerSite));
    const { failureRate, judgeNoise, seed } = options;
    const percent = (x: number) => `${Math.round(x * 100)}%`;
    return {
      url: server.url,
      source: sb.sandboxSource({ url: server.url }),
      evidence: sb.sandboxEvidence({ url: server.url }),
      sites,
      templates: [...new Set(sites.map((s) => catalog.parse(s)!.template.id))],
      humanTasks,
      proposer: sb.sandboxProposer(),
      judge: ({ run }) => sb.sandboxJudge({ runDir: run, noise: judgeNoise, seed }),
      labJudge: (run) => sb.sandboxJudge({ runDir: run, noise: judgeNoise, seed, estimateUsage: true }),
      policy: sb.oraclePolicy({ tasks: humanTasks, failureRate, seed }),
      describe: {
        proposer: 'stand-in-proposer (sandbox stand-in, not a model: serves each site\'s bank of known tasks)',
        agent: `stand-in-oracle (sandbox stand-in, not a model: replays known solutions in Chromium, deviating on ${percent(failureRate)} of tasks on purpose)`,
        judge: `stand-in-judge (sandbox stand-in, not a model: grades with the task verifiers, flipping ${percent(judgeNoise)} of verdicts on purpose)`,
      },
      close: () => server.close(),
    };
  } catch (error) {
    await server.close();
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
