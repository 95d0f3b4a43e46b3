import { and, eq } from 'drizzle-orm';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLAB_CLOSE } from '../../shared/editor/collab-protocol';
import { connectCollabClient, waitFor, type CollabClient } from '../collab/testing';
import { emailTokens, sessions } from '../db/schema';
import {
  client,
  startSmtpServer,
  strongPassword,
  tokenFromLink,
  uniqueEmail,
} from '../accounts/test-helpers';
import { hashToken, signAccessToken } from '../plugins';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

/**
 * Auth abuse (docs/reliability.md, section 5), beyond what src/server/accounts/*.test.ts already pins down
 * (those cover the REST side of forged tokens, rotation, reuse, per-IP and per-e-mail limits). Here: the
 * collaboration socket under the same attacks, token confusion between access and share tokens, forged share
 * tokens, brute force that never learns the password, reset links that expire and can be redeemed once even
 * concurrently, and e-mail enumeration through bodies, statuses and timing.
 */

const smtpHolder: { smtp?: Awaited<ReturnType<typeof startSmtpServer>> } = {};
let server: TestServer;
let api: ReturnType<typeof client>;
const clients: CollabClient[] = [];

beforeAll(async () => {
  // SMTP on: sign-up needs confirmation, which is the configuration where enumeration can be avoided.
  smtpHolder.smtp = await startSmtpServer();
  server = await startTestServer({ env: { TRUST_PROXY: 'true', SMTP_URL: smtpHolder.smtp.url } });
  api = client(server);
});

afterAll(async () => {
  for (const c of clients.splice(0)) c.destroy();
  await server?.close();
  await smtpHolder.smtp?.close();
});

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const key = (secret: string) => new TextEncoder().encode(secret);
const FOREIGN_SECRET = 'a-completely-different-secret-of-enough-length-42';

