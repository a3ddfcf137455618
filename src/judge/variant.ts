/**
 * Judge variants: a model plus a judge set-up (system prompt, prompt template, which evidence the prompt shows,
 * how many screenshots and which, votes). The preset `seed` is the seed's judge byte for byte; the others
 * change one thing each, so a lab run (see `runJudgeLab`) measures what that one thing is worth.
 * @module
 */
import path from 'node:path';
import { z } from 'zod';
import { InputError } from '../core/errors';
import { nodeStore } from '../files/node';
import type { FileStore } from '../files/types';
import { parseJsonText, parseWith } from '../core/io';
import { isPlainName } from '../core/names';
import { SYSTEM_JUDGE } from './prompt';

/** The evidence parts a judge prompt may show (the task itself is always shown). */
export const EVIDENCE_PARTS = ['actions', 'answer', 'log', 'changes', 'seen'] as const;
/** One evidence part: the agent's actions, its answer, the server's request log, the data changes, the last screen text. */
export type EvidencePart = (typeof EVIDENCE_PARTS)[number];

/** The placeholders of a prompt template, as in the seed's `PROMPT_JUDGE` (`{n_act}` goes with `{actions}`). */
export const TEMPLATE_FIELDS = ['task', 'n_act', 'actions', 'answer', 'log', 'changes', 'seen'] as const;
/** A placeholder of a prompt template. */
export type TemplateField = (typeof TEMPLATE_FIELDS)[number];

/** A judge set-up with a model. Made by {@link resolveVariant} from a preset name or a {@link JudgeVariantSpec}. */
export interface JudgeVariant {
  /** A plain name: the lab's records go to `<run>_judge/lab/<name>/`. */
  readonly name: string;
  /** What it stands for, in words. */
  readonly description: string;
  /** The judge model's name, when the variant names one (else the caller's model). */
  readonly model?: string;
  /** An OpenAI-compatible server for `model` (vLLM...). */
  readonly endpoint?: string;
  /** The system prompt. */
  readonly system: string;
  /** The prompt template: Python `str.format` fields from {@link TEMPLATE_FIELDS}, `{{`/`}}` for braces. */
  readonly template: string;
  /** The evidence parts the template shows (exactly its placeholders, less `task` and `n_act`). */
  readonly shows: readonly EvidencePart[];
  /** Screenshots sent at most; 0 sends none. Seed: 10. */
  readonly screenshots: number;
  /** Which, when there are more: `seed` (the first quarter, then the end, as the seed) or `last`. */
  readonly pick: 'seed' | 'last';
  /** Judge calls per episode, each with the seed's tries. Seed: 1. */
  readonly votes: number;
  /** How votes combine: SUCCESS by a strict `majority` (a tie is NOT SUCCESS) or only by `unanimity`. */
  readonly combine: 'majority' | 'unanimity';
  /** The sampling temperature. Seed: 0 (votes at 0 are alike; raise it with votes). */
  readonly temperature: number;
}

/** The names of the built-in variants. */
export const PRESET_NAMES = ['seed', 'no-evidence', 'text-only', 'last-3-shots'] as const;
/** A built-in variant's name. */
export type PresetName = (typeof PRESET_NAMES)[number];
/** The default variant: the seed's judge. */
export const DEFAULT_VARIANT: PresetName = 'seed';

const SECTIONS: Record<EvidencePart, string> = {
  actions: "AGENT'S ACTIONS ({n_act}):\n{actions}",
  answer: "AGENT'S FINAL ANSWER: {answer}",
  log: 'SERVER REQUESTS OF THE SESSION (method path, parameters):\n{log}',
  changes: 'DATA CHANGES OF THE SESSION:\n{changes}',
  seen: 'TEXT ON SCREEN AT THE END:\n{seen}',
};
const SHOTS_FOLLOW = 'Screenshots of the episode follow, in order. ';
const ASK =
  'Split the task into its parts and check each against the evidence. Return JSON: {{"parts": [{{"part": "...", ' +
  '"done": true | false, "evidence": "..."}}], "verdict": "SUCCESS" | "NOT SUCCESS"}}';

