// Builds what `npm start` runs when it is missing or older than its sources: the web app (dist/client, Vite)
// and the server (dist/server, scripts/build-server.ts). Each build runs as its own short-lived process, so
// none of the build tools stays in the server's memory.
// Run by Node directly (type stripping): erasable TypeScript only, Node built-ins only.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function newestMtime(target: string): number {
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

function isStale(builtFile: string, sources: string[]): boolean {
  if (!existsSync(builtFile)) return true;
  const builtAt = statSync(builtFile).mtimeMs;
  return sources.some((source) => existsSync(source) && newestMtime(source) > builtAt);
}

function run(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`${args.join(' ')} failed (${signal ?? `exit code ${code}`})`)),
    );
  });
}

/** Both builds at once when both are stale (a first start): each is mostly one core's work. */
export async function ensureBuild(root = process.cwd()): Promise<void> {
  const at = (relative: string) => path.resolve(root, relative);
  const builds: Promise<void>[] = [];
  // The build's own plugins (scripts/vite-*.ts) shape the output too: the inline stylesheet, the landing HTML…
  const vitePlugins = readdirSync(at('scripts'))
    .filter((file) => file.startsWith('vite-'))
    .map((file) => path.join('scripts', file));
  const webSources = ['src/client', 'src/shared', 'vite.config.ts', ...vitePlugins].map(at);
  if (isStale(at('dist/client/index.html'), webSources)) {
    console.log('Building the web app…');
    builds.push(run([at('node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn']));
  }
  const serverSources = ['src/server', 'src/shared', 'scripts', 'package-lock.json'].map(at);
  if (isStale(at('dist/server/main.js'), serverSources)) {
    console.log('Building the server…');
    builds.push(run([at('scripts/build-server.ts')]));
  }
  await Promise.all(builds);
}