async function newDocument(user: TestUser, text = 'private words'): Promise<string> {
  const res = await api('POST', '/api/documents', {
    token: user.token,
    body: {
      title: 'Abuse target',
      content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] },
    },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** Connects and waits for the first sync or a refusal; returns the refusal reason or 'synced'. */
async function socketOutcome(
  documentId: string,
  token: string | null,
): Promise<{ outcome: string; client: CollabClient }> {
  const c = await connectCollabClient({ serverUrl: server.url, documentId, token, waitForSync: false });
  clients.push(c);
  await waitFor(() => c.provider.isSynced || c.refusals.length > 0, 10_000, 'socket outcome');
  return { outcome: c.provider.isSynced ? 'synced' : c.refusals[0]!, client: c };
}

/** Access-token claims of a user's session, as the server signs them. */
function claimsOf(user: TestUser) {
  return { userId: user.id, sessionId: user.sessionId, email: user.email };
}

describe('forged, expired and revoked tokens on the collaboration socket', () => {
  it('refuses a foreign-signed, alg-none, wrong-algorithm, expired and revoked access token; the genuine one works', async () => {
    const user = await createUser(server);
    const documentId = await newDocument(user);
    const now = Math.floor(Date.now() / 1000);
    const payload = {
      sub: user.id,
      sid: user.sessionId,
      email: user.email,
      iss: 'quillwright',
      aud: 'authenticated',
      iat: now,
      exp: now + 3600,
    };
    const forged = {
      foreignKey: (await signAccessToken(FOREIGN_SECRET, claimsOf(user))).token,
      algNone: `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`,
      // The right secret but HS512: only HS256 is accepted.
      hs512: await new SignJWT(payload)
        .setProtectedHeader({ alg: 'HS512' })
        .sign(key(server.config.JWT_SECRET)),
      // Signed correctly but for another audience (a share token's) — token confusion.
      wrongAudience: await new SignJWT({ ...payload, aud: 'share' })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(key(server.config.JWT_SECRET)),
      expired: (await signAccessToken(server.config.JWT_SECRET, claimsOf(user), -5)).token,
      tampered: (() => {
        const [h, , s] = user.token.split('.');
        return `${h}.${b64({ ...payload, sub: '00000000-0000-4000-8000-000000000000' })}.${s}`;
      })(),
    };
    for (const [name, token] of Object.entries(forged)) {
      const rest = await api('GET', `/api/documents/${documentId}`, { token });
      expect(rest.status, `REST with ${name}`).toBe(401);
      const { outcome, client: c } = await socketOutcome(documentId, token);
      expect(outcome, `socket with ${name}`).toBe(COLLAB_CLOSE.unauthorized.reason);
      expect(c.paragraphs(), `${name} saw no content`).toEqual([]);
    }

    // Revoked (signed out) session: refused on both sides too.
    const revoked = await createUser(server);
    const revokedDoc = await newDocument(revoked);
    expect((await api('POST', '/api/auth/logout', { token: revoked.token })).status).toBe(204);
    expect((await api('GET', `/api/documents/${revokedDoc}`, { token: revoked.token })).status).toBe(401);
    expect((await socketOutcome(revokedDoc, revoked.token)).outcome).toBe(COLLAB_CLOSE.unauthorized.reason);

    // And the genuine token does open it, so the refusals above are about the tokens.
    expect((await socketOutcome(documentId, user.token)).outcome).toBe('synced');
  });

  it('refresh-token reuse revokes the family: its access tokens stop working on REST and the open socket is closed', async () => {
    const email = uniqueEmail('reuse');
    const password = strongPassword();
    await createUser(server, { email, password });
    const signIn = await api('POST', '/api/auth/token?grant_type=password', { body: { email, password } });
    expect(signIn.status).toBe(200);
    const first = signIn.body as { access_token: string; refresh_token: string };
    const owner: TestUser = {
      id: decodeJwt(first.access_token).sub!,
      email,
      password,
      token: first.access_token,
      sessionId: decodeJwt(first.access_token).sid as string,
    };
    const documentId = await newDocument(owner);

    const rotated = await api('POST', '/api/auth/token?grant_type=refresh_token', {
      body: { refresh_token: first.refresh_token },
    });
    expect(rotated.status).toBe(200);
    const live = await socketOutcome(documentId, rotated.body.access_token as string);
    expect(live.outcome).toBe('synced');

    // A thief replays the old refresh token: the whole family dies.
    const replay = await api('POST', '/api/auth/token?grant_type=refresh_token', {
      body: { refresh_token: first.refresh_token },
    });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('refresh_token_invalid');
    expect((await api('GET', '/api/auth/user', { token: rotated.body.access_token })).status).toBe(401);

    // The socket opened with the family's token is closed at its next message after the re-check window.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    live.client.appendParagraph('typed after the family was revoked');
    await waitFor(
      () => live.client.refusals.includes(COLLAB_CLOSE.accessRevoked.reason),
      10_000,
      'socket closed',
    );
    const stored = await api('GET', `/api/documents/${documentId}`, {
      token: await createSessionToken(owner),
    });
    expect(JSON.stringify(stored.body.content)).not.toContain('typed after the family was revoked');
    // New connections with any of the family's tokens are refused.
    for (const token of [first.access_token, rotated.body.access_token as string]) {
      expect((await socketOutcome(documentId, token)).outcome).toBe(COLLAB_CLOSE.unauthorized.reason);
    }
  });

  it('changing the password ends the other sessions’ open sockets', async () => {
    const user = await createUser(server);
    const documentId = await newDocument(user);
    const otherSessionToken = await createSessionToken(user);
    const live = await socketOutcome(documentId, otherSessionToken);
    expect(live.outcome).toBe('synced');
    const changed = await api('PUT', '/api/auth/user', {
      token: user.token,
      body: { password: strongPassword() },
    });
    expect(changed.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    live.client.appendParagraph('after the password change');
    await waitFor(
      () => live.client.refusals.includes(COLLAB_CLOSE.accessRevoked.reason),
      10_000,
      'socket closed',
    );
    // The session that changed it keeps working.
    expect((await socketOutcome(documentId, user.token)).outcome).toBe('synced');
  });
});

/** A second signed-in session of the same user. */
async function createSessionToken(user: TestUser): Promise<string> {
  const [row] = await server.database.db
    .insert(sessions)
    .values({ userId: user.id })
    .returning({ id: sessions.id });
  return (await signAccessToken(server.config.JWT_SECRET, { ...claimsOf(user), sessionId: row!.id })).token;
}

describe('share tokens', () => {
  async function sharedDocument(allowEditing: boolean, password?: string) {
    const owner = await createUser(server);
    const documentId = await newDocument(owner, 'shared words');
    const put = await api('PUT', `/api/documents/${documentId}/share`, {
      token: owner.token,
      body: { isPublic: true, allowEditing, ...(password ? { password } : {}) },
    });
    expect(put.status).toBe(200);
    return { owner, documentId };
  }

  it('a forged share token (alg none, foreign key, edited claims, expired) grants nothing on REST or the socket', async () => {
    const { documentId } = await sharedDocument(false, 'open sesame');
    const unlocked = await api('POST', `/api/shared/${documentId}/unlock`, {
      body: { password: 'open sesame' },
    });
    expect(unlocked.status).toBe(200);
    const genuine = unlocked.body.shareToken as string;
    const claims = decodeJwt(genuine);
    const now = Math.floor(Date.now() / 1000);
    const sign = (payload: Record<string, unknown>, secret = server.config.JWT_SECRET) =>
      new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).sign(key(secret));
    const forged = {
      algNone: `${b64({ alg: 'none' })}.${b64({ ...claims, edit: true })}.`,
      foreignKey: await sign({ ...claims }, FOREIGN_SECRET),
      // Editing asked for by editing the claims of a genuine token (signature no longer matches).
      editedClaims: `${genuine.split('.')[0]}.${b64({ ...claims, edit: true })}.${genuine.split('.')[2]}`,
      expired: await sign({ ...claims, iat: now - 7200, exp: now - 3600 }),
      // An access token of someone else presented as a share token.
      accessToken: (await createUser(server)).token,
    };
    for (const [name, token] of Object.entries(forged)) {
      const rest = await api('GET', `/api/shared/${documentId}`, { headers: { 'x-share-token': token } });
      expect(rest.status, `REST with ${name}`).toBe(401);
      expect(rest.body.code).toBe('share_password_required');
      const { outcome } = await socketOutcome(documentId, token);
      expect(outcome, `socket with ${name}`).not.toBe('synced');
    }
    // A share token is not an access token either.
    expect((await api('GET', `/api/documents/${documentId}`, { token: genuine })).status).toBe(401);
    expect((await api('GET', '/api/documents', { token: genuine })).status).toBe(401);
  });

  it('a view-only visitor gets no socket (so cannot write through it), and turning the link off closes visitors', async () => {
    const viewOnly = await sharedDocument(false);
    const read = await api('GET', `/api/shared/${viewOnly.documentId}`);
    expect(read.status).toBe(200);
    const reader = await socketOutcome(viewOnly.documentId, read.body.shareToken as string);
    expect(reader.outcome).toBe(COLLAB_CLOSE.viewOnly.reason);
    reader.client.appendParagraph('vandalism');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const stored = await api('GET', `/api/documents/${viewOnly.documentId}`, { token: viewOnly.owner.token });
    expect(JSON.stringify(stored.body.content)).not.toContain('vandalism');

    const { owner, documentId } = await sharedDocument(true);
    const shared = await api('GET', `/api/shared/${documentId}`);
    const visitor = await socketOutcome(documentId, shared.body.shareToken as string);
    expect(visitor.outcome).toBe('synced');
    const off = await api('PUT', `/api/documents/${documentId}/share`, {
      token: owner.token,
      body: { isPublic: false },
    });
    expect(off.status).toBe(200);
    await waitFor(
      () => visitor.client.refusals.includes(COLLAB_CLOSE.accessRevoked.reason),
      10_000,
      'visitor closed',
    );
    expect((await socketOutcome(documentId, shared.body.shareToken as string)).outcome).not.toBe('synced');
  });
});

describe('brute force', () => {
  it('guessing a password from one address: rate-limited before the right guess, which then is refused too', async () => {
    const victim = await createUser(server);
    const ip = { 'x-forwarded-for': '198.51.100.7' };
    const guesses = Array.from({ length: 40 }, (_, i) => (i === 25 ? victim.password : `guess-${i}-Quill`));
    const statuses: number[] = [];
    for (const password of guesses) {
      statuses.push(
        (
          await api('POST', '/api/auth/token?grant_type=password', {
            headers: ip,
            body: { email: victim.email, password },
          })
        ).status,
      );
    }
    expect(statuses).not.toContain(200);
    expect(statuses).toContain(429);
    expect(statuses.indexOf(429)).toBeLessThanOrEqual(10);
  });

  it('guessing a share password from one address is rate-limited and the right password is refused meanwhile', async () => {
    const owner = await createUser(server);
    const documentId = await newDocument(owner);
    await api('PUT', `/api/documents/${documentId}/share`, {
      token: owner.token,
      body: { isPublic: true, password: 'correct horse' },
    });
    const ip = { 'x-forwarded-for': '198.51.100.8' };
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const password = i === 8 ? 'correct horse' : `guess ${i}`;
      statuses.push(
        (await api('POST', `/api/shared/${documentId}/unlock`, { headers: ip, body: { password } })).status,
      );
    }
    expect(statuses).not.toContain(200);
    expect(statuses).toContain(429);
  });

  // An attacker rotating addresses (X-Forwarded-For behind TRUST_PROXY, or a botnet) is stopped address by
  // address; a limit on the whole document would lock every real visitor out along with them.
  it('guessing a share password from many addresses stops each address, and the visitor with the password gets in', async () => {
    const owner = await createUser(server);
    const documentId = await newDocument(owner);
    await api('PUT', `/api/documents/${documentId}/share`, {
      token: owner.token,
      body: { isPublic: true, password: 'correct horse' },
    });
    for (let address = 0; address < 5; address++) {
      const ip = { 'x-forwarded-for': `203.0.113.${address + 100}` };
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        statuses.push(
          (
            await api('POST', `/api/shared/${documentId}/unlock`, {
              headers: ip,
              body: { password: `guess ${address}-${i}` },
            })
          ).status,
        );
      }
      expect(statuses).not.toContain(200);
      expect(statuses.slice(-3)).toEqual([429, 429, 429]);
    }
    const visitor = await api('POST', `/api/shared/${documentId}/unlock`, {
      body: { password: 'correct horse' },
    });
    expect(visitor.status).toBe(200);
  });
});