/**
 * The seed's `PROMPT_JUDGE` cut to the parts shown: its sections in its order, and the line about screenshots
 * only when some are sent. With every part and screenshots it is the seed's template exactly.
 */
export function sectionTemplate(shows: readonly EvidencePart[], withScreenshots: boolean): string {
  const sections = EVIDENCE_PARTS.filter((p) => shows.includes(p)).map((p) => SECTIONS[p]);
  return ['TASK: {task}', ...sections, `${withScreenshots ? SHOTS_FOLLOW : ''}${ASK}`].join('\n\n');
}

/** The seed's `PROMPT_JUDGE`, as a template. */
export const SEED_TEMPLATE = sectionTemplate(EVIDENCE_PARTS, true);

const SERVER_RECORD = "the server's record of what the agent's session did, ";
const SCREENSHOTS = 'and screenshots of the episode (the last one is the final state). ';

/**
 * The seed's system prompt adapted to what the judge is shown: without the server's evidence it is told to judge
 * from the screen (a live-web judge), without screenshots it is not promised any. Unchanged for the full set-up.
 */
export function systemFor(shows: readonly EvidencePart[], withScreenshots: boolean): string {
  let system = SYSTEM_JUDGE;
  if (!withScreenshots) system = system.replace(SCREENSHOTS, 'and the text on screen at the end. ');
  if (!shows.includes('log') && !shows.includes('changes')) {
    system = system
      .replace(SERVER_RECORD, '')
      .replace(
        /The server record is authoritative: .*? with the values the task asks for\. /,
        "You do not see the server's records: judge what was searched, created, edited, deleted, booked, sent or saved from what the screen shows. ",
      );
  }
  return system;
}

function preset(name: PresetName, description: string, shows: readonly EvidencePart[], screenshots: number, pick: 'seed' | 'last'): JudgeVariant {
  return {
    name,
    description,
    system: systemFor(shows, screenshots > 0),
    template: sectionTemplate(shows, screenshots > 0),
    shows,
    screenshots,
    pick,
    votes: 1,
    combine: 'majority',
    temperature: 0,
  };
}

/** The built-in variants, by name. */
export const PRESETS: Readonly<Record<PresetName, JudgeVariant>> = Object.freeze({
  seed: preset('seed', "the seed's judge: every evidence part, 10 screenshots (the first quarter, then the end), 1 vote", EVIDENCE_PARTS, 10, 'seed'),
  'no-evidence': preset(
    'no-evidence',
    "a live-web judge: the screen, the agent's actions and answer only (no request log, no data changes)",
    ['actions', 'answer', 'seen'],
    10,
    'seed',
  ),
  'text-only': preset('text-only', "the seed's prompt without screenshots", EVIDENCE_PARTS, 0, 'seed'),
  'last-3-shots': preset('last-3-shots', "the seed's prompt with only the last 3 screenshots", EVIDENCE_PARTS, 3, 'last'),
});

/** A variant as written in a `.json` file or passed to {@link resolveVariant}: a preset to start from, and changes. */
export const JudgeVariantSpecSchema = z.strictObject({
  name: z.string().refine(isPlainName, 'must be a plain name (letters, digits, ".", "_", "-")'),
  /** The preset it starts from. Default `seed`. */
  base: z.enum(PRESET_NAMES).optional(),
  description: z.string().optional(),
  model: z.string().min(1).optional(),
  endpoint: z.string().url().optional(),
  /** A system prompt (text). */
  system: z.string().min(1).optional(),
  /** A prompt template file, relative to the variant file. */
  prompt: z.string().min(1).optional(),
  /** A prompt template (text); not with `prompt`. */
  template: z.string().min(1).optional(),
  shows: z.array(z.enum(EVIDENCE_PARTS)).optional(),
  screenshots: z.number().int().min(0).max(100).optional(),
  pick: z.enum(['seed', 'last']).optional(),
  votes: z.number().int().min(1).max(25).optional(),
  combine: z.enum(['majority', 'unanimity']).optional(),
  temperature: z.number().min(0).max(2).optional(),
});
/** A variant file's content. */
export type JudgeVariantSpec = z.infer<typeof JudgeVariantSpecSchema>;

