/** File stores. @module */
export * from './types';
export * from './node';
export * from './memory';
