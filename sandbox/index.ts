/**
 * `miniweb-taskgen/sandbox`: a small MiniWeb of our own, for running the pipeline offline. A Node server hosting
 * generated websites under `/sites/<site>/` (templates × data variants, a train/test split), each session with its
 * own copy of the data, evidence under `/_admin/`, sitemaps by crawling, human tasks with verifiers and oracle
 * solutions, and stand-in models (labelled as such) for the offline demo.
 * @example
 * const sandbox = await startSandbox({ port: 0 });
 * const source = sandboxSource({ url: sandbox.url });
 * const evidence = sandboxEvidence({ url: sandbox.url });
 * @packageDocumentation
 */
export { sandboxSetup, type SandboxSetup, type SandboxSetupOptions } from './setup';
export { startSandbox, type SandboxOptions, type SandboxServer } from './server';
export { SiteCatalog, defaultCatalog, type CatalogOptions, type SiteRuntime } from './catalog';
export { sandboxEvidence, type SandboxEvidenceOptions } from './evidence';
export { sandboxSource, writeSitemaps, type SandboxSourceOptions } from './source';
export { replayOracle, type ReplayOptions, type ReplayResult } from './replay';
export { normInstruction, type SandboxTask, type SiteTasks } from './tasks';
export { SESSION_COOKIE, type SessionStoreOptions } from './sessions';
export { SANDBOX_TODAY } from './database';
export { OracleSchema, OracleStepSchema, TargetSchema, resolveTarget, normName, type OracleStep, type Target, type NamedElement } from './oracle';
export { TEMPLATES } from './sites/index';
export type * from './template';
export { Router, type Params, type RouteMatch } from './router';
export { html, raw, attr, SafeHtml, type HtmlValue } from './html';
export * from './layout';
export { addDays, cents, isDate, slugify } from './values';
export { step, answer, request, row, noRow, roundRobin, firstIsHuman } from './task-kit';
export { siteHref, type HrefQuery } from './href';
export { sandboxProposer, type SandboxProposerOptions } from './stand-ins/proposer';
export { oraclePolicy, type OraclePolicyOptions } from './stand-ins/oracle-policy';
export { sandboxJudge, evidenceFromPrompt, pristineTables, type SandboxJudgeOptions } from './stand-ins/judge';
export { STAND_IN_PROVIDER } from './stand-ins/lookup';
export { sandboxVerifierWriter, writerErrorOf, type SandboxVerifierWriterOptions, type WriterError } from './stand-ins/verifier-writer';
export { sandboxRelabeler, type ClaimJson, type SandboxRelabelerOptions } from './stand-ins/relabeler';
