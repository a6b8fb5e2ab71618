// Tests of vitest.cjs, through vitest.mjs (toolsim/vitest), against the
// Node example engine, with node:test: node --test
// npm/toolsim/test/vitest.test.mjs (make npm-test). The binary is
// $TOOLSIM_BINARY, else the repository's bin/toolsim (make build).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  fuzzEngine, registerFindings, runFuzz, runFuzzAsync, ToolsimFinding, ToolsimSetupError,
} from '../vitest.mjs';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const bin = process.env.TOOLSIM_BINARY || path.join(repo, 'bin', 'toolsim');
const adapter = path.join(repo, 'examples', 'node', 'adapter.mjs');
const engine = (bug) => `node '${adapter}'${bug ? ` --bug ${bug}` : ''}`;
const SPINNER = 'cancel: tool status interrupted → running';
const SPINNER_BUG = 'bug: a cancel: tool status interrupted → live';

// collect runs fn with a fake test() and returns the registered tests,
// each with its name and its outcome (the error it threw, or null).
function collect(fn) {
  const tests = [];
  fn((name, body) => {
    let error = null;
    try { body(); } catch (err) { error = err; }
    tests.push({ name, error });
  });
  return tests;
}

const fresh = () => mkdtempSync(path.join(tmpdir(), 'toolsim-helper-'));

test('a planted bug: one failing test with signature, repro, reproduce command and diff', () => {
  const cwd = fresh();
  const tests = collect((t) => fuzzEngine({ test: t, engine: engine('spinner'), seeds: 30, bin, cwd }));
  const failing = tests.filter((x) => x.error);
  assert.deepEqual(failing.map((x) => x.name), [`toolsim: ${SPINNER_BUG}`]);
  const err = failing[0].error;
  assert.ok(err instanceof ToolsimFinding);
  assert.equal(err.signature, SPINNER);
  const m = err.message;
  assert.match(m, /^bug: a cancel: tool status interrupted → live \(1 signature\)\nnew finding: cancel: tool status interrupted → running\n/);
  const repro = /repro: (\S+)/.exec(m)?.[1];
  assert.ok(repro && path.isAbsolute(repro) && repro.endsWith('.min.jsonl') && existsSync(repro), `repro ${repro} in:\n${m}`);
  assert.match(m, /reproduce: toolsim check --engine '.*--bug spinner' failures\/\S+\.min\.jsonl/);
  assert.match(m, /diff \(-want \+got\):\n(.*\n)*    \+ .*running/);
  // The no-live finding comes only after it: named in its message, no test of its own.
  assert.match(m, /seen only after this one \(fix it first\): cancel: tool left running/);
  assert.equal(tests.length, 1);
  assert.equal(err.stack, `ToolsimFinding: ${m}`);
});

test('two bugs: one failing test per bug class, each listing its signatures', () => {
  const tests = collect((t) => fuzzEngine({ test: t, engine: engine('spinner,upgrade'), seeds: 200, bin, cwd: fresh() }));
  const failing = tests.filter((x) => x.error);
  assert.deepEqual(failing.map((x) => x.name).sort(),
    [`toolsim: ${SPINNER_BUG}`, 'toolsim: bug: a call starts: started tool not shown'].sort());
  const upgrade = failing.find((x) => x.name.endsWith('started tool not shown')).error.message;
  assert.match(upgrade, /^bug: a call starts: started tool not shown \([2-9]\d* signatures\)\n/);
  assert.ok((upgrade.match(/^new finding: /gm) ?? []).length >= 2, upgrade);
});

test('contract, documented, by design and robustness are spelled as flags', () => {
  const run = runFuzz({ engine: engine(), seeds: 5, faults: 'order', contract: ['executor'], documented: 'open-after-turn', byDesign: 'results-at-step-end', robustness: true, bin, cwd: fresh() });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.command, /--contract executor --documented open-after-turn --by-design results-at-step-end --robustness/);
});

test('the correct engine: one passing test', () => {
  const tests = collect((t) => fuzzEngine({ test: t, engine: engine(), seeds: 20, bin, cwd: fresh(), name: 'node example' }));
  assert.deepEqual(tests, [{ name: 'node example: campaign (20 scenarios)', error: null }]);
});

