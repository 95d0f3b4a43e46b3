import { spawn, type ChildProcess } from 'node:child_process';

/**
 * The real server (src/server/main.ts) as a child process, for the crash test and the soak benchmark:
 * started with PORT=0 on loopback, its URL read from Fastify's "Server listening at" log line.
 */

export interface ChildServer {
  child: ChildProcess;
  url: string;
  pid: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything the server printed so far (for failure messages). */
  output(): string;
}

export interface ChildServerEnv {
  dataDir: string;
  databaseUrl?: string | undefined;
  jwtSecret: string;
  extra?: Record<string, string>;
}

/** A clean environment: nothing of the developer's (DATABASE_URL, REDIS_URL, SMTP_URL, AI keys) leaks in. */
export function childServerEnv({
  dataDir,
  databaseUrl,
  jwtSecret,
  extra,
}: ChildServerEnv): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    APP_URL: 'http://localhost:3000',
    JWT_SECRET: jwtSecret,
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...extra,
  };
}

const running = new Set<ChildProcess>();

/** Kills (SIGKILL) every child server still running; for afterAll hooks and crash paths. */
export function killAllChildServers(): void {
  for (const child of running) child.kill('SIGKILL');
}

export function spawnChildServer(env: NodeJS.ProcessEnv, startTimeoutMs = 60_000): Promise<ChildServer> {
  // process.execPath is the Node 24 running Vitest/tsx; spawning it directly makes child.pid the server.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: process.cwd(),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  return new Promise<ChildServer>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start in time:\n${output}`)),
      startTimeoutMs,
    );
    const onData = (chunk: Buffer) => {
      // Bounded, so a long soak does not keep every log line.
      output = (output + chunk.toString()).slice(-200_000);
      if (process.env.QW_CHILD_DEBUG) process.stderr.write(chunk);
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, pid: child.pid!, exited, output: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    // With a fixed port and a quiet log level there is no "listening" line: poll the health route.
    if (env.PORT && env.PORT !== '0') {
      const url = `http://127.0.0.1:${env.PORT}`;
      const poll = async () => {
        while (running.has(child)) {
          try {
            const res = await fetch(`${url}/api/health`);
            if (res.ok) {
              clearTimeout(timer);
              resolve({ child, url, pid: child.pid!, exited, output: () => output });
              return;
            }
          } catch {
            // not listening yet
          }
          await new Promise((r) => setTimeout(r, 200));
        }
      };
      void poll();
    }
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`server exited (code ${code}, signal ${signal}) before listening:\n${output}`));
    });
  });
}

/** A TCP port that was free a moment ago (bound to port 0 on loopback, then released). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Deterministic pseudo-random numbers in [0, 1) from a seed (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A JSON request to a child server: status and body (parsed when it is JSON, else the text). */
export async function api(
  baseUrl: string,
  token: string | null,
  method: string,
  urlPath: string,
  body?: unknown,
) {
  const response = await fetch(baseUrl + urlPath, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: response.status, body: parsed };
}
