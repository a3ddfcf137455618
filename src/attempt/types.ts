/**
 * How the server's evidence of an episode is collected (DESIGN.md §5): one session per episode.
 * @module
 */
import type { Change, LogEntry } from '../core/schemas';
import type { BrowserRequest } from '../browser/types';
import type { Consequence } from '../claims/schema';

/** The server's record of one episode's session. */
export interface SessionEvidence {
  /** The session's requests, in order, as the server logged them. */
  readonly log: LogEntry[];
  /** The data changes the session made, in order. */
  readonly changes: Change[];
  /**
   * The site's own record of what the user did, where it keeps one (MiniWeb's recorder: `/_admin/record` and
   * `/_admin/beacon` entries), for checks such as MiniWeb's `action_included`. Absent: the server keeps none.
   */
  readonly record?: SiteRecord;
}

/** A site's own record of the user's actions and observations (MiniWeb's recorder stream and beacons). */
export interface SiteRecord {
  /** The recorder's entries (`{type: "action" | "observation", ...}`), in order. */
  readonly records: readonly Record<string, unknown>[];
  /** The beacons (`{action, target, ...}`), in order. */
  readonly beacons: readonly Record<string, unknown>[];
}

/** One episode's server session. */
export interface EvidenceSession {
  /** Cookies the episode's browser context must carry so the server ties its requests to this session. */
  readonly cookies: ReadonlyArray<{ readonly name: string; readonly value: string; readonly url: string }>;
  /** Called with each finished request of the episode (for evidence recorded on the browser side). */
  onRequest?(request: BrowserRequest): void;
  /** The request log and data changes so far. */
  collect(): Promise<SessionEvidence>;
  /** The rows of a table now, for state checks; absent when the server cannot tell. */
  state?(table: string): Promise<Record<string, unknown>[]>;
  /**
   * Every table the server can read, with its rows as the session sees them now; called once before the episode's
   * first action, it records the start rows (`start_rows.json`) that `state` claims read. Absent when the server
   * cannot tell (then no start rows are recorded).
   */
  startRows?(): Promise<Record<string, Record<string, unknown>[]>>;
  /**
   * What the site declares it does by itself as a consequence of a task's changes (timestamps, counters, derived
   * rows), recorded beside the start rows; a change outside the task's footprint and these fails the episode.
   * Absent: the site declares none.
   */
  consequences?(): Promise<readonly Consequence[]>;
  /**
   * Paths outside the site's prefix that the episode may be on, as the server declares them: exact paths
   * (`/verify-payment`) or prefixes ending in `/` (`/sites/email/`, where a payment code is mailed). Absent: none.
   */
  readonly reachable?: readonly string[];
  /**
   * Paths outside the site that the site's own pages POST to by themselves (MiniWeb's recorder, `/_admin/record`):
   * let through from the page's scripts, never as a navigation; never the agent's error. Absent: none.
   */
  readonly pagePosts?: readonly string[];
  /** Releases the session. */
  close?(): Promise<void>;
}

/** Opens a server session per episode: the sandbox's `/_admin/` evidence, or a browser-side recorder. */
export interface EvidenceProvider {
  /** Opens the server session of one episode: task `taskId` on `site`, served at `baseUrl`. */
  open(input: { readonly site: string; readonly taskId: string; readonly baseUrl: string }): Promise<EvidenceSession>;
  /**
   * Checks, before anything is spent, that the server can give this evidence for these sites: resolves with what
   * was found, or rejects saying what is wrong (an error with a `hint` says what to do). Absent: nothing to check.
   */
  check?(input: { readonly baseUrl: string; readonly sites: readonly string[] }): Promise<string>;
}
