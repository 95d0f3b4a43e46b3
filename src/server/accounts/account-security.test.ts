import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeJwt, SignJWT } from 'jose';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLAB_CLOSE } from '../../shared/editor/collab-protocol';
import { connectCollabClient, waitFor } from '../collab/testing';
import { sessionSchema, sessionSummarySchema } from '../../shared/schemas/auth';
import { sessions } from '../db/schema';
import { outboxDir } from '../mail';
import { createUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import {
  DELAY_AFTER_FAILURES_PER_EMAIL,
  MAX_FAILURES_PER_EMAIL_AND_IP,
  SIGN_IN_FIRST_DELAY_MS,
} from './sign-in-throttle';
import {
  client,
  requestEmailChange,
  signedInMinutesAgo,
  strongPassword,
  tokenFromLink,
  uniqueEmail,
} from './test-helpers';

/** What a stolen access token can and cannot do, the sign-in lockout, the sessions list and revocation. */
let server: TestServer;
let api: ReturnType<typeof client>;

const CHROME_ON_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_ON_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

beforeAll(async () => {
  server = await startTestServer({ env: { TRUST_PROXY: 'true' } });
  api = client(server);
});
afterAll(() => server?.close());

async function signUp(email = uniqueEmail(), password = strongPassword()) {
  const res = await api('POST', '/api/auth/signup', {
    body: { email, password, data: { full_name: 'Ada Writer' } },
  });
  expect(res.status).toBe(200);
  return { email, password, session: sessionSchema.parse(res.body.session) };
}

function signIn(email: string, password: string, headers: Record<string, string> = {}) {
  return api('POST', '/api/auth/token?grant_type=password', { body: { email, password }, headers });
}

async function outboxMail(predicate: (name: string) => boolean) {
  await server.app.deps.mailer.flush();
  const dir = outboxDir(server.config.DATA_DIR);
  const name = (await readdir(dir)).find(predicate);
  if (!name) throw new Error('no such mail in the outbox');
  return JSON.parse(await readFile(path.join(dir, name), 'utf8')) as {
    to: string;
    text: string;
    link: string;
  };
}

describe('re-authentication for what takes an account', () => {
  it('a password change from a session signed in long ago needs the current password; the others sessions end, this one stays', async () => {
    const { email, password, session } = await signUp();
    const other = sessionSchema.parse((await signIn(email, password)).body);
    await signedInMinutesAgo(server, session.access_token, 10);
    const newPassword = strongPassword();

    const stolen = await api('PUT', '/api/auth/user', {
      token: session.access_token,
      body: { password: newPassword },
    });
    expect(stolen.status).toBe(401);
    expect(stolen.body).toEqual({
      message: 'Enter your current password to change your password or e-mail.',
      code: 'reauthentication_needed',
    });
    const wrong = await api('PUT', '/api/auth/user', {
      token: session.access_token,
      body: { password: newPassword, current_password: 'Not-the-password-1' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ message: 'Current password is incorrect.', code: 'invalid_credentials' });
    // Nothing changed and nobody was signed out by the refused attempts.
    expect((await api('GET', '/api/auth/user', { token: other.access_token })).status).toBe(200);
    expect((await signIn(email, password)).status).toBe(200);

    const changed = await api('PUT', '/api/auth/user', {
      token: session.access_token,
      body: { password: newPassword, current_password: password },
    });
    expect(changed.status).toBe(200);
    expect((await api('GET', '/api/auth/user', { token: session.access_token })).status).toBe(200);
    expect((await api('GET', '/api/auth/user', { token: other.access_token })).status).toBe(401);
    expect((await signIn(email, newPassword)).status).toBe(200);
  });

  it('a session that signed in minutes ago may change the password without typing it again', async () => {
    const { email, session } = await signUp();
    const newPassword = strongPassword();
    const res = await api('PUT', '/api/auth/user', {
      token: session.access_token,
      body: { password: newPassword },
    });
    expect(res.status).toBe(200);
    expect((await signIn(email, newPassword)).status).toBe(200);
  });

  it('an e-mail change needs the current password, applies only through the link to the new address and is announced to the old one', async () => {
    const { email, password, session } = await signUp();
    const newEmail = uniqueEmail('moved');
    await requestEmailChange(server, api, { email, password, accessToken: session.access_token }, newEmail);
    expect((await signIn(newEmail, password)).status).toBe(400);

    const notice = await outboxMail((name) => name.includes(`-email_change_notice-${email}`));
    expect(notice.text).toContain(newEmail);
    expect(notice.link).toContain('/reset-password?token=');
    const confirmation = await outboxMail((name) => name.includes(`-email_change-${newEmail}`));
    const { token } = tokenFromLink(confirmation.link, '/auth/confirm');
    const verified = await api('POST', '/api/auth/verify', { body: { type: 'email_change', token } });
    expect(verified.status).toBe(200);
    expect(verified.body.user.email).toBe(newEmail);
    expect((await signIn(newEmail, password)).status).toBe(200);
  });

  it('a name change needs no password', async () => {
    const { session } = await signUp();
    await signedInMinutesAgo(server, session.access_token, 60);
    const res = await api('PUT', '/api/auth/user', {
      token: session.access_token,
      body: { data: { full_name: 'Grace' } },
    });
    expect(res.status).toBe(200);
  });
});

describe('sign-in lockout', () => {
  it('wrong passwords from one IP lock out only that IP; the right password from another IP still signs in', async () => {
    const { email, password } = await signUp();
    const attacker = { 'x-forwarded-for': '198.51.100.7' };
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL_AND_IP; i++) {
      expect((await signIn(email, `Wrong-password-${i}`, attacker)).status).toBe(400);
    }
    const stopped = await signIn(email, password, attacker);
    expect(stopped.status).toBe(429);
    expect(stopped.body.code).toBe('over_request_rate_limit');
    expect(Number(stopped.headers.get('retry-after'))).toBeGreaterThan(60);

    expect((await signIn(email, password, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(200);
    // Still stopped at the attacker's address.
    expect((await signIn(email, `Wrong-password-x`, attacker)).status).toBe(429);
  });

  it('unknown e-mails are throttled the same way (the answer reveals nothing)', async () => {
    const ghost = uniqueEmail('ghost');
    const from = { 'x-forwarded-for': '198.51.100.8' };
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL_AND_IP; i++) {
      expect((await signIn(ghost, `Wrong-password-${i}`, from)).status).toBe(400);
    }
    expect((await signIn(ghost, 'Wrong-password-x', from)).status).toBe(429);
  });

  it('a guess spread over many IPs is slowed for that e-mail, yet the right password still signs in', async () => {
    const { email, password } = await signUp();
    for (let i = 0; i < DELAY_AFTER_FAILURES_PER_EMAIL; i++) {
      expect(
        (await signIn(email, `Wrong-password-${i}`, { 'x-forwarded-for': `198.51.101.${i}` })).status,
      ).toBe(400);
    }
    const started = performance.now();
    const owner = await signIn(email, password, { 'x-forwarded-for': '203.0.113.10' });
    expect(owner.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(SIGN_IN_FIRST_DELAY_MS);
  });

  it('a signed-in thief cannot guess the current password through PUT /user either', async () => {
    const { email, session } = await signUp();
    await signedInMinutesAgo(server, session.access_token, 10);
    const thief = { 'x-forwarded-for': '198.51.100.20' };
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL_AND_IP; i++) {
      const res = await api('PUT', '/api/auth/user', {
        token: session.access_token,
        headers: thief,
        body: { password: strongPassword(), current_password: `Wrong-password-${i}` },
      });
      expect(res.status).toBe(400);
    }
    const stopped = await api('PUT', '/api/auth/user', {
      token: session.access_token,
      headers: thief,
      body: { password: strongPassword(), current_password: 'Wrong-password-x' },
    });
    expect(stopped.status).toBe(429);
    expect(email).toContain('@');
  });
});

describe('access tokens', () => {
  async function tokenFor(
    user: { id: string; email: string; sessionId: string },
    build: (jwt: SignJWT) => SignJWT,
  ) {
    const jwt = new SignJWT({ email: user.email, sid: user.sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setIssuer('quillwright')
      .setAudience('authenticated')
      .setIssuedAt();
    return build(jwt).sign(new TextEncoder().encode(server.config.JWT_SECRET));
  }

  it('a token signed with the real secret but without exp is refused with 401', async () => {
    const user = await createUser(server);
    const withExp = await tokenFor(user, (jwt) => jwt.setExpirationTime('1h'));
    expect((await api('GET', '/api/auth/user', { token: withExp })).status).toBe(200);
    const withoutExp = await tokenFor(user, (jwt) => jwt);
    const res = await api('GET', '/api/auth/user', { token: withoutExp });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('bad_jwt');
  });
});

describe('sessions list', () => {
  it('lists each session with its device and marks this one; one can be signed out, or all others', async () => {
    const email = uniqueEmail();
    const password = strongPassword();
    const signedUp = await api('POST', '/api/auth/signup', {
      body: { email, password, data: { full_name: 'Ada' } },
      headers: { 'user-agent': CHROME_ON_LINUX },
    });
    const laptop = sessionSchema.parse(signedUp.body.session);
    const phone = sessionSchema.parse((await signIn(email, password, { 'user-agent': SAFARI_ON_IOS })).body);
    const tablet = sessionSchema.parse((await signIn(email, password, { 'user-agent': '' })).body);

    const listed = await api('GET', '/api/auth/sessions', { token: laptop.access_token });
    expect(listed.status).toBe(200);
    const list = sessionSummarySchema.array().parse(listed.body);
    expect(list).toHaveLength(3);
    expect(list.filter((s) => s.current).map((s) => s.device)).toEqual(['Chrome on Linux']);
    expect(list.map((s) => s.device).sort()).toEqual(['Chrome on Linux', 'Safari on iOS', 'Unknown device']);

    const phoneId = list.find((s) => s.device === 'Safari on iOS')!.id;
    // Another user cannot end it (404, as if it did not exist).
    const stranger = await createUser(server);
    expect((await api('DELETE', `/api/auth/sessions/${phoneId}`, { token: stranger.token })).status).toBe(
      404,
    );
    expect((await api('GET', '/api/auth/user', { token: phone.access_token })).status).toBe(200);

    expect(
      (await api('DELETE', `/api/auth/sessions/${phoneId}`, { token: laptop.access_token })).status,
    ).toBe(204);
    // At once, though the phone's token was checked a moment ago.
    const phoneAfter = await api('GET', '/api/auth/user', { token: phone.access_token });
    expect(phoneAfter.status).toBe(401);
    expect(phoneAfter.body.code).toBe('session_not_found');
    expect(
      (await api('DELETE', `/api/auth/sessions/${phoneId}`, { token: laptop.access_token })).status,
    ).toBe(404);

    expect((await api('POST', '/api/auth/logout?scope=others', { token: laptop.access_token })).status).toBe(
      204,
    );
    expect((await api('GET', '/api/auth/user', { token: tablet.access_token })).status).toBe(401);
    const remaining = await api('GET', '/api/auth/sessions', { token: laptop.access_token });
    expect(remaining.body).toHaveLength(1);
    expect(remaining.body[0].current).toBe(true);
  });

  it('signing one session out closes its open collaboration socket at the next re-check; the others stay', async () => {
    const user = await createUser(server);
    const created = await api('POST', '/api/documents', {
      token: user.token,
      body: { title: 'Shared desk' },
    });
    expect(created.status).toBe(201);
    const documentId = created.body.id as string;
    const phone = sessionSchema.parse((await signIn(user.email, user.password)).body);
    const phoneId = String(decodeJwt(phone.access_token).sid);
    const onPhone = await connectCollabClient({
      serverUrl: server.url,
      documentId,
      token: phone.access_token,
    });
    const here = await connectCollabClient({ serverUrl: server.url, documentId, token: user.token });
    try {
      expect((await api('DELETE', `/api/auth/sessions/${phoneId}`, { token: user.token })).status).toBe(204);
      onPhone.appendParagraph('typed on the phone after it was signed out');
      await waitFor(
        () => onPhone.refusals.includes(COLLAB_CLOSE.accessRevoked.reason),
        10_000,
        'the phone socket to close',
      );
      expect(here.refusals).toEqual([]);
    } finally {
      onPhone.destroy();
      here.destroy();
    }
  });

  it('last seen is renewed by a request when it is more than a few minutes old', async () => {
    const user = await createUser(server);
    const longAgo = new Date(Date.now() - 60 * 60_000);
    await server.database.db
      .update(sessions)
      .set({ lastSeenAt: longAgo })
      .where(eq(sessions.id, user.sessionId));
    expect((await api('GET', '/api/auth/user', { token: user.token })).status).toBe(200);
    const [row] = await server.database.db
      .select({ lastSeenAt: sessions.lastSeenAt })
      .from(sessions)
      .where(eq(sessions.id, user.sessionId));
    expect(Date.now() - row!.lastSeenAt.getTime()).toBeLessThan(60_000);
  });
});