describe('password reset links', () => {
  async function resetToken(email: string): Promise<string> {
    const before = smtpHolder.smtp!.mails.length;
    expect((await api('POST', '/api/auth/recover', { body: { email } })).status).toBe(200);
    await waitFor(
      () =>
        smtpHolder
          .smtp!.mails.slice(before)
          .some((m) => m.to.includes(email) && m.decoded.includes('/reset-password')),
      10_000,
      'reset mail',
    );
    const mail = smtpHolder
      .smtp!.mails.slice(before)
      .find((m) => m.to.includes(email) && m.decoded.includes('/reset-password'))!;
    return tokenFromLink(mail.decoded, '/reset-password').token;
  }

  it('expire: a link past its hour is refused with 403 otp_expired (and not consumed by the attempt)', async () => {
    const user = await createUser(server);
    const token = await resetToken(user.email);
    await server.database.db
      .update(emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailTokens.tokenHash, hashToken(token)));
    const res = await api('POST', '/api/auth/verify', { body: { type: 'recovery', token } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Email link is invalid or has expired', code: 'otp_expired' });
  });

  it('are single-use even when redeemed concurrently, and a newer link voids the older one', async () => {
    const user = await createUser(server);
    const token = await resetToken(user.email);
    const attempts = await Promise.all(
      Array.from({ length: 5 }, () => api('POST', '/api/auth/verify', { body: { type: 'recovery', token } })),
    );
    expect(attempts.map((a) => a.status).sort()).toEqual([200, 403, 403, 403, 403]);

    const older = await resetToken(user.email);
    const newer = await resetToken(user.email);
    expect((await api('POST', '/api/auth/verify', { body: { type: 'recovery', token: older } })).status).toBe(
      403,
    );
    expect((await api('POST', '/api/auth/verify', { body: { type: 'recovery', token: newer } })).status).toBe(
      200,
    );
    const [row] = await server.database.db
      .select({ usedAt: emailTokens.usedAt })
      .from(emailTokens)
      .where(and(eq(emailTokens.tokenHash, hashToken(newer)), eq(emailTokens.type, 'recovery')));
    expect(row?.usedAt).not.toBeNull();
  });
});

describe('e-mail enumeration', () => {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  async function timed(fn: () => Promise<{ status: number; text: string }>) {
    const started = performance.now();
    const res = await fn();
    return { ms: performance.now() - started, res };
  }
  /**
   * Generous (the machine is shared and noisy): what this catches is an order-of-magnitude gap, such as a
   * sign-in that skips the password hash for unknown addresses (~15× here when tried).
   */
  function expectSimilar(known: number[], unknown: number[], what: string) {
    const [k, u] = [median(known), median(unknown)];
    const close = Math.abs(k - u) < 30 || (u > k / 4 && u < k * 4);
    expect(close, `${what}: median known ${k.toFixed(1)} ms vs unknown ${u.toFixed(1)} ms`).toBe(true);
  }

  it('recover and resend answer identically for known, unconfirmed and unknown addresses', async () => {
    const known = await createUser(server);
    const unconfirmed = uniqueEmail('unconfirmed');
    expect(
      (
        await api('POST', '/api/auth/signup', {
          body: { email: unconfirmed, password: strongPassword(), data: { full_name: 'Test Writer' } },
        })
      ).status,
    ).toBe(200);
    for (const path of ['/api/auth/recover', '/api/auth/resend']) {
      const answers = await Promise.all(
        [known.email, unconfirmed, uniqueEmail('ghost')].map((email) =>
          api('POST', path, { body: path.endsWith('resend') ? { type: 'signup', email } : { email } }),
        ),
      );
      for (const answer of answers) {
        expect(answer.status, path).toBe(200);
        expect(answer.text, path).toBe(answers[0]!.text);
      }
    }
  });

  it('sign-in and recover take about as long for a known address as for an unknown one (medians)', async () => {
    // Accounts made through sign-up, so their hashes have the production argon2 cost (the factory's are
    // cheap, which would make known addresses look faster). Unconfirmed is fine: a wrong password is
    // refused before the confirmation is looked at.
    const accounts: string[] = [];
    for (let i = 0; i < 2; i++) {
      const email = uniqueEmail('timing');
      expect(
        (
          await api('POST', '/api/auth/signup', {
            body: { email, password: strongPassword(), data: { full_name: 'Test Writer' } },
          })
        ).status,
      ).toBe(200);
      accounts.push(email);
    }
    const signInKnown: number[] = [];
    const signInUnknown: number[] = [];
    const recoverKnown: number[] = [];
    const recoverUnknown: number[] = [];
    // Interleaved, so load on the shared machine hits both sides alike. Sign-in: 10 a minute per e-mail,
    // so the known side alternates between two accounts.
    // Warm-up: the first unknown address computes the dummy hash once.
    await api('POST', '/api/auth/token?grant_type=password', {
      body: { email: uniqueEmail('ghost'), password: 'Wrong-guess-99' },
    });
    for (let i = 0; i < 10; i++) {
      const email = accounts[i % 2]!;
      const a = await timed(() =>
        api('POST', '/api/auth/token?grant_type=password', {
          body: { email, password: 'Wrong-guess-99' },
        }),
      );
      const b = await timed(() =>
        api('POST', '/api/auth/token?grant_type=password', {
          body: { email: uniqueEmail('ghost'), password: 'Wrong-guess-99' },
        }),
      );
      expect(a.res.status).toBe(400);
      expect(b.res.text).toBe(a.res.text);
      signInKnown.push(a.ms);
      signInUnknown.push(b.ms);
    }
    const recoverAccounts = await Promise.all(Array.from({ length: 4 }, () => createUser(server)));
    for (let i = 0; i < 8; i++) {
      const account = recoverAccounts[i % 4]!;
      const a = await timed(() => api('POST', '/api/auth/recover', { body: { email: account.email } }));
      const b = await timed(() =>
        api('POST', '/api/auth/recover', { body: { email: uniqueEmail('ghost') } }),
      );
      expect(b.res.text).toBe(a.res.text);
      recoverKnown.push(a.ms);
      recoverUnknown.push(b.ms);
    }
    console.log(
      `enumeration timing (median ms): sign-in known ${median(signInKnown).toFixed(1)} / unknown ${median(signInUnknown).toFixed(1)}; ` +
        `recover known ${median(recoverKnown).toFixed(1)} / unknown ${median(recoverUnknown).toFixed(1)}`,
    );
    expectSimilar(signInKnown, signInUnknown, 'sign-in');
    expectSimilar(recoverKnown, recoverUnknown, 'recover');
  });

  // With SMTP on (sign-up needs confirmation, so the answer carries no session either way), a registered
  // address gets the same 200 `{ user, session: null }` as a new one; its owner gets a mail instead.
  it('sign-up with confirmation on does not reveal whether an address is registered', async () => {
    const existing = await createUser(server);
    const fresh = await api('POST', '/api/auth/signup', {
      body: { email: uniqueEmail('fresh'), password: strongPassword(), data: { full_name: 'Test Writer' } },
    });
    const taken = await api('POST', '/api/auth/signup', {
      body: { email: existing.email, password: strongPassword(), data: { full_name: 'Test Writer' } },
    });
    expect(fresh.status).toBe(200);
    expect(taken.status).toBe(fresh.status);
    expect(Object.keys(taken.body).sort()).toEqual(Object.keys(fresh.body).sort());
    expect(taken.body.session).toBeNull();
  });
});
