#!/usr/bin/env node
// engine.mjs behind toolsim-engine/1, through the kit in toolsim-engine.mjs:
//
//   toolsim fuzz --engine 'node examples/node/adapter.mjs' --seeds 2000
//   toolsim fuzz --engine 'node examples/node/adapter.mjs --bug spinner'
//   toolsim fuzz --engine 'node examples/node/adapter.mjs --bug spinner,upgrade'   # several bugs, several findings
//   toolsim fuzz --engine 'node examples/node/adapter.mjs --no-delta'   # whole timelines, no deltas
import { serve } from './toolsim-engine.mjs';
import { BUGS, Engine } from './engine.mjs';

const at = process.argv.indexOf('--bug');
const bug = at >= 0 ? process.argv[at + 1] : null;
for (const one of (bug ?? '').split(',').filter(Boolean)) {
  if (!BUGS.includes(one)) {
    process.stderr.write(`unknown --bug ${JSON.stringify(one)}: one or more (comma-separated) of ${BUGS.join(', ')}\n`);
    process.exit(2);
  }
}

await serve((options) => new Engine(options.meta_tools ?? [], bug), {
  fields: ['output', 'update_seq', 'error'],
});
