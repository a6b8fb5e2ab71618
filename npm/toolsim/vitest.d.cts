// Types for vitest.cjs (toolsim/vitest; vitest.d.mts re-exports them).
// The report lines are those of `toolsim fuzz --json` (docs/findings.md,
// "Reports").

/** test(name, fn) of vitest, jest, mocha or node:test. */
export type TestFunction = (name: string, fn: () => void) => unknown;

export interface FuzzOptions {
  /** The engine's command line (toolsim fuzz --engine), e.g. 'node adapter.mjs'. */
  engine: string;
  /** How many seeds (--seeds; toolsim's default is 2000). */
  seeds?: number;
  /** The SPEC §2 features the engine supports (--features). */
  features?: string | string[];
  /** The faults to inject (--faults; default all). */
  faults?: string | string[];
  /** Known findings (--baseline FILE, from --write-baseline): they pass. */
  baseline?: string;
  /** How long the engine may take to answer one message (--timeout): milliseconds, or a duration such as '30s'. */
  timeout?: number | string;
  /** What the engine's real upstream never sends (--contract), e.g. 'executor' or ['calls-first', 'known-ids']; default: the engine's own declaration. */
  contract?: string | string[];
  /** The library's documented behaviours (--documented), 'open-after-turn', 'results-at-step-end', 'approval-after-results' or 'cancel-drops-in-flight' (docs/simulator.md, Contracts); default: the engine's own declaration. */
  documented?: string | string[];
  /** The library's behaviours by design, undocumented (--by-design): the same names, for a behaviour only its code or a PR shows; default: the engine's own declaration. */
  byDesign?: string | string[];
  /** Also explore and report inputs outside the contract, each labelled robustness (--robustness). */
  robustness?: boolean;
  /** Where failing traces and their shrunk repros go (--out; default failures/<name or engine>), relative to cwd. */
  out?: string;
  /** More toolsim fuzz flags, e.g. ['--diff'] or ['--faults', 'order']. */
  args?: string[];
  /** The toolsim binary (default: $TOOLSIM_BINARY, else the platform package's). */
  bin?: string;
  /** The directory toolsim runs in (default: process.cwd()). */
  cwd?: string;
  /** Environment variables added to process.env for toolsim and the engine. */
  env?: Record<string, string>;
  /** The runner's test function (default: globalThis.test, then globalThis.it). */
  test?: TestFunction;
  /** The prefix of the tests' names (default 'toolsim'). */
  name?: string;
}

/** One line of the --json report. */
export interface Result {
  suite: string;
  /** The signature for a finding, 'fixed: SIGNATURE', or 'campaign (N scenarios)'. */
  name: string;
  status: 'pass' | 'fail' | 'error';
  signature?: string;
  count?: number;
  seed?: number;
  oracle?: string;
  seq?: number;
  detail?: string;
  /** (-want +got) */
  diff?: string;
  /** The command that reproduces it, relative to the run's directory. */
  reproduce?: string;
  trace?: string;
  shrunk?: string;
  known?: boolean;
  flaky?: string;
  /** The finding this one was seen only after. */
  after?: string;
  /** The bug class of the signature: the helper registers one test per class. */
  class?: string;
  /** Why the repro is outside the engine's contract (a robustness finding). */
  robustness?: string;
  /** The library's behaviour it shows, which the engine declared documented or (by_design) by design. */
  documented?: string;
  /** The behaviour in documented is declared by design, undocumented. */
  by_design?: boolean;
  events?: number;
  scenarios?: number;
  not_run?: string[];
  [field: string]: unknown;
}

export interface FuzzRun {
  /** The command line, as a user would type it. */
  command: string;
  cwd: string;
  bin: string;
  /** 0: clean or only known findings; 1: a new or flaky finding, or a fault class never reached. */
  status: 0 | 1;
  stdout: string;
  stderr: string;
  results: Result[];
  /** The results that fail: new and flaky findings, coverage. */
  failures: Result[];
}

/** toolsim could not run the campaign (exit 2, a signal, no report); the message carries its stderr. */
export class ToolsimSetupError extends Error {}

/** Thrown by the failing test of a finding. */
export class ToolsimFinding extends Error {
  result: Result | null;
  signature?: string;
}

/** Runs the campaign now (synchronously) and registers its tests. */
export function fuzzEngine(options: FuzzOptions): FuzzRun;
/** Runs the campaign synchronously. */
export function runFuzz(options: FuzzOptions): FuzzRun;
/** Runs the campaign without blocking (for a top-level await). */
export function runFuzzAsync(options: FuzzOptions): Promise<FuzzRun>;
/** Registers the tests of a run. */
export function registerFindings(run: FuzzRun, options?: { test?: TestFunction; name?: string }): FuzzRun;
/** The message of a failing result's test. */
export function findingMessage(result: Result, run: FuzzRun): string;
