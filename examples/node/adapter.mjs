#!/usr/bin/env node
// engine.mjs behind toolsim-engine/1, through the kit in toolsim-engine.mjs:
//
//   toolsim fuzz --engine 'node examples/node/adapter.mjs' --seeds 2000
//   toolsim fuzz --engine 'node examples/node/adapter.mjs --bug spinner'
//   toolsim fuzz --engine 'node examples/node/adapter.mjs --bug spinner,upgrade'   # several bugs, several findings
//   toolsim fuzz --engine 'node examples/node/adapter.mjs --no-delta'   # whole timelines, no deltas
//   toolsim fuzz --engine 'node examples/node/adapter.mjs --contract executor'   # declare an upstream contract
import { serve } from './toolsim-engine.mjs';
import { BUGS, Engine } from './engine.mjs';

const arg = (name) => { const at = process.argv.indexOf(name); return at >= 0 ? process.argv[at + 1] : null; };
const bug = arg('--bug');
for (const one of (bug ?? '').split(',').filter(Boolean)) {
  if (!BUGS.includes(one)) {
    process.stderr.write(`unknown --bug ${JSON.stringify(one)}: one or more (comma-separated) of ${BUGS.join(', ')}\n`);
    process.exit(2);
  }
}

// --contract LIST and --documented LIST declare what the engine's upstream
// never sends and the documented behaviours (docs/simulator.md, Contracts).
const list = (name) => (arg(name) ?? '').split(',').filter(Boolean);
await serve((options) => new Engine(options.meta_tools ?? [], bug), {
  fields: ['output', 'update_seq', 'error'],
  contract: list('--contract'),
  documented: list('--documented'),
});
