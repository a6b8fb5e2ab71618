// The kit's page build for an example under toolsim-browser
// (browser/doc.go), shared by the example pages: bundles DIR/src/main.jsx
// into DIR/dist/page.js with esbuild (one static page), and copies
// src/index.html and contract.json beside it. React's development build
// unless NODE_ENV says otherwise (its warnings fail the engine).
//
// build is esbuild's, passed in by the example's build.mjs: esbuild is the
// example's own pinned dependency, which this file's directory cannot
// resolve. dir is the example's directory as a file URL ending in "/".
import { copyFileSync, mkdirSync } from 'node:fs';

export async function buildPage(build, dir) {
  mkdirSync(new URL('dist/', dir), { recursive: true });
  await build({
    entryPoints: [new URL('src/main.jsx', dir).pathname],
    bundle: true,
    format: 'iife',
    outfile: new URL('dist/page.js', dir).pathname,
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': JSON.stringify(process.env.NODE_ENV ?? 'development') },
    logLevel: 'warning',
  });
  copyFileSync(new URL('src/index.html', dir), new URL('dist/index.html', dir));
  copyFileSync(new URL('contract.json', dir), new URL('dist/contract.json', dir));
}
