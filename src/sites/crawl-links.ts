/**
 * Which links a crawl must not request: those that log out or destroy. A GET of a site's `logout` link logs the
 * crawl's session out (on MiniWeb `banking` for good), and a GET of a `delete` or `reset` link may change data, so
 * the crawler judges every link before it requests it.
 *
 * The rule: a link is refused when a term below appears, case-insensitively, as whole tokens
 * - of its path below the home prefix, each segment split on `-`, `_`, `.` and camelCase (`/sign-out`,
 *   `/log_out`, `/deleteAccount`, `/close-account`), or a segment is a platform route (`_admin`, `_reset...`)
 *   or an API's (`api`: `/api/...` endpoints answer scripts, not people, and some of them write);
 * - of its query's names and values, split the same way (`?action=logout`);
 * - of the words of its visible text, `aria-label` or `title` ("Log out", "Sign Out", "Delete issue").
 *
 * The terms: logout, log out, signout, sign out, logoff, log off, signoff, sign off, delete, remove, destroy, erase,
 * purge, wipe, reset, clear, unsubscribe, deactivate, revoke, close account. A term of two words matches two tokens
 * in a row, so `close` alone (a dialog's close link) and `cancel` (MiniWeb's cancel links open a confirmation form)
 * are crawled. Whole tokens only: `/cleared-items` and "Removals" are crawled.
 * @module
 */

/** Terms as their tokens; a term matches when its tokens appear in a row. */
const TERMS: readonly (readonly string[])[] = [
  ['logout'], ['log', 'out'], ['signout'], ['sign', 'out'], ['logoff'], ['log', 'off'], ['signoff'], ['sign', 'off'],
  ['delete'], ['remove'], ['destroy'], ['erase'], ['purge'], ['wipe'], ['reset'], ['clear'],
  ['unsubscribe'], ['deactivate'], ['revoke'], ['close', 'account'], ['closeaccount'],
];

/** Path segments of routes that are never pages: the platform's (MiniWeb's `/_admin/...`, `/_reset_data`), an API's. */
const PLATFORM_SEGMENT = /^(_admin|_reset|api$)/i;

/** The tokens of a path segment, a query part or a text: split on `-`, `_`, `.`, `/`, spaces and camelCase, lower-cased. */
function tokens(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The first term found in `words`, as written with spaces; `null` when none. */
function termIn(words: readonly string[]): string | null {
  for (const term of TERMS) {
    for (let i = 0; i + term.length <= words.length; i++) {
      if (term.every((t, k) => words[i + k] === t)) return term.join(' ');
    }
  }
  return null;
}

/** What a link shows: its visible text, `aria-label` and `title`. */
export interface LinkLabel {
  readonly text?: string;
  readonly ariaLabel?: string;
  readonly title?: string;
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

/**
 * Why a link must not be requested (`path has "log out"`, `text has "delete"`), or `null` when it may be.
 * @param url - the link's target
 * @param prefix - the home prefix (`/sites/forums/`): only the path below it is judged, so a site's own id is not
 * @param label - the link's visible text, `aria-label` and `title`
 */
export function refusedLink(url: URL, prefix: string, label: LinkLabel = {}): string | null {
  const rest = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
  const segments = rest.split('/').map(decoded);
  const platform = segments.find((s) => PLATFORM_SEGMENT.test(s));
  if (platform) return `path has "${platform}", a route that is not a page`;
  const inPath = termIn(segments.flatMap(tokens));
  if (inPath) return `path has "${inPath}"`;
  for (const [key, value] of url.searchParams) {
    const inQuery = termIn(tokens(key)) ?? termIn(tokens(value));
    if (inQuery) return `query has "${inQuery}"`;
  }
  const shown: Array<[string, string | undefined]> = [['text', label.text], ['aria-label', label.ariaLabel], ['title', label.title]];
  for (const [what, value] of shown) {
    const inLabel = value ? termIn(tokens(value)) : null;
    if (inLabel) return `${what} has "${inLabel}"`;
  }
  return null;
}
