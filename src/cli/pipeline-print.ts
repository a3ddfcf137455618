/**
 * What `taskgen pipeline` prints: each stage's progress through the subcommands' own printers, a line per stage
 * when it ends, and the final summary (counts, rates, tokens, cost, wall time, where every output is).
 * @module
 */
import { formatCount, formatUsage } from '../models/usage';
import type { PipelineEvent, PipelineStage, PipelineResult, StageSummaries } from '../pipeline/types';
import { attemptPrinter } from './attempt';
import { fileUrl, interval } from './format';
import { judgePrinter } from './judge';
import { formatSetupCounts, type SetupCount } from '../files/setup-counts';
import { proposePrinter } from './propose';
import { reportPrinter } from './report';
import { relabelPrinter } from './relabel';
import { labelsLine, rowsPrinter } from './rows';
import { formatPassAtK } from './format-pass-at-k';

interface Printer {
  onEvent(event: PipelineEvent): void;
  stop(): void;
}

/** Routes the pipeline's events to the subcommands' printers (bars on a terminal) and prints a line per stage. */
export function pipelinePrinter(options: { readonly perSite: number; readonly progress: boolean }): Printer {
  const { progress } = options;
  let stops: Array<() => void> = [];
  let propose: ReturnType<typeof proposePrinter> | undefined;
  const attempts = new Map<string, ReturnType<typeof attemptPrinter>>();
  const judges = new Map<string, ReturnType<typeof judgePrinter>>();
  let rows: ReturnType<typeof rowsPrinter> | undefined;
  let relabel: ReturnType<typeof relabelPrinter> | undefined;
  let report: ReturnType<typeof reportPrinter> | undefined;
  const stopAll = () => {
    for (const stop of stops) stop();
    stops = [];
  };
  const onEvent = (event: PipelineEvent) => {
    switch (event.type) {
      case 'stage-start':
        process.stdout.write(`\n== ${event.stage}\n`);
        if (event.stage === 'propose') {
          propose = proposePrinter(options.perSite, { progress });
          stops.push(propose.stop);
        } else if (event.stage === 'attempt' || event.stage === 'validate') {
          const label = event.stage === 'attempt' ? 'attempt' : 'validate: attempt';
          const printer = attemptPrinter({ progress, label });
          attempts.set(event.stage, printer);
          stops.push(printer.stop);
        }
        if (event.stage === 'judge' || event.stage === 'validate') {
          const printer = judgePrinter({ progress, label: event.stage === 'judge' ? 'judge' : 'validate: judge' });
          judges.set(event.stage, printer);
          stops.push(printer.stop);
        } else if (event.stage === 'relabel') {
          relabel = relabelPrinter();
          stops.push(relabel.stop);
        } else if (event.stage === 'rows') {
          rows = rowsPrinter({ progress });
          stops.push(rows.stop);
        } else if (event.stage === 'report') report = reportPrinter({ progress });
        break;
      case 'propose':
        propose?.onEvent(event.event);
        break;
      case 'attempt':
        // the judge half of validate starts after the attempt half: its bar must not sit under the attempt's
        attempts.get(event.stage)?.onEvent(event.event);
        break;
      case 'judge':
        if (event.event.type === 'start') attempts.get(event.stage)?.stop();
        judges.get(event.stage)?.onEvent(event.event);
        break;
      case 'relabel':
        relabel?.onEvent(event.event);
        break;
      case 'rows':
        rows?.onEvent(event.event);
        break;
      case 'report':
        report?.(event.event);
        break;
      case 'warning':
        process.stderr.write(`warning: ${event.stage}: ${event.message}\n`);
        break;
      case 'stage-skipped':
        process.stdout.write(`(${event.stage}: ${event.reason})\n`);
        break;
      case 'stage-end':
        stopAll();
        process.stdout.write(`${stageLine(event.stage, event.summary as never)}\n`);
        break;
      default:
        break;
    }
  };
  return { onEvent, stop: stopAll };
}

/** One stage's figures in a line, with its wall time. */
export function stageLine<S extends PipelineStage>(stage: S, s: StageSummaries[S]): string {
  return `${stage.padEnd(9)} ${stageText(stage, s)} (${seconds(s.ms)})`;
}

