/**
 * The agent's contracts (DESIGN.md §5): what a policy sees before each step and what it returns.
 * @module
 */
import type { Usage } from '../models/types';
import type { Action, Task } from '../core/schemas';

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
  /** The page's path, query and hash (the full URL for a non-http page). */
  readonly url: string;
  /** The document title. */
  readonly title: string;
  /** The page's interactive elements, numbered from 1 as the agent names them. */
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
  /** 0-based step number. */
  readonly step: number;
  /** The page's path, query and hash when the step was observed. */
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
  /** The task being attempted. */
  readonly task: Task;
  /** What the agent sees now. */
  readonly observation: Observation;
  /** The episode's earlier steps, oldest first. */
  readonly history: readonly StepRecord[];
  /** 0-based number of this step. */
  readonly step: number;
  /** The episode's step limit. */
  readonly maxSteps: number;
  /**
   * Fires when the episode is aborted; pass it on to the model call. The episode's time limit does not fire it: a
   * call in flight then ends on its own, so that a failing model is told from an agent out of time.
   */
  readonly signal?: AbortSignal;
}

/** What a policy returns: its reply text (an action as JSON, possibly wrapped in prose). */
export interface PolicyDecision {
  /** The reply text, parsed into an action by the attempt step. */
  readonly text: string;
  /** Tokens this decision used, added to the episode's usage; absent for a policy without a model. */
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
  /** The API root of its model, when it has one: recorded in the run's set-up. */
  readonly endpoint?: string;
  /**
   * How it samples, recorded in the run's set-up (`sampling`): a temperature, a seed... Absent for a policy whose
   * replies are set (greedy, scripted), so such a run's set-up is what it always was.
   */
  readonly sampling?: Readonly<Record<string, number | string | null>>;
  /**
   * The policy of try `n` (2 and up) of a run with several tries per task (`runAttempt`'s `attempts`): its own seed,
   * so tries differ. Try 1 is the policy itself. Absent: every try uses this policy as it is.
   */
  forTry?(n: number): Policy;
  /** The reply for this step. A rejection ends the episode unrecorded (a rerun tries it again). */
  decide(input: PolicyInput): Promise<PolicyDecision>;
}
