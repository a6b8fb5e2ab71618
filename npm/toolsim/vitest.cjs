'use strict';
// toolsim/vitest: a toolsim fuzz campaign as tests, for vitest, jest or any
// runner whose test(name, fn) registers a test while the file is collected.
// No dependencies. CommonJS, so that jest's default (CommonJS) mode can
// require it; vitest.mjs re-exports it for import.
//
//   import { test } from 'vitest';
//   import { fuzzEngine } from 'toolsim/vitest';
//   fuzzEngine({ test, engine: 'node adapter.mjs', seeds: 500 });
//
// fuzzEngine runs `toolsim fuzz --json` synchronously while the file is
// collected (a campaign is not bound by the runner's per-test timeout),
// then registers one test per bug class (docs/findings.md, "Bug classes"),
// failing when a new or flaky finding is in it, its message carrying each
// signature, the repro's path, the reproduce command and the diff; one
// passing test per class of only known findings (--baseline) and per
// baseline entry no longer found; one passing test for a clean campaign.
// Findings seen only after another are listed in that one's message;
// documented behaviour and findings outside the engine's contract (unless
// robustness: true) register nothing. A usage or
// setup error (toolsim exits 2: a bad flag, an engine that cannot start)
// throws, failing the file with toolsim's stderr.
const { spawn, spawnSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { binaryPath } = require('./binary.cjs');

/** toolsim could not run the campaign: its message carries toolsim's stderr. */
class ToolsimSetupError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ToolsimSetupError';
  }
}

/** A failing result of the campaign; result is its line of the --json report. */
class ToolsimFinding extends Error {
  constructor(message, result) {
    super(message);
    this.name = 'ToolsimFinding';
    this.result = result;
    this.signature = result?.signature;
    // The helper's frames say nothing about the engine: the message is all.
    this.stack = `${this.name}: ${message}`;
  }
}

const list = (v) => (Array.isArray(v) ? v.join(',') : String(v));
const quote = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);
const slug = (s) => s.replace(/[^A-Za-z0-9_.]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 80) || 'engine';

// prepare checks the options and spells the command line.
function prepare(options) {
  const o = options ?? {};
  if (typeof o.engine !== 'string' || o.engine.trim() === '') {
    throw new TypeError("toolsim: fuzzEngine: engine is required: the engine's command line, e.g. 'node adapter.mjs'");
  }
  const env = { ...process.env, ...o.env };
  // The package's own binary: the reproduce commands it prints say npx
  // toolsim, which works in the npm project the tests run in.
  if (o.bin === undefined && !env.TOOLSIM_BINARY && !env.TOOLSIM_COMMAND) env.TOOLSIM_COMMAND = 'npx toolsim';
  let bin;
  try {
    bin = o.bin ?? binaryPath(env);
  } catch (err) {
    throw new ToolsimSetupError(err.message);
  }
  // A path is taken from here, not from cwd, where the binary runs.
  if (bin.includes('/') || bin.includes(path.sep)) bin = path.resolve(bin);
  const cwd = path.resolve(o.cwd ?? process.cwd());
  const tmp = mkdtempSync(path.join(tmpdir(), 'toolsim-fuzz-'));
  const json = path.join(tmp, 'report.jsonl');
  const args = ['fuzz', '--engine', o.engine, '--json', json, '--out', o.out ?? path.join('failures', slug(o.name ?? o.engine))];
  if (o.seeds !== undefined) args.push('--seeds', String(o.seeds));
  if (o.features !== undefined) args.push('--features', list(o.features));
  if (o.faults !== undefined) args.push('--faults', list(o.faults));
  if (o.baseline !== undefined) args.push('--baseline', o.baseline);
  if (o.timeout !== undefined) args.push('--timeout', typeof o.timeout === 'number' ? `${o.timeout}ms` : o.timeout);
  if (o.contract !== undefined) args.push('--contract', list(o.contract));
  if (o.documented !== undefined) args.push('--documented', list(o.documented));
  if (o.byDesign !== undefined) args.push('--by-design', list(o.byDesign));
  if (o.robustness) args.push('--robustness');
  args.push(...(o.args ?? []));
  const shown = ['toolsim', ...args.map((a) => (a === json ? 'REPORT.jsonl' : a))].map(quote).join(' ');
  return { bin, args, cwd, env, tmp, json, command: shown };
}

// finish reads the report of a finished run, or throws when there is none.
function finish(ctx, { status, signal, stdout, stderr, error }) {
  try {
    const where = `${ctx.command} (in ${ctx.cwd}, binary ${ctx.bin})`;
    if (error) throw new ToolsimSetupError(`toolsim: cannot run ${where}: ${error.message}`);
    if (signal || (status !== 0 && status !== 1)) {
      const how = signal ? `was killed by ${signal}` : status === 2 ? 'exited 2, a usage or setup error' : status === 130 ? 'was interrupted (exit 130)' : `exited ${status}`;
      throw new ToolsimSetupError(`toolsim: ${where} ${how}:\n${stderr.trim() || '(nothing on stderr)'}`);
    }
    let text;
    try {
      text = readFileSync(ctx.json, 'utf8');
    } catch (err) {
      throw new ToolsimSetupError(`toolsim: ${where} exited ${status} without its --json report (${err.message}):\n${stderr.trim()}`);
    }
    const results = text.split('\n').filter((l) => l.trim()).map((l) => {
      try {
        return JSON.parse(l);
      } catch (err) {
        throw new ToolsimSetupError(`toolsim: ${where}: a line of its --json report is not JSON (${err.message}): ${l.slice(0, 200)}`);
      }
    });
    return {
      command: ctx.command, cwd: ctx.cwd, bin: ctx.bin, status, stdout, stderr, results,
      failures: results.filter((r) => r.status !== 'pass'),
    };
  } finally {
    rmSync(ctx.tmp, { recursive: true, force: true });
  }
}

