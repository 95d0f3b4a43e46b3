// `npm start` (and `npm run admin`, `backup`, `restore`): builds what is stale, then runs the compiled entry
// point in THIS process. npm's script shell `exec`s into it, so a supervisor's SIGTERM (or Ctrl+C) reaches the
// server itself and nothing is left running when it exits.
//   node scripts/start.ts                 the server (dist/server/main.js)
//   node scripts/start.ts admin|backup …  a command-line script from the same build
// Run by Node directly (type stripping): erasable TypeScript only.
import { enableCompileCache } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuild } from './ensure-build.ts';

const ENTRIES = new Set(['main', 'admin', 'backup']);

const requested = process.argv[2];
const entry = requested && ENTRIES.has(requested) ? requested : 'main';
// The entry sees its own arguments at process.argv[2…], as when run on its own.
if (requested === entry) process.argv.splice(2, 1);

await ensureBuild();
// Later starts reuse the bytecode V8 compiled for the server and its packages (kept in the OS temp directory):
// loading them is most of a start.
enableCompileCache();
await import(pathToFileURL(path.resolve('dist/server', `${entry}.js`)).href);