test('a baseline: known findings pass, a fixed one is named', () => {
  const cwd = fresh();
  const baseline = path.join(cwd, 'baseline.json');
  const first = runFuzz({ engine: engine('spinner'), seeds: 30, bin, cwd, args: ['--write-baseline', baseline] });
  assert.equal(first.status, 1);
  const known = collect((t) => fuzzEngine({ test: t, engine: engine('spinner'), seeds: 30, bin, cwd, baseline }));
  assert.ok(known.length > 0 && known.every((x) => x.error === null && x.name.startsWith('toolsim: known: ')), JSON.stringify(known));
  const fixed = collect((t) => fuzzEngine({ test: t, engine: engine(), seeds: 20, bin, cwd, baseline }));
  assert.ok(fixed.some((x) => x.name === `toolsim: fixed: ${SPINNER}` && x.error === null), JSON.stringify(fixed));
});

test('a setup error throws with toolsim\'s stderr', () => {
  assert.throws(() => fuzzEngine({ test: () => assert.fail('no test'), engine: 'no-such-engine-command', seeds: 5, bin, cwd: fresh() }),
    (err) => err instanceof ToolsimSetupError && /exited 2, a usage or setup error/.test(err.message) && /no-such-engine-command/.test(err.message)
      && /cannot start/.test(err.message));
  assert.throws(() => runFuzz({ engine: engine(), seeds: 5, bin, cwd: fresh(), args: ['--no-such-flag'] }),
    (err) => err instanceof ToolsimSetupError && /no-such-flag/.test(err.message));
  assert.throws(() => runFuzz({ engine: engine(), bin: path.join(fresh(), 'missing') }),
    (err) => err instanceof ToolsimSetupError && /cannot run/.test(err.message));
  assert.throws(() => runFuzz({ engine: engine(), env: { TOOLSIM_BINARY: path.join(fresh(), 'missing') } }),
    (err) => err instanceof ToolsimSetupError && /TOOLSIM_BINARY=.*: no such file/.test(err.message));
});

test('options are checked', () => {
  assert.throws(() => runFuzz({ seeds: 5, bin }), /engine is required/);
  const run = { status: 0, results: [], failures: [], command: 'toolsim fuzz', stdout: '', stderr: '' };
  assert.throws(() => registerFindings(run, {}), /no test function/);
});

test('the flags: seeds, features, faults, timeout', () => {
  const run = runFuzz({ engine: engine(), seeds: 7, features: ['tools', 'text'], faults: 'order', timeout: 20000, bin, cwd: fresh() });
  assert.equal(run.status, 0);
  assert.match(run.command, /--seeds 7 --features tools,text --faults order --timeout 20000ms/);
  assert.deepEqual(run.results.map((r) => r.name), ['campaign (7 scenarios)']);
});

test('a relative bin is taken from the caller\'s directory, not cwd', () => {
  const rel = path.relative(process.cwd(), bin);
  assert.ok(!path.isAbsolute(rel));
  const run = runFuzz({ engine: engine(), seeds: 3, faults: 'order', bin: rel, cwd: fresh() });
  assert.equal(run.bin, bin);
  assert.equal(run.status, 0);
});

test('runFuzzAsync gives what runFuzz gives', async () => {
  const cwd = fresh();
  const sync = runFuzz({ engine: engine('spinner'), seeds: 30, bin, cwd });
  const async = await runFuzzAsync({ engine: engine('spinner'), seeds: 30, bin, cwd });
  assert.deepEqual(async.results.map((r) => [r.name, r.status]), sync.results.map((r) => [r.name, r.status]));
  await assert.rejects(runFuzzAsync({ engine: 'no-such-engine-command', seeds: 5, bin, cwd }), ToolsimSetupError);
});

test('exit 1 with no failing line still fails', () => {
  // A stand-in binary that writes a clean report and exits 1.
  const dir = fresh();
  const fake = path.join(dir, 'fake-toolsim');
  writeFileSync(fake, `#!/bin/sh
while [ "$1" != --json ]; do shift; done
echo '{"suite":"toolsim fuzz","name":"campaign (1 scenarios)","status":"pass"}' > "$2"
echo 'something went wrong' >&2
exit 1
`, { mode: 0o755 });
  const tests = collect((t) => fuzzEngine({ test: t, engine: 'x', bin: fake, cwd: dir }));
  assert.equal(tests.length, 2);
  assert.match(tests[1].error?.message ?? '', /exited 1, its report lists no failure:\n[^]*something went wrong/);
});
