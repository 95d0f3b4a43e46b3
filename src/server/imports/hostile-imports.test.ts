import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { childServerEnv } from '../reliability/child-server';
import { createTestDatabase, type TestDatabaseHandle } from '../test/database';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { deflateSync } from 'fflate';
import { deflatedRepeat, docxBomb, DOCX_BOMBS, rawZip, WORD_SKELETON } from './hostile-files';
import { IMPORT_MAX_ZIP_ENTRIES, IMPORTS_PER_USER_PER_MINUTE } from './import-limits';

let nextAddress = 1;
/** A different client address for every request (the server trusts X-Forwarded-For here). */
const freshAddress = () => `198.51.${(nextAddress >> 8) & 255}.${nextAddress++ & 255}`;

async function upload(baseUrl: string, token: string, name: string, body: Uint8Array | string) {
  const form = new FormData();
  form.append('file', new Blob([typeof body === 'string' ? body : new Uint8Array(body)]), name);
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/documents/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': freshAddress() },
    body: form,
  });
  const body_ = (await response.json()) as { message?: string; code?: string; title?: string };
  return { status: response.status, body: body_, ms: performance.now() - started };
}

const expectOneErrorShape = (body: { message?: unknown; code?: unknown }) => {
  expect(typeof body.message).toBe('string');
  expect(body.code).toBe('import_failed');
};

async function realDocx(text: string): Promise<Uint8Array> {
  return new Uint8Array(
    await Packer.toBuffer(
      new Document({ sections: [{ children: [new Paragraph({ text, heading: HeadingLevel.HEADING_1 })] }] }),
    ),
  );
}

it('the test bombs are what they claim: a megabyte that inflates to a gigabyte', () => {
  const data = deflatedRepeat(1024);
  expect(data.length).toBeLessThan(1.2 * 1024 * 1024);
  expect(inflateRawSync(deflatedRepeat(5)).equals(Buffer.alloc(5 * 1024 * 1024, 0x20))).toBe(true);
});

describe('hostile imports', () => {
  let server: TestServer;
  let alice: TestUser;

  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true' } });
    alice = await createUser(server);
    // The first imports start the import workers (one file per writer at a time, so two writers fill both
    // slots); the timings below are of the files, not of starting a worker.
    const warmer = await createUser(server);
    const warm = await Promise.all(
      [alice, warmer].map(async (user) =>
        upload(server.url, user.token, 'warm.docx', await realDocx('Warm')),
      ),
    );
    expect(warm.map((res) => res.status)).toEqual([201, 201]);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  for (const [variant, build] of Object.entries(DOCX_BOMBS)) {
    it(`a Word zip bomb (${variant}) answers 422 within 2 seconds`, async () => {
      const bomb = build();
      expect(bomb.length).toBeLessThan(1.2 * 1024 * 1024);
      const res = await upload(server.url, alice.token, 'bomb.docx', bomb);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expectOneErrorShape(res.body);
      expect(res.ms).toBeLessThan(2_000);
    }, 30_000);
  }

  it('a Word file with more parts than an import reads answers 422', async () => {
    const parts = Array.from({ length: IMPORT_MAX_ZIP_ENTRIES + 1 }, (_, i) => ({
      name: `word/media/image${i}.png`,
      data: new Uint8Array(1),
      deflated: false,
      declaredSize: 1,
    }));
    const res = await upload(server.url, alice.token, 'parts.docx', rawZip(parts));
    expect(res.status).toBe(422);
    expectOneErrorShape(res.body);
    expect(res.body.message).toMatch(/more than 1000 parts/);
  });

  it('a real Word file behind junk bytes still imports, as Word readers allow', async () => {
    const real = await realDocx('Behind the junk');
    const withJunk = new Uint8Array(256 + real.length);
    withJunk.set(real, 256);
    const res = await upload(server.url, alice.token, 'junk.docx', withJunk);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.title).toBe('Behind the junk');
  });

  it('a Word file too heavy for an import worker answers 422 without stalling the server, and the next import works', async () => {
    // Under the size limit, but 900,000 tiny paragraphs: the Word reader's object tree outgrows the worker's
    // heap or its time, whichever comes first on the machine.
    const paragraphs = '<w:p><w:r><w:t>a</w:t></w:r></w:p>'.repeat(900_000);
    const xml = `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs}</w:body></w:document>`;
    const bytes = new TextEncoder().encode(xml);
    const docx = rawZip([
      ...WORD_SKELETON,
      { name: 'word/document.xml', data: deflateSync(bytes), deflated: true, declaredSize: bytes.length },
    ]);
    const pending = upload(server.url, alice.token, 'huge.docx', docx);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const started = performance.now();
    expect((await server.request('GET', '/api/health')).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1_000);
    const res = await pending;
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expectOneErrorShape(res.body);
    expect(res.body.message).toMatch(/more memory|took too long/);
    expect((await upload(server.url, alice.token, 'next.docx', await realDocx('Next'))).status).toBe(201);
  }, 60_000);

  it('one writer’s hostile Markdown does not fail another writer’s import meanwhile', async () => {
    const mallory = await createUser(server);
    const bob = await createUser(server);
    // The parser's work grows with the square of this line: minutes.
    const hostile = upload(server.url, mallory.token, 'brackets.md', '['.repeat(2 * 1024 * 1024));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const normal = await upload(server.url, bob.token, 'notes.md', '# Notes\n\nA normal file.');
    expect(normal.status, JSON.stringify(normal.body)).toBe(201);
    expect(normal.body.title).toBe('Notes');
    expect(normal.ms).toBeLessThan(5_000);
    const refused = await hostile;
    expect(refused.status).toBe(422);
    expectOneErrorShape(refused.body);
    expect(refused.body.message).toMatch(/took too long/);
    // The slot the hostile file held works again.
    expect((await upload(server.url, mallory.token, 'after.md', '# After')).status).toBe(201);
  }, 40_000);

  it('one writer changing addresses is still held to the per-writer import rate', async () => {
    const rotating = await createUser(server);
    // Refused files count as well (here: an unsupported type, answered before any conversion).
    for (let i = 0; i < IMPORTS_PER_USER_PER_MINUTE; i++) {
      expect((await upload(server.url, rotating.token, 'x.pdf', '%PDF')).status).toBe(415);
    }
    const limited = await upload(server.url, rotating.token, 'x.md', '# One more');
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('over_request_rate_limit');
    // Another writer is not.
    const other = await createUser(server);
    expect((await upload(server.url, other.token, 'y.md', '# Mine')).status).toBe(201);
  }, 30_000);
});

