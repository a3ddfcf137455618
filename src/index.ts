/**
 * miniweb-taskgen: task-centric web-agent training data. Propose goal-level tasks per site with an LLM, attempt
 * them with a browser agent, judge each episode from screenshots and server evidence, validate the judge
 * against task verifiers, and select the judged successes as training rows.
 * @packageDocumentation
 */
export * from './schemas';
export * from './errors';
export * from './names';
export * from './llm/index';
export * from './fs/index';
export * from './source/index';
export * from './agent/index';
export * from './io';
export * from './py';
export * from './context';
export * from './propose';
export * from './propose-file';
export * from './report/index';
export * from './judge';
export * from './validate';
export * from './rows';
export * from './crawl';
export * from './verify';
export * from './pipeline';

// Judge variants and the judge lab (issue 13)
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
export { judgePromptParts } from './judge/prompt';
export { labDirOf, variantJudgeDir } from './judge/run';
export { readVerifierResults } from './validate';
export { judgeLab, type JudgeLabOptions, type JudgeLabResult, type LabEvent } from './lab/lab';
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
