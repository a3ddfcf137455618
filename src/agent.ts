/**
 * The agent (DESIGN.md §2, the agent adapter): the policies that choose each step's action (Qwen behind an
 * OpenAI-compatible endpoint, scripted), the prompt they see, action parsing, and `serveQwen`. Internals live in
 * `src/agent/`.
 * @module
 */
export { qwenPolicy, qwenModel, type QwenModelOptions, type QwenPolicyBaseOptions, type QwenPolicyEndpointOptions, type QwenPolicyModelOptions, type QwenPolicyOptions } from './agent/qwen-policy';
export { scriptedPolicy, type ScriptFunction, type ScriptedPolicyOptions, type ScriptedStep } from './agent/scripted-policy';
export { serveQwen, DEFAULT_QWEN_MODEL, type QwenServer, type ServeQwenOptions } from './agent/serve-qwen';
export { parseAction, type ParsedAction } from './agent/parse-action';
export type { ImagePosition } from './agent/prompt';
export type { Observation, ObservedElement, Policy, PolicyDecision, PolicyInput, StepRecord } from './agent/types';
