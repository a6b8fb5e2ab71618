// Bundles src/main.jsx into dist/page.js (one static page, dist/index.html)
// with esbuild, by the kit's build (browser/page/build.mjs): npm run build
// (make real-browser-engine-ai-sdk-react runs it).
import { build } from 'esbuild';
import { buildPage } from '../../browser/page/build.mjs';

await buildPage(build, new URL('./', import.meta.url));
