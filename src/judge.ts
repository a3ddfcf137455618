/**
 * The judge (DESIGN.md §3, step 3): each episode judged from its screenshots and the server's evidence, with
 * the seed's prompt byte for byte. Split into `src/judge/`: formatting, prompt, screenshots, one episode, a run.
 * @module
 */
export { EvidenceError, SKIP_PATH, formatActions, formatAnswer, formatChanges, formatLog, lastSeen } from './judge/format';
export * from './judge/prompt';
export * from './judge/screenshots';
export * from './judge/episode';
export * from './judge/run';
