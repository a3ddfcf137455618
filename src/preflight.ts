/** Check before spending: `preflight` and its report (`src/preflight/`). @module */
export { preflight, PreflightError, type PreflightOptions, type PreflightReport } from './preflight/run';
export type { PreflightCheck } from './preflight/checks';