/** Runs toolsim fuzz and returns its report; throws ToolsimSetupError when it could not run. */
function runFuzz(options) {
  const ctx = prepare(options);
  const r = spawnSync(ctx.bin, ctx.args, { cwd: ctx.cwd, env: ctx.env, encoding: 'utf8', maxBuffer: 256 << 20 });
  return finish(ctx, r);
}

/** runFuzz without blocking, for a top-level await. */
function runFuzzAsync(options) {
  let ctx;
  try {
    ctx = prepare(options);
  } catch (err) {
    return Promise.reject(err);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(ctx.bin, ctx.args, { cwd: ctx.cwd, env: ctx.env });
    let stdout = '', stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    let settled = false;
    const done = (r) => {
      if (settled) return; // a child that cannot start emits error, then close
      settled = true;
      try {
        resolve(finish(ctx, { stdout, stderr, ...r }));
      } catch (err) {
        reject(err);
      }
    };
    child.on('error', (error) => done({ error }));
    child.on('close', (status, signal) => done({ status, signal }));
  });
}

/** The message of a failing result: what failed, the repro, how to reproduce it, the diff. */
function findingMessage(r, run) {
  const abs = (p) => path.resolve(run.cwd, p);
  const lines = [];
  if (r.signature) {
    lines.push(`${r.flaky ? 'flaky' : 'new'} finding: ${r.signature}`);
    const seeds = r.count === undefined ? '' : `${r.count} failing seed${r.count === 1 ? '' : 's'}, `;
    const first = r.seed === undefined ? '' : `the first seed ${r.seed}, `;
    lines.push(`  ${seeds}${first}oracle ${r.oracle}${r.seq ? ` after seq ${r.seq}` : ''}`);
  } else {
    lines.push(`${r.name}${r.oracle ? ` (oracle ${r.oracle})` : ''}`);
  }
  if (r.detail) lines.push(`  ${r.detail}`);
  if (r.flaky) lines.push(`  not confirmed: ${r.flaky}`);
  if (r.shrunk) lines.push(`  repro: ${abs(r.shrunk)} (shrunk from ${abs(r.trace)})`);
  else if (r.trace) lines.push(`  repro: ${abs(r.trace)}`);
  if (r.reproduce) lines.push(`  reproduce: ${r.reproduce}`, `    (from ${run.cwd})`);
  const after = r.signature ? run.results.filter((x) => x.after === r.signature) : [];
  if (after.length) lines.push(`  seen only after this one (fix it first): ${after.map((x) => x.signature).join('; ')}`);
  if (r.diff) lines.push('  diff (-want +got):', ...r.diff.replace(/\n$/, '').split('\n').map((l) => `    ${l}`));
  return lines.join('\n');
}

/** Registers the tests of a run (see the top of this file). */
function registerFindings(run, options = {}) {
  const test = options.test ?? globalThis.test ?? globalThis.it;
  if (typeof test !== 'function') {
    throw new TypeError("toolsim: no test function: pass { test } (import { test } from 'vitest'), or run with the runner's globals");
  }
  const label = options.name ?? 'toolsim';
  const classes = new Map(); // bug class → its findings, in report order
  for (const r of run.results) {
    if (r.class && !r.after && !r.documented && !(r.robustness && r.status === 'pass')) {
      if (!classes.has(r.class)) classes.set(r.class, []);
      classes.get(r.class).push(r);
    } else if (r.class) {
      // seen only after another, documented, or outside the contract: no test of its own
    } else if (r.status !== 'pass') {
      const message = findingMessage(r, run);
      test(`${label}: ${r.name}`, () => { throw new ToolsimFinding(message, r); });
    } else if (!r.after) {
      test(`${label}: ${r.known ? 'known: ' : ''}${r.name}`, () => {});
    }
  }
  for (const [cls, rs] of classes) {
    const failing = rs.filter((r) => r.status !== 'pass');
    const n = `${rs.length} signature${rs.length === 1 ? '' : 's'}`;
    if (failing.length) {
      const message = [`bug: ${cls} (${n})`, ...failing.map((r) => findingMessage(r, run))].join('\n');
      test(`${label}: bug: ${cls}`, () => { throw new ToolsimFinding(message, failing[0]); });
    } else {
      test(`${label}: ${rs.every((r) => r.known) ? 'known: ' : ''}bug: ${cls} (${n})`, () => {});
    }
  }
  if (run.status !== 0 && run.failures.length === 0) {
    const message = `${run.command} exited ${run.status}, its report lists no failure:\n${run.stdout.trim()}\n${run.stderr.trim()}`;
    test(`${label}: toolsim fuzz`, () => { throw new ToolsimFinding(message, null); });
  }
  return run;
}

/** Runs the campaign now and registers its tests; returns the run. */
function fuzzEngine(options) {
  return registerFindings(runFuzz(options), options);
}

module.exports = {
  fuzzEngine, runFuzz, runFuzzAsync, registerFindings, findingMessage, ToolsimFinding, ToolsimSetupError,
};
