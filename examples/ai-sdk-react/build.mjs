// Bundles src/main.jsx into dist/page.js (one static page, dist/index.html)
// with esbuild: npm run build (make real-browser-engine-ai-sdk-react runs it).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';

mkdirSync(new URL('./dist/', import.meta.url), { recursive: true });
await build({
  entryPoints: [new URL('./src/main.jsx', import.meta.url).pathname],
  bundle: true,
  format: 'iife',
  outfile: new URL('./dist/page.js', import.meta.url).pathname,
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': JSON.stringify(process.env.NODE_ENV ?? 'development') },
  logLevel: 'warning',
});
copyFileSync(new URL('./src/index.html', import.meta.url), new URL('./dist/index.html', import.meta.url));
copyFileSync(new URL('./contract.json', import.meta.url), new URL('./dist/contract.json', import.meta.url));
