import { eq } from 'drizzle-orm';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client';
import { billingAccounts, users } from '../db/schema';
import { createTestDatabase, testDatabaseKind, type TestDatabaseHandle } from '../test/database';

const run = promisify(execFile);
// Each case starts the command as its own process (tsx + database start-up): slow on a busy machine.
const SLOW = 180_000;

/**
 * `npm run admin` against a real database: a temporary PGlite directory, or a fresh PostgreSQL database
 * in the server-postgres project. The command runs as its own process, as an operator would run it.
 */
describe('admin command', () => {
  let handle: TestDatabaseHandle;
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    handle = await createTestDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'qw-admin-'));
    env = {
      ...(process.env as Record<string, string>),
      DATA_DIR: dataDir,
      DATABASE_URL: handle.databaseUrl ?? '',
      LOG_LEVEL: 'silent',
    };
    const database = await open();
    await database.db.insert(users).values([
      { email: 'writer@example.com', passwordHash: 'x' },
      { email: 'other@example.com', passwordHash: 'x' },
    ]);
    await database.close();
  }, SLOW);
  afterAll(async () => {
    await handle.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function open(): Promise<Database> {
    return openDatabase({ databaseUrl: handle.databaseUrl, dataDir });
  }

  async function admin(...args: string[]) {
    try {
      const { stdout, stderr } = await run(
        process.execPath,
        ['--import', 'tsx', 'scripts/admin.ts', ...args],
        {
          env,
          timeout: SLOW,
        },
      );
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code?: number; stdout?: string; stderr?: string };
      return { code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
  }

  async function planOf(email: string) {
    const database = await open();
    try {
      const [row] = await database.db
        .select({ plan: users.plan, granted: billingAccounts.grantedPlan })
        .from(users)
        .leftJoin(billingAccounts, eq(billingAccounts.userId, users.id))
        .where(eq(users.email, email));
      return row;
    } finally {
      await database.close();
    }
  }

  it(
    'set-plan grants a plan, and list-users shows it',
    async () => {
      const result = await admin('set-plan', 'Writer@Example.com', 'professional');
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(
        'writer@example.com: granted professional; effective plan is now professional.',
      );
      expect(await planOf('writer@example.com')).toEqual({ plan: 'professional', granted: 'professional' });
      expect(await planOf('other@example.com')).toEqual({ plan: 'gratis', granted: null });

      const list = await admin('list-users');
      expect(list.code).toBe(0);
      const lines = list.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^EMAIL\s+PLAN\s+GRANTED\s+SUBSCRIPTION\s+DOCUMENTS\s+CREATED$/);
      expect(lines.find((l) => l.startsWith('writer@example.com'))).toMatch(
        /professional\s+professional\s+-\s+0/,
      );
      expect(lines.find((l) => l.startsWith('other@example.com'))).toMatch(/gratis\s+-\s+-\s+0/);

      const back = await admin('set-plan', 'writer@example.com', 'gratis');
      expect(back.code).toBe(0);
      expect(await planOf('writer@example.com')).toEqual({ plan: 'gratis', granted: null });
    },
    SLOW,
  );

  it(
    'refuses an unknown plan or user with a clear message',
    async () => {
      const badPlan = await admin('set-plan', 'writer@example.com', 'platinum');
      expect(badPlan.code).toBe(2);
      expect(badPlan.stderr).toContain('Unknown plan "platinum". Plans: gratis, creator, professional');
      const nobody = await admin('set-plan', 'nobody@example.com', 'creator');
      expect(nobody.code).toBe(1);
      expect(nobody.stderr).toContain('No user with e-mail nobody@example.com');
      const usage = await admin('frobnicate');
      expect(usage.code).toBe(2);
    },
    SLOW,
  );

  it.runIf(testDatabaseKind() === 'pglite')(
    'refuses while a server holds the embedded database, naming what to do',
    async () => {
      const server = await open();
      try {
        const result = await admin('set-plan', 'writer@example.com', 'creator');
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('is using the data directory');
        expect(result.stderr).toContain('stop the server, run this command, then start the server again');
      } finally {
        await server.close();
      }
      expect(await planOf('writer@example.com')).toMatchObject({ plan: 'gratis' });
    },
    SLOW,
  );
});
