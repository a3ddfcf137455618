/**
 * Relabeling failed episodes: the tasks an episode did complete, written by the proposer model with a claim each,
 * the claim checked on the server's evidence step by step, the episode cut where it holds, and the cut episode
 * judged by the seed's judge against the new instruction. Split into `src/relabel/`: prompt, reply, rows
 * rendering, the cut episode, one parent, a run.
 * @module
 */
export { runRelabel, type RelabelEvent, type RelabelOptions, type RelabelResult, type RelabelSummary, type RelabelTokens } from './relabel/run';
export { type RelabelParent, type RelabelProposal, type RelabelStatus } from './relabel/record';
export { relabelPrompt, SYSTEM_RELABEL, type RelabelPromptInput } from './relabel/prompt';
