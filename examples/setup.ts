// Where the examples' sites and models come from: your setup when the environment names it, else the bundled sandbox
// and its offline stand-in models (which say so). Each part switches on its own:
//   GEMINI_API_KEY (or GOOGLE_API_KEY)  Gemini as proposer and judge (GEMINI_MODEL, default gemini-3.5-flash)
//   QWEN_ENDPOINT                       the agent: a Qwen VL model behind vLLM (QWEN_MODEL, default Qwen/Qwen3.5-4B;
//                                       QWEN_API_KEY if the server wants one)
//   MINIWEB_SITEMAPS, MINIWEB_BASE_URL  MiniWeb's sites (with MINIWEB_SPLIT, MINIWEB_HUMAN_TASKS)
//   SITES                               the training sites, comma-separated (default: the split's, or 3 sandbox sites)
import {
  DEFAULT_GEMINI_MODEL,
  DEFAULT_QWEN_MODEL,
  browserEvidence,
  gemini,
  miniwebSource,
  qwenModel,
  type EvidenceProvider,
  type JudgeModel,
  type LanguageModel,
  type Policy,
  type SiteSource,
  type Task,
} from 'miniweb-taskgen';
import { sandboxSetup } from 'miniweb-taskgen/sandbox';

/** Sites, models and human tasks for an example, and what to print about them. */
export interface ExampleSetup {
  readonly source: SiteSource;
  readonly evidence: EvidenceProvider;
  readonly sites?: readonly string[];
  readonly humanTasks?: string | readonly Task[];
  readonly proposer: LanguageModel;
  readonly judge: JudgeModel;
  /** The relabeler (the proposer's model) and the judge of relabeled episodes. */
  readonly relabeler: LanguageModel;
  readonly relabelJudge: LanguageModel;
  /** The agent: a model (Qwen), or else the sandbox's stand-in policy. */
  readonly agent?: LanguageModel;
  readonly policy?: Policy;
  /** Which sites and models, in words (stand-ins labelled). */
  readonly lines: readonly string[];
  close(): Promise<void>;
}

const env = process.env;
const SANDBOX_SITES = ['shop-01', 'mail-02', 'calendar-03'];

/** The setup the environment names; what it does not name comes from the sandbox. */
export async function exampleSetup(options: { humanPerSite?: number } = {}): Promise<ExampleSetup> {
  const key = env.GEMINI_API_KEY ?? env.GOOGLE_API_KEY;
  const miniweb = env.MINIWEB_SITEMAPS && env.MINIWEB_BASE_URL;
  const sites = env.SITES?.split(',');
  const humanPerSite = options.humanPerSite ?? 2;
  const sandboxSites = sites ?? SANDBOX_SITES;
  // The sandbox's sites, their human tasks (info and action in turn) and its stand-ins, labelled as such.
  const sandbox = miniweb ? undefined : await sandboxSetup({ sites: sandboxSites, humanPerSite, failureRate: 0.3, judgeNoise: 0.1, relabelErrorRate: 0.1, seed: 17 });
  const model = env.GEMINI_MODEL ?? DEFAULT_GEMINI_MODEL;
  const qwen = env.QWEN_MODEL ?? DEFAULT_QWEN_MODEL;
  const lines = [
    miniweb ? `sites: MiniWeb at ${env.MINIWEB_BASE_URL}` : `sites: the bundled sandbox (${sandboxSites.join(', ')}) at ${sandbox!.url}`,
    `proposer and judge: ${key ? `${model} (Gemini API)` : 'the sandbox\'s STAND-INS (not models; set GEMINI_API_KEY for Gemini)'}`,
    `agent: ${env.QWEN_ENDPOINT ? `${qwen} at ${env.QWEN_ENDPOINT}` : 'the sandbox\'s STAND-IN oracle (not a model; set QWEN_ENDPOINT for Qwen)'}`,
  ];
  return {
    source: miniweb
      ? miniwebSource({ sitemaps: env.MINIWEB_SITEMAPS!, split: env.MINIWEB_SPLIT, baseUrl: env.MINIWEB_BASE_URL! })
      : sandbox!.source,
    evidence: sandbox ? sandbox.evidence : browserEvidence(),
    sites: miniweb ? sites : sandboxSites,
    humanTasks: miniweb ? env.MINIWEB_HUMAN_TASKS : sandbox!.humanTasks,
    proposer: key ? gemini({ apiKey: key, model }) : sandbox!.proposer,
    judge: key ? gemini({ apiKey: key, model }) : sandbox!.judge,
    relabeler: key ? gemini({ apiKey: key, model }) : sandbox!.relabeler,
    relabelJudge: key ? gemini({ apiKey: key, model }) : sandbox!.relabelJudge,
    ...(env.QWEN_ENDPOINT
      ? { agent: qwenModel({ baseURL: env.QWEN_ENDPOINT, model: qwen, apiKey: env.QWEN_API_KEY ?? 'EMPTY' }) }
      : { policy: sandbox!.policy }),
    lines,
    close: async () => sandbox?.close(),
  };
}
