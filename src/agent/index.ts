/** The attempt step (DESIGN.md §5): browser, observation, actions, policies, recorder, runner. @module */
export * from './types';
export * from './browser';
export * from './page-watch';
export * from './observe';
export * from './actions';
export * from './parse-action';
export * from './prompt';
export * from './qwen-policy';
export * from './scripted-policy';
export * from './evidence';
export * from './recorder';
export * from './run-dir';
export * from './episode';
export * from './attempt';
export * from './site-boundary';
export { ELEMENTS_KEY, type PageScan } from './page-script';
export * from './serve-qwen';
