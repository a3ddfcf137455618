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

// Issue 15: Hugging Face–ready export with per-row provenance and a dataset card.
export {
  DEFAULT_JUDGE_VARIANT,
  JUDGE_PROMPT_SHA256,
  LIBRARY,
  PROVENANCE_FIELDS,
  ProvenanceSchema,
  provenanceFileOf,
  readEpisodeProvenance,
  type EpisodeProvenanceInput,
  type Provenance,
  type ProvenancedEpisode,
  type Recipe,
} from './provenance';
export {
  EPISODE_FEATURES,
  STEP_FEATURES,
  exportDataset,
  featuresToDict,
  featuresToYaml,
  huggingfaceMetadata,
  loadEpisodes,
  loadSteps,
  parquetSchema,
  shardFiles,
  shardName,
  type EpisodeRecord,
  type ExportEvent,
  type ExportOptions,
  type ExportResult,
  type Feature,
  type Features,
  type ImageValue,
  type LoadOptions,
  type SchemaElement,
  type StepRecord,
} from './export/index';