/** A template that does not fit its variant: the message names the placeholder. */
export class TemplateError extends Error {
  /** Always `TemplateError`. */
  override readonly name = 'TemplateError';
}

/**
 * The placeholders of a Python `str.format` template, in order (repeats kept). Throws a {@link TemplateError} on
 * a lone `{` or `}`, or a field with a conversion, a format spec or an index (the seed's template has none).
 */
export function templateFields(template: string): string[] {
  const fields: string[] = [];
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if ((c === '{' || c === '}') && template[i + 1] === c) {
      i++;
      continue;
    }
    if (c === '}') throw new TemplateError(`a single '}' at character ${i}: write '}}' for a brace`);
    if (c !== '{') continue;
    const end = template.indexOf('}', i);
    if (end < 0) throw new TemplateError(`a single '{' at character ${i}: write '{{' for a brace`);
    const field = template.slice(i + 1, end);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field)) throw new TemplateError(`placeholder {${field}} is not a plain name (no index, conversion or format spec)`);
    fields.push(field);
    i = end;
  }
  return fields;
}

/** The template filled as Python's `template.format(**values)` fills it (values put in as they are). */
export function fillTemplate(template: string, values: Readonly<Record<string, string | number>>): string {
  templateFields(template); // the same errors as Python, before any output
  return template.replace(/\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, field: string | undefined) => {
    if (m === '{{') return '{';
    if (m === '}}') return '}';
    if (!Object.hasOwn(values, field!)) throw new TemplateError(`no value for placeholder {${field}}`);
    return String(values[field!]);
  });
}

/**
 * Checks that a template's placeholders are exactly those of the parts it shows: `{task}` always, `{n_act}` and
 * `{actions}` for `actions`, `{answer}`, `{log}`, `{changes}`, `{seen}` for theirs. Throws a
 * {@link TemplateError} naming the first unknown, missing or hidden placeholder.
 */
export function checkTemplate(template: string, shows: readonly EvidencePart[]): void {
  const fields = new Set(templateFields(template));
  for (const field of fields) {
    if (!(TEMPLATE_FIELDS as readonly string[]).includes(field)) {
      throw new TemplateError(`unknown placeholder {${field}}: the placeholders are ${TEMPLATE_FIELDS.map((f) => `{${f}}`).join(', ')}`);
    }
  }
  const wanted: TemplateField[] = ['task', ...shows.flatMap((p): TemplateField[] => (p === 'actions' ? ['n_act', 'actions'] : [p]))];
  for (const field of wanted) {
    if (!fields.has(field)) throw new TemplateError(`missing placeholder {${field}}${field === 'task' ? '' : `: the variant shows ${field === 'n_act' ? 'actions' : field}`}`);
  }
  for (const field of fields) {
    if (!(wanted as string[]).includes(field)) {
      const part = field === 'n_act' ? 'actions' : field;
      throw new TemplateError(`placeholder {${field}} shows ${part}, which the variant hides (add "${part}" to shows, or drop the placeholder)`);
    }
  }
}

/** Options of {@link resolveVariant}. */
export interface ResolveVariantOptions {
  /** Where template files are read. Default the local disk. */
  readonly store?: FileStore;
  /** The dir `prompt` paths are relative to (the variant file's). Default the working dir. */
  readonly dir?: string;
  /** The file the spec came from, for error messages. */
  readonly file?: string;
}

/**
 * A full variant from a preset name or a spec (a preset with changes, named apart from the presets). A spec's template is checked
 * ({@link checkTemplate}); a bad one throws an {@link InputError} naming the file and the placeholder.
 * @example
 * const v = await resolveVariant({ name: 'flash-lite-3-votes', model: 'gemini-2.5-flash-lite', votes: 3, temperature: 1 });
 */