describe('server memory under concurrent zip bombs', () => {
  const JWT_SECRET = 'hostile-imports-child-server-secret-long-enough';
  const MIB = 1024 * 1024;
  let dataDir: string;
  let handle: TestDatabaseHandle;
  let server: { child: ChildProcess; url: string; pid: number };
  const tokens: string[] = [];

  /**
   * The server as a self-hoster runs it (`npm start`: the compiled server, built here first when its build is
   * missing or older than its sources). Run from source instead, TypeScript compiled on load keeps several
   * hundred MiB more resident than the server itself uses.
   */
  async function startCompiledServer(env: NodeJS.ProcessEnv) {
    const child = spawn(process.execPath, ['--liftoff-only', '--max-semi-space-size=4', 'scripts/start.ts'], {
      env: { ...env, MALLOC_ARENA_MAX: '2' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-20_000);
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match) resolve(match[1]!);
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.on('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${output}`)));
    });
    return { child, url, pid: child.pid! };
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'qw-hostile-imports-'));
    handle = await createTestDatabase();
    const env = childServerEnv({ dataDir, databaseUrl: handle.databaseUrl, jwtSecret: JWT_SECRET });
    // The first start on a new embedded database creates it and keeps some 350 MiB more resident until it
    // exits; an instance serves from its second start on, so that is the one measured.
    const first = await startCompiledServer(env);
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGTERM');
    await exited;
    server = await startCompiledServer(env);
    // Two writers: the bombs fill both import slots at once.
    for (const email of ['bombs-one@example.com', 'bombs-two@example.com']) {
      const signup = await fetch(`${server.url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email,
          password: 'a sturdy passphrase 42',
          data: { full_name: 'Bomb Tester' },
        }),
      });
      const body = (await signup.json()) as { session: { access_token: string } | null };
      expect(signup.status, JSON.stringify(body)).toBe(200);
      tokens.push(body.session!.access_token);
    }
  }, 900_000);

  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await handle?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Resident memory now and at its peak (the whole process: the server and its worker threads). */
  const memory = (pid: number) => {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
    return { rss: (kib('VmRSS') * 1024) / MIB, peak: (kib('VmHWM') * 1024) / MIB };
  };

  it('5 bombs at once keep the server under 600 MiB, and a normal import works right after', async () => {
    const warm = await Promise.all(
      tokens.map(async (token) => upload(server.url, token, 'warm.docx', await realDocx('Warm'))),
    );
    expect(warm.map((res) => res.status)).toEqual([201, 201]);
    // Starting (migrations, loading every module) peaks above a running server: from here on VmHWM is the
    // peak of what follows (proc(5): writing 5 to clear_refs resets it).
    writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
    const before = memory(server.pid);
    const bombs = [
      docxBomb(1024, 1_000),
      docxBomb(1024, 1_000, { junkBefore: 256 }),
      docxBomb(1024, 1_000),
      docxBomb(1024, 1_000, { junkBefore: 256 }),
      docxBomb(1024, 1_000),
    ];
    let highest = before.rss;
    const sampler = setInterval(() => (highest = Math.max(highest, memory(server.pid).rss)), 25);
    const answers = await Promise.all(
      bombs.map((bomb, i) => upload(server.url, tokens[i % tokens.length]!, 'bomb.docx', bomb)),
    ).finally(() => clearInterval(sampler));
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(422);
      expectOneErrorShape(answer.body);
    }
    const after = memory(server.pid);
    console.log(
      `RSS before ${before.rss.toFixed(0)} MiB, highest sampled ${highest.toFixed(0)} MiB, ` +
        `peak (VmHWM) ${after.peak.toFixed(0)} MiB, after ${after.rss.toFixed(0)} MiB`,
    );
    expect(after.peak).toBeLessThan(600);
    const normal = await upload(server.url, tokens[0]!, 'after.docx', await realDocx('Right after'));
    expect(normal.status, JSON.stringify(normal.body)).toBe(201);
    expect(normal.body.title).toBe('Right after');
  }, 120_000);
});
