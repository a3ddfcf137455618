/** Errors about bad input: they name the file, the line and the field. @module */

/** Where a problem was found in an input file. */
export interface InputLocation {
  /** The file's path as the user gave it. */
  file: string;
  /** 1-based line number, for JSONL files. */
  line?: number;
  /** The field's path inside the record, such as `pages.3.path`. */
  field?: string;
}

/** Bad input: a malformed JSONL line, a sitemap without `pages`, a reply that is not JSON. */
export class InputError extends Error {
  /** Always `InputError`. */
  override readonly name = 'InputError';
  /** The file's path as the user gave it. */
  readonly file: string;
  /** 1-based line number, for JSONL files. */
  readonly line: number | undefined;
  /** The field's path inside the record (`pages.3.path`), when known. */
  readonly field: string | undefined;
  /** What is wrong, without the location (the message has both). */
  readonly problem: string;
  constructor(where: InputLocation, problem: string, options?: { cause?: unknown }) {
    super(`${formatLocation(where)}: ${problem}`, options);
    this.file = where.file;
    this.line = where.line;
    this.field = where.field;
    this.problem = problem;
  }
}

/** `file:line: field` as a prefix for messages. */
export function formatLocation(where: InputLocation): string {
  let s = where.file;
  if (where.line !== undefined) s += `:${where.line}`;
  if (where.field) s += `: ${where.field}`;
  return s;
}

/** A short description of any thrown value, for events and records. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