export async function resolveVariant(
  variant: PresetName | JudgeVariantSpec,
  options: ResolveVariantOptions = {},
): Promise<JudgeVariant> {
  if (typeof variant === 'string') {
    if (!(PRESET_NAMES as readonly string[]).includes(variant)) throw new Error(`no judge variant named ${JSON.stringify(variant)}: the presets are ${PRESET_NAMES.join(', ')}`);
    return PRESETS[variant];
  }
  if ((PRESET_NAMES as readonly string[]).includes(variant.name)) {
    throw new InputError({ file: options.file ?? `judge variant ${variant.name}`, field: 'name' }, `${variant.name} is a preset's name: give the variant a name of its own`);
  }
  const where = options.file ?? `judge variant ${String((variant as { name?: unknown }).name)}`;
  const spec = parseWith(JudgeVariantSpecSchema, variant, { file: where });
  const base = PRESETS[spec.base ?? DEFAULT_VARIANT];
  const shows = spec.shows ? EVIDENCE_PARTS.filter((p) => spec.shows!.includes(p)) : base.shows;
  const screenshots = spec.screenshots ?? base.screenshots;
  if (spec.prompt && spec.template) throw new InputError({ file: where, field: 'prompt' }, 'give prompt (a file) or template (text), not both');
  let template = spec.template;
  if (spec.prompt) {
    const store = options.store ?? nodeStore();
    const file = path.resolve(options.dir ?? '.', spec.prompt);
    if (!(await store.exists(file))) throw new InputError({ file: where, field: 'prompt' }, `no such template file: ${file}`);
    template = await store.readText(file);
  }
  template ??= spec.shows || spec.screenshots !== undefined ? sectionTemplate(shows, screenshots > 0) : base.template;
  checkOrThrow(template, shows, { file: where, field: spec.prompt ? 'prompt' : 'template' });
  return {
    name: spec.name,
    description: spec.description ?? describeChanges(base.name, spec),
    ...(spec.model ? { model: spec.model } : {}),
    ...(spec.endpoint ? { endpoint: spec.endpoint } : {}),
    system: spec.system ?? (spec.shows || spec.screenshots !== undefined ? systemFor(shows, screenshots > 0) : base.system),
    template,
    shows,
    screenshots,
    pick: spec.pick ?? base.pick,
    votes: spec.votes ?? base.votes,
    combine: spec.combine ?? base.combine,
    temperature: spec.temperature ?? base.temperature,
  };
}

// `seed, votes 3, temperature 1`: the base and what the spec changes, for a variant without a description.
function describeChanges(base: string, spec: JudgeVariantSpec): string {
  const keys = ['model', 'shows', 'screenshots', 'pick', 'votes', 'combine', 'temperature'] as const;
  const changes = keys.filter((k) => spec[k] !== undefined).map((k) => `${k} ${Array.isArray(spec[k]) ? (spec[k] as string[]).join('+') : String(spec[k])}`);
  if (spec.prompt ?? spec.template) changes.push('own prompt');
  if (spec.system) changes.push('own system prompt');
  return [base, ...changes].join(', ');
}

function checkOrThrow(template: string, shows: readonly EvidencePart[], where: { file: string; field: string }): void {
  try {
    checkTemplate(template, shows);
  } catch (error) {
    if (error instanceof TemplateError) throw new InputError(where, error.message, { cause: error });
    throw error;
  }
}

/**
 * A variant from a preset name or a `.json` variant file ({@link JudgeVariantSpecSchema}; a `prompt` file in it is
 * read relative to it), as the CLI's `--variant NAME|FILE.json` takes it.
 */
export async function loadVariant(nameOrFile: string, options: { readonly store?: FileStore } = {}): Promise<JudgeVariant> {
  if (!nameOrFile.endsWith('.json')) return resolveVariant(nameOrFile as PresetName);
  const store = options.store ?? nodeStore();
  if (!(await store.exists(nameOrFile))) throw new InputError({ file: nameOrFile }, 'no such judge variant file');
  const spec = parseJsonText(await store.readText(nameOrFile), { file: nameOrFile });
  return resolveVariant(parseWith(JudgeVariantSpecSchema, spec, { file: nameOrFile }), { store, dir: path.dirname(nameOrFile), file: nameOrFile });
}

/** True for the seed's judge (no variant, or the `seed` preset): its records are the seed's, in `<run>_judge`. */
export function isSeedJudge(variant: JudgeVariant | undefined): boolean {
  return variant === undefined || variant.name === DEFAULT_VARIANT;
}
