import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { testDatabaseKind } from '../test/database';
import { backupEmbedded, restoreEmbedded } from './backup';
import { openDatabase } from './client';
import { documents, users } from './schema';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'qw-backup-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

// The embedded database only; PostgreSQL is backed up with pg_dump (docs/reliability.md).
it.runIf(testDatabaseKind() === 'pglite')(
  'a backup restored into a fresh data directory has every document',
  async () => {
    const source = tempDir();
    const database = await openDatabase({ dataDir: source });
    const [user] = await database.db
      .insert(users)
      .values({ email: 'backup@example.com', passwordHash: 'x' })
      .returning({ id: users.id });
    const titles = Array.from({ length: 25 }, (_, i) => `Chapter ${i + 1}`);
    for (const title of titles) {
      await database.db.insert(documents).values({
        userId: user!.id,
        title,
        content: {
          type: 'doc',
          content: [{ type: 'paragraph', content: [{ type: 'text', text: `${title} text` }] }],
        },
      });
    }
    // A running server holds the lock: backing up now is refused rather than copying a live directory.
    await expect(backupEmbedded(source, path.join(tempDir(), 'x.tar.gz'))).rejects.toThrow(
      /Another Quillwright server/,
    );
    await database.close();

    const archive = path.join(tempDir(), 'backup.tar.gz');
    const { bytes } = await backupEmbedded(source, archive);
    expect(bytes).toBeGreaterThan(1000);

    const target = tempDir();
    await restoreEmbedded(archive, target);
    await expect(restoreEmbedded(archive, target)).rejects.toThrow(/already holds a database/);
    const restored = await openDatabase({ dataDir: target });
    try {
      const rows = await restored.db
        .select({ title: documents.title, content: documents.content })
        .from(documents);
      expect(rows.map((r) => r.title).sort()).toEqual([...titles].sort());
      expect(JSON.stringify(rows[0]!.content)).toContain('text');
    } finally {
      await restored.close();
    }
  },
  60_000,
);
