/**
 * What Python does differently from JavaScript, in one place (DESIGN.md §4): the seed's prompts, context text
 * and reports are byte-identical to Python's only through these.
 * @module
 */
export * from './py/text';
export * from './py/float';
export * from './py/json';
export * from './py/repr';
export * from './py/html';
export * from './py/round';
export * from './py/random';
export * from './py/path';
