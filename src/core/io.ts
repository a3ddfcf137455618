/**
 * Reading the pipeline's JSON and JSONL files through a {@link FileStore}: parsed as Python parses them
 * (`parsePyJson`), checked with their zod schema, and every problem reported as `file:line: field: problem`.
 * @module
 */
import type { z } from 'zod';
import { InputError, type InputLocation } from './errors';
import { isNotFound, namedIsDirectory, readTextIfExists, type FileStore } from '../files/types';
import { PyJsonError, parsePyJson } from './py/json';
import { pyIsBlank } from './py/text';

/** A problem with one line of a JSONL file that did not stop the read. */
export interface JsonlIssue {
  /** The file's path as given. */
  readonly file: string;
  /** 1-based line number. */
  readonly line: number;
  /** What is wrong with the line. */
  readonly problem: string;
  /** The last line, without its newline, did not parse: a write cut short by a crash. */
  readonly torn: boolean;
}

/** Options of {@link readJsonl}. */
export interface ReadJsonlOptions {
  /** Called for each line skipped (a torn last line). */
  readonly onIssue?: (issue: JsonlIssue) => void;
  /** A missing file reads as empty instead of failing. Default false. */
  readonly missingOk?: boolean;
  /**
   * Every bad line (not JSON, or not of the schema) is reported through `onIssue` and skipped instead of failing
   * the read: the report's reading, where one damaged line must not hide the rest of a run. Default false.
   */
  readonly lenient?: boolean;
  /** Called with the line number of each value returned, in order (to name a line found wrong later). */
  readonly onLine?: (line: number) => void;
}

/** Validates `value` with `schema`; a failure throws an {@link InputError} naming the first bad field. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: InputLocation): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.map(String).join('.') || where.field;
  throw new InputError({ ...where, field: field || undefined }, issue.message);
}

/**
 * Parses a JSON file's text into `schema` with Python's floats (`1.0` in the figures validate writes, which
 * {@link parseJsonText} keeps as PyFloat) as plain numbers: for figures the library reads, not data it writes back.
 */
export function parseJsonAs<S extends z.ZodType>(schema: S, text: string, where: InputLocation): z.output<S> {
  return parseWith(schema, JSON.parse(JSON.stringify(parseJsonText(text, where))) as unknown, where);
}

/**
 * Parses JSON text as Python would; a syntax error throws an {@link InputError} with the line. A UTF-8 BOM at the
 * start of a file (a whole document, or its first line) is skipped, as Python's `utf-8-sig` reading does: a file
 * written by a Windows tool or `open(..., encoding="utf-8-sig")` is read, not refused.
 */
export function parseJsonText(text: string, where: InputLocation): unknown {
  const bom = text.charCodeAt(0) === 0xfeff && (where.line === undefined || where.line === 1);
  try {
    return parsePyJson(bom ? text.slice(1) : text);
  } catch (error) {
    if (error instanceof PyJsonError) {
      const line = where.line ?? error.lineno;
      const column = where.line === undefined ? `column ${error.colno}: ` : '';
      throw new InputError({ ...where, line }, `${column}not valid JSON: ${error.problem}`, { cause: error });
    }
    throw error;
  }
}

/** Reads and validates a JSON file. */
export async function readJsonFile<S extends z.ZodType>(store: FileStore, file: string, schema: S): Promise<z.output<S>> {
  const text = await store.readText(file);
  return parseWith(schema, parseJsonText(text, { file }), { file });
}

/** {@link readJsonFile}, or `null` when the file does not exist (one read: no race with a separate check). */
export async function readJsonFileIfExists<S extends z.ZodType>(
  store: FileStore,
  file: string,
  schema: S,
): Promise<z.output<S> | null> {
  const text = await readTextIfExists(store, file);
  return text === null ? null : parseWith(schema, parseJsonText(text, { file }), { file });
}

/**
 * Reads a JSONL file: blank lines skipped (as the seed's `if l.strip()`), each line parsed and validated.
 * A bad line throws an {@link InputError} (`file:line: field: problem`), except a torn last line (no final
 * newline, a crash mid-write), which is reported through `onIssue` and skipped; with `lenient`, every bad line
 * is reported and skipped.
 */
export async function readJsonl<S extends z.ZodType>(
  store: FileStore,
  file: string,
  schema: S,
  options: ReadJsonlOptions = {},
): Promise<Array<z.output<S>>> {
  const bytes = options.missingOk ? await readBytesIfExists(store, file) : await store.readBytes(file);
  return bytes === null ? [] : parseJsonl(decodeUtf8Lines(bytes, file, options), file, schema, options);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const NOT_UTF8 = 'bytes that are not UTF-8 (an instruction would get U+FFFD in their place): save the file as UTF-8';

/**
 * The text of a JSONL file whose every line must be UTF-8, as Python's `open()` reads it: a line that is not is an
 * {@link InputError} naming it (reported and left out as a blank line when `lenient`, or when it is the torn last
 * line, a crash mid-character), never decoded to U+FFFD.
 */
function decodeUtf8Lines(bytes: Uint8Array, file: string, options: Pick<ReadJsonlOptions, 'onIssue' | 'lenient'>): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    // named below, line by line
  }
  const lines: string[] = [];
  for (let start = 0, line = 1; start <= bytes.length; line++) {
    const end = bytes.indexOf(0x0a, start);
    const torn = end < 0;
    try {
      lines.push(UTF8.decode(bytes.subarray(start, torn ? bytes.length : end)));
    } catch {
      if (!options.lenient && !torn) throw new InputError({ file, line }, NOT_UTF8);
      options.onIssue?.({ file, line, problem: torn ? 'torn last line (no newline, not UTF-8): skipped' : `${NOT_UTF8}: skipped`, torn });
      lines.push('');
    }
    if (torn) break;
    start = end + 1;
  }
  return lines.join('\n');
}

async function readBytesIfExists(store: FileStore, file: string): Promise<Uint8Array | null> {
  try {
    return await store.readBytes(file);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw namedIsDirectory(error, file);
  }
}

/** {@link readJsonl} on text already read. */
export function parseJsonl<S extends z.ZodType>(
  text: string,
  file: string,
  schema: S,
  options: Pick<ReadJsonlOptions, 'onIssue' | 'lenient' | 'onLine'> = {},
): Array<z.output<S>> {
  const lines = text.split('\n');
  const out: Array<z.output<S>> = [];
  lines.forEach((line, i) => {
    if (pyIsBlank(line)) return;
    const where = { file, line: i + 1 };
    const torn = i === lines.length - 1; // no newline after it
    let value: unknown;
    try {
      value = parseJsonText(line, where);
    } catch (error) {
      if (!(error instanceof InputError) || !(torn || options.lenient)) throw error;
      const problem = torn ? 'torn last line (no newline, not valid JSON)' : error.problem;
      options.onIssue?.({ file, line: i + 1, problem: `${problem}: skipped`, torn });
      return;
    }
    try {
      out.push(parseWith(schema, value, where));
      options.onLine?.(i + 1);
    } catch (error) {
      if (!(error instanceof InputError) || !options.lenient) throw error;
      const field = error.field ? `${error.field}: ` : '';
      options.onIssue?.({ file: error.file, line: error.line ?? i + 1, problem: `${field}${error.problem}: skipped`, torn: false });
    }
  });
  return out;
}
