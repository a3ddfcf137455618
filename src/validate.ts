/**
 * Step 4, validate: the judge measured against the task verifiers on a human-task run (the seed's `cmd_validate`):
 * agreement, and the precision that matters for training data, P(verifier passes | judge passes), with 95% Wilson
 * intervals, overall, per site and per task kind. Split into `src/validate/`: the scores, and the step on a run dir.
 * @module
 */
export { formatScore, scoreGroups, scoreJudge, wilsonInterval, type JudgePair, type VerifiedJudgment } from './validate/score';
export { readVerifierResults, runValidate, type ValidateOptions, type ValidateResult, type ValidateShardResult } from './validate/run';
