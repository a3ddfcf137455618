/**
 * The contracts of the attempt step (DESIGN.md §5): what a policy sees and returns, and how the server's
 * evidence of an episode is collected.
 * @module
 */
import type { Usage } from '../models/types';
import type { Action, Change, LogEntry, Task } from '../core/schemas';

/** An interactive element of the page, numbered for the agent: `[12] button "Add to cart"`. */
export interface ObservedElement {
  /** The number the agent uses in `click`, `type`, `select`, `check`. */
  readonly index: number;
  /** The ARIA role (`link`, `button`, `textbox`, `searchbox`, `combobox`, `checkbox`, `radio`...). */
  readonly role: string;
  /** The accessible name, whitespace collapsed. */
  readonly name: string;
  /** The element's tag, lower case. */
  readonly tag: string;
  /** A field's current value. */
  readonly value?: string;
  /** A select's option texts. */
  readonly options?: readonly string[];
  /** A checkbox's or radio's state. */
  readonly checked?: boolean;
  /** A link's target path. */
  readonly href?: string;
}

/** What the agent observes before each step. */
export interface Observation {
  /** 0-based step number. */
  readonly step: number;
  readonly url: string;
  readonly title: string;
  readonly elements: readonly ObservedElement[];
  /** The page's visible text, bounded. */
  readonly text: string;
  /** The last action's error, fed back to the policy. */
  readonly error: string | null;
  /** The viewport screenshot (PNG, 1280x800). */
  readonly screenshot: Uint8Array;
  /** The text the model is given (URL, title, elements, text, error); the same text goes into `seen`. */
  readonly prompt: string;
}

/** One finished step, as the policy sees its history. */
export interface StepRecord {
  readonly step: number;
  readonly url: string;
  /** What the policy returned, verbatim. */
  readonly raw: string;
  /** The parsed action; `null` when the reply could not be parsed. */
  readonly action: Action | null;
  /** The parse or execution error of this step, if any. */
  readonly error: string | null;
}

/** What a policy is given at each step. */
export interface PolicyInput {
  readonly task: Task;
  readonly observation: Observation;
  readonly history: readonly StepRecord[];
  readonly step: number;
  readonly maxSteps: number;
  readonly signal?: AbortSignal;
}

/** What a policy returns: its reply text (an action as JSON, possibly wrapped in prose). */
export interface PolicyDecision {
  readonly text: string;
  readonly usage?: Usage;
  /**
   * The exact system and user text the model was given (the user text with `<image>` where the screenshot
   * went), recorded in the training rows so training matches inference. Policies without a model leave it
   * out and rows get the default agent prompt.
   */
  readonly messages?: { readonly system: string; readonly user: string };
}

/** Decides the next action. Implementations must be safe to call for several episodes at once. */
export interface Policy {
  /** `qwen`, `scripted`, `oracle`... */
  readonly name: string;
  /** The model behind it, recorded in `episode.json`. */
  readonly model?: string;
  decide(input: PolicyInput): Promise<PolicyDecision>;
}

/** A request as the browser saw it, for evidence gathered on the browser side. */
export interface BrowserRequest {
  readonly method: string;
  readonly url: string;
  readonly postData: string | null;
  readonly contentType: string | null;
  readonly status: number | null;
}

/** The server's record of one episode's session. */
export interface SessionEvidence {
  readonly log: LogEntry[];
  readonly changes: Change[];
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
  /** Releases the session. */
  close?(): Promise<void>;
}

/** Opens a server session per episode: the sandbox's `/_admin/` evidence, or a browser-side recorder. */
export interface EvidenceProvider {
  open(input: { readonly site: string; readonly taskId: string; readonly baseUrl: string }): Promise<EvidenceSession>;
}
