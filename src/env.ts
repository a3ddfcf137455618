/**
 * The environment server (DESIGN.md §10): tasks, verifiers and the harness served as an OpenEnv environment for
 * reinforcement learning, and a small client. Split into `src/env/`: wire formats, tasks, sessions, recording, the
 * HTTP routes and WebSocket sessions, the client.
 * @module
 */
export { serveEnv, type ServeEnvOptions, type EnvServer, type EnvCloseOptions, type EnvEvent } from './env/server';
export { connectEnv, EnvServerError, type ConnectEnvOptions, type EnvClient } from './env/client';
export {
  ENV_ERROR_CODES,
  type EnvAction,
  type EnvErrorCode,
  type EnvObservation,
  type EnvReset,
  type EnvState,
  type EnvStepResult,
  type RewardSource,
} from './env/protocol';
