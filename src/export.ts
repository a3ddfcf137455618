/**
 * Sharing the data (issue 15): `runExport` writes a run as a folder that `datasets.load_dataset(DIR)` and the
 * Hugging Face Hub read as is, with the provenance of every row; `loadSteps`/`loadEpisodes` read it back.
 * Internals live in `src/export/` and `src/rows/provenance.ts`.
 * @module
 */
export {
  runExport,
  loadEpisodes,
  loadSteps,
  type EpisodeRow,
  type ExportEvent,
  type ExportOptions,
  type ExportResult,
  type ImageValue,
  type LoadOptions,
  type StepRow,
} from './export/index';
export { ProvenanceSchema, type Provenance, type Recipe } from './rows/provenance';
