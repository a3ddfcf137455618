/**
 * `taskgen pipeline`: propose → attempt → judge → validate → rows → report on one work dir, resumable, with the
 * user's setup (Gemini proposer and judge, the Qwen VL agent behind vLLM, MiniWeb's sites) or, with `--sandbox`,
 * the bundled sandbox sites and offline stand-in models. Progress bars on stderr, a summary on stdout. Split by
 * job: flags (`pipeline-flags`), models (`pipeline-models`), the agent and vLLM (`pipeline-agent`), config and
 * setup text (`pipeline-setup`), signals (`signals`).
 * @module
 */
import type { Command } from 'commander';
import { assertPlainName } from '../core/names';
import { pipelineLayout } from '../pipeline/layout';
import { runPipeline } from '../pipeline/run';
import { stagesToRun } from '../pipeline/plan';
import type { PipelineStage } from '../pipeline/types';
import { formatPipelineSummary, pipelinePrinter } from './pipeline-print';
import { addVotesHint } from './add-votes';
import { agentModel } from './pipeline-agent';
import { runPipelineLab } from './pipeline-lab';
import { resolveShard } from './shard';
import { DEFAULT_DEMO_DIR, DEFAULT_PIPELINE_DIR, pipelineCommand, sandboxOptions, type PipelineFlags } from './pipeline-flags';
import { checkRealSetup, resolveRealModels, type Runs } from './pipeline-models';
import { buildConfig, describeSetup, evidenceFor, standInNotice, standInRoles } from './pipeline-setup';
import { loadSandbox } from './sandbox';
import { stopOnSignals } from './signals';

export { DEFAULT_DEMO_DIR, DEFAULT_PIPELINE_DIR };

/** Registers `taskgen pipeline`. */
export function register(program: Command): void {
  pipelineCommand(program).action(async (flags: PipelineFlags) => {
    await pipelineAction(flags);
  });
}

async function pipelineAction(flags: PipelineFlags): Promise<void> {
  const list = (text: string | undefined) => (text === undefined ? undefined : text.split(',').map((s) => s.trim()));
  const sites = list(flags.sites);
  for (const site of sites ?? []) assertPlainName(site, 'site');
  const skip = list(flags.skip) as PipelineStage[] | undefined;
  const only = list(flags.only) as PipelineStage[] | undefined;
  const sharded = resolveShard(flags);
  const shard = sharded?.shard;
  if (sharded) process.stderr.write(`shard ${sharded.shard.index}/${sharded.shard.count} from ${sharded.from}\n`);
  const { stages } = stagesToRun({ skip, only, shard });
  const runs: Runs = (...names) => names.some((s) => stages.includes(s));
  const out = flags.out ?? (flags.sandbox ? DEFAULT_DEMO_DIR : DEFAULT_PIPELINE_DIR);
  const models = resolveRealModels(flags, runs);
  if (!flags.sandbox) checkRealSetup(flags, runs);

  const cleanup: Array<() => Promise<void>> = [];
  const stop = stopOnSignals(
    '\nstopping (no new episode or stage starts; Ctrl-C again to quit at once); run the same command again to go on\n',
    'interrupted; run the same command again to go on',
  );
  try {
    const sandbox = flags.sandbox ? await (await loadSandbox()).sandboxSetup(sandboxOptions(flags, sites)) : undefined;
    if (sandbox) cleanup.push(() => sandbox.close());
    const agent = await agentModel(flags, runs('attempt', 'validate') && !(sandbox && !models.agentGiven), out, cleanup);
    const lines: string[] = [`taskgen pipeline -> ${out}/`];
    const evidence = await evidenceFor(flags, sandbox);
    const config = { ...buildConfig(flags, { out, sites, sandbox, models, agent: agent?.llm, evidence, skip, only, stop: stop.signal }), ...(shard ? { shard } : {}) };
    lines.push(...describeSetup(flags, sandbox, models, agent?.description, runs));
    process.stdout.write(`${lines.join('\n')}\n`);

    const printer = pipelinePrinter({ perSite: config.perSite, progress: flags.progress });
    const summary = await runPipeline({ ...config, onEvent: printer.onEvent }).finally(printer.stop);
    process.stdout.write(`${formatPipelineSummary(summary)}\n`);
    const labels = summary.stages.rows?.labels;
    const standInJudge = sandbox !== undefined && !models.judge;
    const hint = labels ? await addVotesHint({ run: summary.layout.run, report: labels, again: 'the pipeline with --only rows', standIn: standInJudge }) : [];
    if (hint.length) process.stdout.write(`${hint.join('\n')}\n`);
    const standIns = standInRoles(models, runs);
    if (sandbox && standIns.length) process.stdout.write(`${standInNotice(sandbox, standIns)}\n`);
    if (!summary.complete) process.exitCode = 1;
    if (flags.judgeLab) {
      const judge = models.judge ?? sandbox?.labJudge(pipelineLayout(out).human);
      if (!judge) throw new Error('--judge-lab needs a judge model (--judge-model) or --sandbox');
      const complete = await runPipelineLab(out, judge, { standIn: !models.judge, workers: flags.workers, progress: flags.progress });
      if (!complete) process.exitCode = 1;
    }
  } finally {
    stop.dispose();
    for (const close of cleanup.reverse()) await close().catch(() => {});
  }
}

