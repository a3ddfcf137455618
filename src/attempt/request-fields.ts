/**
 * The request fields of a log entry (`path`, `query`, a form `body`), read the same way by the browser-side
 * evidence and by the sandbox server, so the two logs of one request never drift apart.
 * @module
 */

/** A request's fields by name: one value as a string, a repeated name as the list of its values. */
export type RequestFields = Record<string, string | string[]>;

/** Adds `value` under `name`: the first value as a string, later ones turning it into a list, in order. */
export function addField(fields: RequestFields, name: string, value: string): void {
  const prev = fields[name];
  fields[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
}

/** Query or urlencoded-form parameters as fields; a repeated name keeps all its values in a list. */
export function paramsObject(params: URLSearchParams): RequestFields {
  const out: RequestFields = {};
  for (const [k, v] of params) addField(out, k, v);
  return out;
}

/** A URL path percent-decoded for the log; the raw path when it is not valid percent-encoding. */
export function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
