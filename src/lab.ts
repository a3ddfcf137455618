/**
 * Choosing a judge (issue 13): judge variants (a model plus a judge set-up; presets `seed`, `no-evidence`,
 * `text-only`, `last-3-shots`) and the judge lab that measures them against the verifiers and against each other.
 * @module
 */
export {
  DEFAULT_VARIANT,
  EVIDENCE_PARTS,
  JudgeVariantSpecSchema,
  PRESETS,
  PRESET_NAMES,
  SEED_TEMPLATE,
  TEMPLATE_FIELDS,
  TemplateError,
  checkTemplate,
  fillTemplate,
  isSeedJudge,
  loadVariant,
  resolveVariant,
  sectionTemplate,
  systemFor,
  templateFields,
  type EvidencePart,
  type JudgeVariant,
  type JudgeVariantSpec,
  type PresetName,
  type ResolveVariantOptions,
  type TemplateField,
} from './judge/variant';
export { combineVotes } from './judge/episode';
export { judgePromptParts, type JudgePromptParts } from './judge/prompt';
export { labDirOf, variantJudgeDir } from './judge/run';
export { readVerifierResults, wilsonInterval } from './validate';
export { runJudgeLab, type JudgeLabOptions, type JudgeLabResult, type LabEvent } from './lab/lab';
export { comparePaired, mcnemarExact, type PairedComparison, type PairedVerdicts } from './lab/stats';
export { formatLab } from './lab/format';
export { formatP, renderLabHtml } from './lab/html';
export {
  LabComparisonSchema,
  LabDisagreementSchema,
  LabReportSchema,
  LabScoreSchema,
  LabUsageSchema,
  LabVariantSchema,
  type LabComparison,
  type LabDisagreement,
  type LabReport,
  type LabScore,
  type LabUsage,
  type LabVariant,
} from './lab/types';
