#!/usr/bin/env node
'use strict';
// The toolsim command of the npm package: runs this platform's prebuilt
// binary (binary.cjs finds it) with the same arguments and stdio, and exits
// with its status.
const { spawn } = require('node:child_process');
const { binaryPath } = require('../binary.cjs');

let bin;
try {
  bin = binaryPath();
} catch (err) {
  process.stderr.write(`${err.message}\n`);
  process.exit(2); // a setup error, as toolsim's own (docs/exit-status.md)
}

// The commands toolsim prints (reproduce: …) say npx toolsim, which works
// in an npm project where a bare toolsim is not on the PATH.
const env = { ...process.env, TOOLSIM_COMMAND: process.env.TOOLSIM_COMMAND || 'npx toolsim' };
const child = spawn(bin, process.argv.slice(2), { stdio: 'inherit', env });

// Ctrl-C reaches the binary from the terminal (one process group): the
// launcher ignores SIGINT rather than send a second one, which would end
// a fuzz campaign before it prints what it found. SIGTERM and SIGHUP sent
// to the launcher alone are passed on.
const handlers = {
  SIGINT: () => {},
  SIGTERM: () => child.kill('SIGTERM'),
  SIGHUP: () => child.kill('SIGHUP'),
};
for (const [sig, fn] of Object.entries(handlers)) process.on(sig, fn);

child.on('error', (err) => {
  process.stderr.write(`toolsim: cannot run ${bin}: ${err.message}\n`);
  process.exit(2);
});
child.on('exit', (code, signal) => {
  if (signal) {
    // Die of the same signal, so that a shell reports it as the binary's.
    for (const [sig, fn] of Object.entries(handlers)) process.off(sig, fn);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
