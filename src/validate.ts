/**
 * Step 4, validate: the judge measured against the task verifiers on a human-task run (the seed's `cmd_validate`):
 * agreement, and the precision that matters for training data, P(verifier passes | judge passes), with 95% Wilson
 * intervals, overall, per site and per task kind; and pass@k of a run's tries. Split into `src/validate/`: the scores,
 * the step on a run dir, pass@k.
 * @module
 */
export { formatScore, scoreGroups, scoreJudge, wilsonInterval, type JudgePair, type VerifiedJudgment } from './validate/score';
export { passAtK, passAtKCurve, readPassAtK, PASS_AT_K_INTERVAL, type PassAtKCurve, type PassAtKPoint, type PassAtKReport, type ReadPassAtKOptions, type TrySuccessSource, type TaskTries, type TryOutcome } from './validate/pass-at-k';
export { readVerifierResults, runValidate, type ValidateOptions, type ValidateResult, type ValidateShardResult } from './validate/run';
