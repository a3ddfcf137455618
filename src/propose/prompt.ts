/**
 * The proposer's prompts: the seed's `SYSTEM_PROPOSE` and `PROMPT_PROPOSE`, byte for byte.
 * @module
 */
/** The proposer's system prompt, as the seed's `SYSTEM_PROPOSE`. */
export const SYSTEM_PROPOSE =
  'You write tasks for training a web agent, the way InSTA proposes tasks for real websites: realistic goals ' +
  'that a real user of this website would have. You see one website: its pages, its controls, and the text of its main pages.';

/** The values {@link proposePrompt} fills in (the seed's `PROMPT_PROPOSE.format` arguments). */
export interface ProposePromptInput {
  /** The site's name (the sitemap's `name`, else the site), on the `WEBSITE:` line. */
  readonly name: string;
  /** The site's home path; the prompt says every page is under it. */
  readonly home: string;
  /** The site context text ({@link SiteContext.text}). */
  readonly context: string;
  /** Tasks asked for. */
  readonly n: number;
  /** Of which information tasks (`round(n * 0.4)` in the seed). */
  readonly nInfo: number;
  /** Of which action tasks (`n - nInfo`). */
  readonly nAct: number;
  /** The focus line. */
  readonly focus: string;
  /** Earlier instructions to avoid, `; `-joined, or `(none yet)`. */
  readonly avoid: string;
}

/** The seed's `PROMPT_PROPOSE.format(...)`, byte for byte. */
export function proposePrompt(p: ProposePromptInput): string {
  return `WEBSITE: ${p.name} (all pages under ${p.home})

${p.context}

Write ${p.n} new tasks for this website. Rules:
- Each task is ONE natural instruction stating the user's goal, the way a person would ask for it ("Find ...", \
"Book ...", "Change my ...", "What is ..."), never click-by-click steps.
- Every task starts on the home page (${p.home}), as a visitor arriving at the site would, and is doable on this \
website alone in about 3 to 10 browser actions from there. Use real names, values and items that appear above; never \
invent items that are not on the site.
- Mix: about ${p.nInfo} information tasks (the answer is a specific fact the site shows; say what to report, e.g. \
"report the price") and ${p.nAct} tasks that do something (search, filter, sort, create, edit, delete, book, buy, send, \
share, save, configure, ...), some of them combining two or three of these.
- ${p.focus}
- The user is already logged in. No passwords, no other websites, no files the user would have to provide.
- Do not repeat these earlier tasks: ${p.avoid}

Return JSON: {"tasks": [{"instruction": "...", "kind": "info" | "action"}]}`;
}
