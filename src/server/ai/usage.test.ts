import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiUsage, documents } from '../db/schema';
import { createUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { tokensUsedThisMonth, usageLedger, type UsageEntry } from './usage';

describe('AI usage ledger', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 120_000);
  afterAll(() => server.close());

  const entry = (userId: string, documentId?: string): UsageEntry => ({
    userId,
    documentId,
    action: 'improve',
    provider: 'openai',
    model: 'm',
    inputTokens: 10,
    outputTokens: 5,
  });
  const rows = (userId: string) =>
    server.database.db.select().from(aiUsage).where(eq(aiUsage.userId, userId));

  it('counts recorded calls at once, and stores them together on flush', async () => {
    const user = await createUser(server);
    const ledger = usageLedger(server.database.db);
    ledger.record(entry(user.id));
    ledger.record(entry(user.id));
    // Quotas see pending rows before they are written.
    expect(await tokensUsedThisMonth(server.database.db, user.id)).toBe(30);
    await ledger.flush();
    expect(await rows(user.id)).toHaveLength(2);
    expect(await tokensUsedThisMonth(server.database.db, user.id)).toBe(30);
  });

  it('counts every row exactly once while reads and batch writes overlap', async () => {
    const user = await createUser(server);
    const ledger = usageLedger(server.database.db);
    const reads: Promise<number>[] = [];
    const flushes: Promise<void>[] = [];
    for (let i = 1; i <= 20; i++) {
      ledger.record(entry(user.id));
      // Reads land before, during and after each batch's INSERT; all of them finish after the last record.
      reads.push(tokensUsedThisMonth(server.database.db, user.id));
      flushes.push(ledger.flush());
      reads.push(tokensUsedThisMonth(server.database.db, user.id));
    }
    const seen = await Promise.all(reads);
    await Promise.all(flushes);
    seen.forEach((total, index) => expect(total, `read ${index}`).toBe(20 * 15));
    expect(await rows(user.id)).toHaveLength(20);
  });

  it('a row whose document was deleted meanwhile does not cost the others their record', async () => {
    const user = await createUser(server);
    const [doc] = await server.database.db
      .insert(documents)
      .values({ userId: user.id, title: 'Gone soon', content: { type: 'doc', content: [] } })
      .returning({ id: documents.id });
    const ledger = usageLedger(server.database.db);
    ledger.record(entry(user.id));
    ledger.record(entry(user.id, doc!.id));
    ledger.record(entry(user.id));
    await server.database.db.delete(documents).where(eq(documents.id, doc!.id));
    await ledger.flush();
    expect(await rows(user.id)).toHaveLength(2);
  });

  it('writes pending rows by itself after a short delay', async () => {
    const user = await createUser(server);
    usageLedger(server.database.db).record(entry(user.id));
    await expect.poll(async () => (await rows(user.id)).length, { timeout: 5_000 }).toBe(1);
  });
});
