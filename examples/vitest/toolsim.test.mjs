// toolsim fuzz as vitest tests (docs/npm.md). In a project of your own,
// after npm install -D toolsim vitest:
//
//   import { test } from 'vitest';
//   import { fuzzEngine } from 'toolsim/vitest';
//   fuzzEngine({ test, engine: 'node adapter.mjs', seeds: 300 });
//
// Here the helper comes from the repository's npm/toolsim (so that
// package-lock.json pins only vitest) and the binary is bin/toolsim (make
// build) or $TOOLSIM_BINARY. TOOLSIM_ENGINE_BUG plants bugs in the engine
// (spinner, or several of examples/node's BUGS, comma-separated): the run
// then fails, one test per bug class.
import { fileURLToPath } from 'node:url';
import { test } from 'vitest';
import { fuzzEngine } from '../../npm/toolsim/vitest.mjs';

const bug = process.env.TOOLSIM_ENGINE_BUG;

fuzzEngine({
  test,
  name: 'node example',
  engine: `node ../node/adapter.mjs${bug ? ` --bug ${bug}` : ''}`,
  seeds: 300,
  cwd: fileURLToPath(new URL('.', import.meta.url)),
  bin: process.env.TOOLSIM_BINARY || fileURLToPath(new URL('../../bin/toolsim', import.meta.url)),
});
