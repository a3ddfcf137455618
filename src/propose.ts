/**
 * Step 1, propose: an LLM writes goal-level tasks for each site from its context (the seed's `propose_site` and
 * `cmd_propose`), with the seed's prompts, batches, focus pages, dedup and task ids. Split into `src/propose/`:
 * prompt, one site, the resumable multi-site runner, and reading an existing tasks file.
 * @module
 */
export { SYSTEM_PROPOSE, proposePrompt, type ProposePromptInput } from './propose/prompt';
export { proposeSite, type ProposeEvent, type ProposeSiteOptions } from './propose/site';
export { runPropose, type ProposeOptions, type ProposeResult } from './propose/run';
export { readTasksFile, type TasksFile, type TasksFileEvent } from './propose/file';
