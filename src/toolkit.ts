/**
 * `miniweb-taskgen/toolkit`: building blocks for your own stand-in sites and models, the ones the library itself
 * reads pages and requests with. A site that logs its own evidence, or an offline stand-in that finds elements on a
 * page, stays exact only if it decodes and scans the way the browser agent and the crawler do; the bundled sandbox
 * (`miniweb-taskgen/sandbox`) is built from these and the main entry alone.
 *
 * Not for the pipeline itself: everything a run needs is in `miniweb-taskgen`.
 * @packageDocumentation
 */
export { paramsObject, safeDecode, type RequestFields } from './attempt/request-fields';
export { collapse, parseHtml, scanElements, type StaticElement, type StaticOption } from './sites/elements';
export { ZERO_USAGE } from './models/types';
export { escapeHtml } from './report/html';
export { cpSlice } from './core/py/text';
