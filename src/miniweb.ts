/**
 * MiniWeb, the platform the pipeline runs on: evidence from its own record (its request log, its session overlay of
 * data changes, its recorder), read through its routes and its SQLite file.
 * @module
 */
export { miniwebEvidence, type MiniwebEvidenceOptions } from './miniweb/evidence';
