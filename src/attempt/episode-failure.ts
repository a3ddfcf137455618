/**
 * How an episode ends without a record: a failure outside the agent (its model, the site's server, the evidence), or
 * the episode's own time limit.
 * @module
 */

/**
 * An episode that could not be run for reasons outside it (the policy's model failed or ran past the episode's
 * time limit, the site's server or its evidence endpoint is down or answered 5xx): nothing is recorded, so a rerun
 * tries it again. A recorded episode is always the agent's own behaviour.
 */
export class EpisodeFailure extends Error {
  override readonly name = 'EpisodeFailure';
}

/**
 * An {@link EpisodeFailure} whose cause is a server that stopped answering (refused or dropped connections): its
 * message is that cause and what to do (`the site server at 127.0.0.1:8000 stopped answering (ECONNREFUSED) during
 * evidence: start it again ...`), never the raw error chain, which stays in `cause`.
 */
export class ServerStoppedFailure extends EpisodeFailure {
  /** What to do about it, also the end of the message. */
  readonly hint: string;
  constructor(message: string, hint: string, options?: { cause?: unknown }) {
    super(message, options);
    this.hint = hint;
  }
}

/** The episode's own time limit passed (the abort reason of its timer). */
export class EpisodeTimeout extends Error {}