function stageText<S extends PipelineStage>(stage: S, summary: StageSummaries[S]): string {
  switch (stage) {
    case 'propose': {
      const s = summary as StageSummaries['propose'];
      const empty = s.emptySites.length ? `; ${s.emptySites.length} sites got none` : '';
      return `${formatCount(s.tasks)} tasks in the tasks file: ${formatCount(s.proposed)} proposed now (${formatCount(s.info)} info) for ${s.sites - s.resumedSites} sites, ${s.resumedSites} sites already done${empty}`;
    }
    case 'attempt':
      return attemptText(summary as StageSummaries['attempt']);
    case 'judge':
      return judgeText(summary as StageSummaries['judge']);
    case 'validate': {
      const s = summary as StageSummaries['validate'];
      const v = s.score;
      if (!v) return `${s.humanTasks} human tasks: ${attemptText(s.attempt)}; ${judgeText(s.judge)}; scored by the pass without a shard`;
      return (
        `${s.humanTasks} human tasks: ${attemptText(s.attempt)}; ${judgeText(s.judge)}; judge vs verifiers: ` +
        `agreement ${v.agreement.toFixed(3)} ${interval(v.agreement_ci)}, precision ${v.precision.toFixed(3)} ${interval(v.precision_ci)}, ` +
        `recall ${v.recall.toFixed(3)} ${interval(v.recall_ci)} (tp ${v.tp}, fp ${v.fp}, fn ${v.fn}, tn ${v.tn})`
      );
    }
    case 'verifiers': {
      const s = summary as StageSummaries['verifiers'];
      const left = s.unparsed + s.notHolding + s.vacuous + s.loose
        ? `; rejected: ${s.unparsed} replies not a claim, ${s.notHolding} claims that did not hold on their episode, ${s.vacuous} vacuous (hold on an episode that did nothing), ${s.loose} too loose`
        : '';
      const loose = s.looseness.episodes ? `; the verifiers written now pass ${s.looseness.passes} of ${s.looseness.episodes} other tasks' episodes of their site` : '';
      return `${formatCount(s.kept + s.written)} verifiers for ${formatCount(s.successes)} judged successes of ${formatCount(s.tasks)} tasks (${formatCount(s.written)} written now by ${s.model})${left}${loose}${s.errors ? `, ${s.errors} errors` : ''}`;
    }
    case 'relabel': {
      const s = (summary as StageSummaries['relabel']).summary;
      const cost = s.costPerAccepted === null ? '' : `, $${s.costPerAccepted.toFixed(5)} per accepted relabel`;
      return `${formatCount(s.episodes)} failed episodes: ${formatCount(s.proposed)} tasks written, ${formatCount(s.accepted)} accepted (${formatCount(s.acceptedRows)} rows), ${formatCount(s.statuses['claim-failed'] + s.statuses['bad-claim'])} claims did not hold (never judged), ${formatCount(s.statuses.vacuous)} vacuous claims (never judged), ${formatCount(s.statuses['judged-failure'])} judged not successful${cost}`;
    }
    case 'rows': {
      const { report: r, relabeled } = summary as StageSummaries['rows'];
      const before = relabeled.picked ? `; rows before relabel ${formatCount(r.selected_rows - relabeled.rows)}, after ${formatCount(r.selected_rows)} (${formatCount(relabeled.picked)} relabeled episodes, ${formatCount(relabeled.rows)} rows)` : '';
      return `${formatCount(r.selected_trajectories)} of ${formatCount(r.candidates)} judged successes selected: ${formatCount(r.selected_rows)} steps of the ${formatCount(r.budget)} budget (short by ${formatCount(r.short_by)}), ${r.sites} sites${before}`;
    }
    default: {
      const s = summary as StageSummaries['report'];
      return [s.run, s.human].filter(Boolean).join(', ') || 'no run to report';
    }
  }
}

function attemptText(s: StageSummaries['attempt']): string {
  const outcomes = Object.entries(s.outcomes).filter(([, k]) => k > 0).map(([o, k]) => `${o} ${k}`).join(', ');
  const verified = s.verified ? `, verifier passed ${s.verified.passed}/${s.verified.total} (${pct(s.verified.rate)})` : '';
  const failed = s.failed ? `, ${s.failed} could not run` : '';
  return `${formatCount(s.episodes)}/${formatCount(s.tasks)} episodes (${formatCount(s.ran)} run now${failed}), ${formatCount(s.steps)} steps${outcomes ? `, ${outcomes}` : ''}${verified}`;
}

function judgeText(s: StageSummaries['judge']): string {
  const left = s.noVerdict + s.errors;
  return `${formatCount(s.episodes)} judged by ${s.model} (${formatCount(s.judged)} now): ${formatCount(s.success)} SUCCESS (${pct(s.rate)})${left ? `, ${left} left unjudged` : ''}`;
}

