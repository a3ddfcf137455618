/** Hugging Face–ready export (issue 15): the run as Parquet shards with provenance and a dataset card. @module */
export { runExport, type ExportEvent, type ExportOptions, type ExportResult } from './dataset';
export {
  EPISODE_FEATURES,
  STEP_FEATURES,
  featuresToDict,
  featuresToYaml,
  huggingfaceMetadata,
  parquetSchema,
  type Feature,
  type Features,
  type SchemaElement,
} from './features';
export { loadEpisodes, loadSteps, shardFiles, type EpisodeRow, type ImageValue, type LoadOptions, type StepRow } from './load';
export { shardName } from './parquet';
