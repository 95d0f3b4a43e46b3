import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../db/schema';
import { AppError } from '../errors';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { setGrantedPlan } from './admin';
import { aiTokenQuotaFor, aiTokenQuotaForUser, assertCanCreateDocument, limitsEnforced } from './plan-limits';

async function addDocuments(server: TestServer, user: TestUser, n: number) {
  const rows = Array.from({ length: n }, (_, i) => ({
    userId: user.id,
    title: `Doc ${i + 1}`,
    content: { type: 'doc', content: [] },
  }));
  await server.database.db.insert(documents).values(rows);
}

async function refusal(server: TestServer, user: TestUser): Promise<AppError | undefined> {
  try {
    await assertCanCreateDocument({ config: server.config, db: server.database.db }, user.id);
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

describe('plan limits', () => {
  let open: TestServer;
  let enforced: TestServer;
  let selling: TestServer;

  beforeAll(async () => {
    // One after another: starting servers in parallel on a busy 2-core machine can time out.
    open = await startTestServer();
    enforced = await startTestServer({ env: { ENFORCE_PLAN_LIMITS: 'true' } });
    // Billing enabled (no Stripe call is made by the limit check).
    selling = await startTestServer({ env: { STRIPE_SECRET_KEY: 'sk_test_limits' } });
  }, 180_000);
  afterAll(async () => {
    for (const server of [open, enforced, selling]) await server?.close();
  });

  it('caps no one on a server that neither sells plans nor enforces limits', async () => {
    expect(limitsEnforced(open.config)).toBe(false);
    const user = await createUser(open);
    await addDocuments(open, user, 10);
    expect(await refusal(open, user)).toBeUndefined();
    expect(await aiTokenQuotaForUser({ config: open.config, db: open.database.db }, user.id)).toBeNull();
  });

  it("with ENFORCE_PLAN_LIMITS=true a Gratis user's 4th document is refused, and allowed after an upgrade", async () => {
    expect(limitsEnforced(enforced.config)).toBe(true);
    const user = await createUser(enforced);
    await addDocuments(enforced, user, 2);
    expect(await refusal(enforced, user)).toBeUndefined();
    await addDocuments(enforced, user, 1);
    const error = await refusal(enforced, user);
    expect(error?.status).toBe(403);
    expect(error?.code).toBe('plan_limit');
    expect(error?.message).toBe(
      "You've reached the limit of 3 documents on the Gratis plan. Upgrade your plan to create more documents.",
    );
    expect(error?.extra).toEqual({ plan: 'gratis', limit: 3, upgradeUrl: '/#pricing' });

    await setGrantedPlan(enforced.database.db, user.email, 'creator');
    expect(await refusal(enforced, user)).toBeUndefined();
  });

  it("over HTTP: a Gratis user's 4th document answers 403 plan_limit; after an upgrade it is created", async () => {
    const user = await createUser(enforced);
    for (let i = 0; i < 3; i++) {
      const res = await enforced.request('POST', '/api/documents', {
        token: user.token,
        body: { title: `D${i}` },
      });
      expect(res.status).toBe(201);
    }
    const fourth = await enforced.request('POST', '/api/documents', {
      token: user.token,
      body: { title: 'D4' },
    });
    expect(fourth.status).toBe(403);
    expect(fourth.body).toMatchObject({ code: 'plan_limit', plan: 'gratis', limit: 3 });
    await setGrantedPlan(enforced.database.db, user.email, 'creator');
    const after = await enforced.request('POST', '/api/documents', {
      token: user.token,
      body: { title: 'D4' },
    });
    expect(after.status).toBe(201);
    // Without limits (the default), nobody is capped.
    const free = await createUser(open);
    for (let i = 0; i < 4; i++) {
      const res = await open.request('POST', '/api/documents', { token: free.token, body: {} });
      expect(res.status).toBe(201);
    }
  });

  it('with billing enabled the limits apply without ENFORCE_PLAN_LIMITS', async () => {
    expect(limitsEnforced(selling.config)).toBe(true);
    const user = await createUser(selling);
    await addDocuments(selling, user, 3);
    expect((await refusal(selling, user))?.code).toBe('plan_limit');
    const pro = await createUser(selling, { plan: 'professional' });
    await addDocuments(selling, pro, 600);
    expect(await refusal(selling, pro)).toBeUndefined();
  });

  it('a downgrade keeps every document; only new ones are refused', async () => {
    const user = await createUser(enforced);
    await setGrantedPlan(enforced.database.db, user.email, 'creator');
    await addDocuments(enforced, user, 5);
    await setGrantedPlan(enforced.database.db, user.email, 'gratis');
    expect((await refusal(enforced, user))?.code).toBe('plan_limit');
    const rows = await enforced.database.db.select({ id: documents.id }).from(documents);
    expect(rows.length).toBeGreaterThanOrEqual(5);
  });

  it('AI token quotas follow the plan when limits are enforced', async () => {
    expect(aiTokenQuotaFor('gratis')).toBe(5_000);
    expect(aiTokenQuotaFor({ plan: 'creator' })).toBe(50_000);
    expect(aiTokenQuotaFor({ plan: 'professional' })).toBe(100_000);
    expect(aiTokenQuotaFor({ plan: 'bogus' })).toBe(5_000);
    const user = await createUser(enforced, { plan: 'creator' });
    expect(await aiTokenQuotaForUser({ config: enforced.config, db: enforced.database.db }, user.id)).toBe(
      50_000,
    );
  });
});