/** The final summary: what ran, the figures, tokens and cost, wall time, and where every output is. */
export function formatPipelineSummary(summary: PipelineResult): string {
  const { layout: l, stages } = summary;
  const out = [`\n== summary (${seconds(summary.ms)}, work dir ${l.dir}/)`];
  for (const stage of Object.keys(stages) as PipelineStage[]) out.push(stageLine(stage, stages[stage] as never));
  if (stages.rows) out.push(...labelsLine(stages.rows.labels).split('\n').map((line) => `${'labels'.padEnd(9)} ${line.replace(/^labels: /, '')}`));
  for (const { stage, reason } of summary.skipped) out.push(`${stage.padEnd(9)} not run (${reason})`);
  out.push(...setupLines(stages));
  const relabeled = relabelGain(stages);
  if (relabeled) out.push(relabeled);
  if (stages.rows?.passAtK) out.push(...formatPassAtK(stages.rows.passAtK));
  out.push(formatUsage(summary.usage));
  out.push('outputs:');
  const where: Array<[string, string]> = [
    ['tasks', l.tasks],
    ['run', `${l.run}/  (judge records ${l.runJudge}/)`],
    ['human run', `${l.human}/  (judge records ${l.humanJudge}/)`],
    ['validate', l.validate],
    ['relabel', `${l.run}_relabel/  (judge records ${l.run}_relabel_judge/)`],
    ['rows', `${l.rows}/  (${l.rowsReport})`],
    ['report', `${l.runReport}  ${fileUrl(stages.report?.run ?? l.runReport)}`],
    ['human report', `${l.humanReport}  ${fileUrl(stages.report?.human ?? l.humanReport)}`],
  ];
  for (const [name, file] of where) out.push(`  ${name.padEnd(13)} ${file}`);
  if (!summary.complete) {
    out.push('NOT COMPLETE:', ...summary.incomplete.map((why) => `  ${why}`), ...noVerdictLines(stages), '  run the same command again to finish (what is done is kept)');
  }
  return out.join('\n');
}

// Mixed set-ups: each stage's outputs per set-up, so no figure above credits one model with another's work.
function setupLines(stages: PipelineResult['stages']): string[] {
  const counts: Array<[string, readonly SetupCount[] | undefined, { noun: string; success: string }]> = [
    ['attempt', stages.attempt?.bySetup, { noun: 'episodes', success: 'verified' }],
    ['judge', stages.judge?.bySetup, { noun: 'records', success: 'SUCCESS' }],
    ['validate: attempt', stages.validate?.attempt.bySetup, { noun: 'episodes', success: 'verified' }],
    ['validate: judge', stages.validate?.judge.bySetup, { noun: 'records', success: 'SUCCESS' }],
  ];
  return counts.flatMap(([stage, c, what]) => formatSetupCounts(stage, c ?? [], what)).map((line) => `  ${line}`);
}

// Why the judge gave no verdict, episode by episode: a judge that answers prose is named here, not only counted.
function noVerdictLines(stages: PipelineResult['stages']): string[] {
  const judges: Array<[string, StageSummaries['judge'] | undefined]> = [['judge', stages.judge], ['validate', stages.validate?.judge]];
  return judges.flatMap(([stage, s]) => (s?.noVerdictCauses ?? []).map((c) => `  ${stage}: no verdict for ${c.taskId}: ${c.why}`));
}

// What relabel added: the rows before and after it (per 100 episodes when the run's episodes are known) and what
// an accepted relabel cost, the figures a user weighs relabel by.
function relabelGain(stages: Partial<StageSummaries>): string | null {
  const { relabel, rows, attempt } = stages;
  if (!relabel || !rows) return null;
  const s = relabel.summary;
  const after = rows.report.selected_rows;
  const before = after - rows.relabeled.rows;
  const per100 = (n: number) => (attempt?.episodes ? ` (${((100 * n) / attempt.episodes).toFixed(1)} per 100 episodes)` : '');
  const { proposer, judge } = s.tokens;
  const cost = s.costPerAccepted !== null
    ? `$${s.costPerAccepted.toFixed(5)} per accepted relabel (${proposer.model} and ${judge.model} tokens at the default prices)`
    : s.accepted === 0 ? 'no relabel accepted, so no cost per accepted relabel' : `cost per accepted relabel unknown (no price for ${proposer.model} or ${judge.model})`;
  return `relabel gain: rows ${formatCount(before)}${per100(before)} before relabel, ${formatCount(after)}${per100(after)} after; ${cost}`;
}

function pct(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}

/** Milliseconds as `12.3 s` or `4 min 05 s`. */
export function seconds(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  return `${Math.floor(s / 60)} min ${String(Math.round(s % 60)).padStart(2, '0')} s`;
}
