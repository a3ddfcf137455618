/** The LLM adapters. @module */
export * from './types';
export * from './fake';
