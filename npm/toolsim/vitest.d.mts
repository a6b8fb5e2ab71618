// Types for vitest.mjs: those of vitest.cjs, which it re-exports.
export * from './vitest.cjs';
