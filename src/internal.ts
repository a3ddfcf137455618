/**
 * The sandbox's window on the library's internals: parsers and escaping it must share with the library so that the sandbox
 * server, its oracle and the browser evidence read requests and pages exactly alike. Not part of the public API
 * (`src/index.ts`) and not a package entry: only `sandbox/` may import it (checked by `npm run lint`).
 * @module
 */
export { paramsObject, safeDecode } from './agent/request-fields';
export { collapse, parseHtml, scanElements, type StaticElement } from './crawl/elements';
export { ZERO_USAGE } from './llm/types';
export { escapeHtml } from './report/html';
export { cpSlice } from './py/text';
