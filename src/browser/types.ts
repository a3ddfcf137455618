/**
 * What the browser harness reports of an episode's page, beside the observation it hands the agent.
 * @module
 */

/** A request as the browser saw it, for evidence gathered on the browser side. */
export interface BrowserRequest {
  /** The HTTP method, `GET`, `POST`... */
  readonly method: string;
  /** The full URL (requests to the episode's origin only). */
  readonly url: string;
  /** The request body as text; `null` when there is none. */
  readonly postData: string | null;
  /** The request's `content-type` header; `null` when absent. */
  readonly contentType: string | null;
  /** The response's HTTP status; `null` when the request failed or never finished. */
  readonly status: number | null;
}
