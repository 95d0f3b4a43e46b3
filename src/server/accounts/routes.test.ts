import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionSchema, signUpResponseSchema, userSchema } from '../../shared/schemas/auth';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema';
import { outboxDir } from '../mail';
import { signAccessToken } from '../plugins';
import { createUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { client, strongPassword, tokenFromLink, uniqueEmail } from './test-helpers';

let server: TestServer;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  // No SMTP_URL: mail goes to the log and DATA_DIR/outbox, and sign-up needs no confirmation.
  server = await startTestServer({ env: { TRUST_PROXY: 'true' } });
  api = client(server);
});
afterAll(() => server?.close());

async function signUp(email = uniqueEmail(), password = strongPassword(), fullName = 'Ada Writer') {
  const res = await api('POST', '/api/auth/signup', {
    body: { email, password, data: { full_name: fullName } },
  });
  expect(res.status).toBe(200);
  return { email, password, session: sessionSchema.parse(res.body.session) };
}

async function signIn(email: string, password: string) {
  return api('POST', '/api/auth/token?grant_type=password', { body: { email, password } });
}

async function me(token: string) {
  return api('GET', '/api/auth/user', { token });
}

describe('sign-up', () => {
  it('creates a confirmed account and returns a session whose access token works', async () => {
    const email = uniqueEmail();
    const res = await api('POST', '/api/auth/signup', {
      body: {
        email: `  ${email.toUpperCase()} `,
        password: strongPassword(),
        data: { full_name: 'Ada Writer' },
      },
    });
    expect(res.status).toBe(200);
    const body = signUpResponseSchema.parse(res.body);
    expect(body.user).toMatchObject({ email, user_metadata: { full_name: 'Ada Writer' } });
    expect(body.user.email_confirmed_at).not.toBeNull();
    const session = body.session!;
    expect(session.token_type).toBe('bearer');
    expect(session.expires_in).toBe(3600);
    expect(Math.abs(session.expires_at - (Date.now() / 1000 + 3600))).toBeLessThan(60);
    expect(session.user).toEqual(body.user);
    const user = await me(session.access_token);
    expect(user.status).toBe(200);
    expect(userSchema.strict().parse(user.body)).toEqual(body.user);
  });

  it('refuses an e-mail that is already registered, in any letter case, with 422 user_already_exists', async () => {
    const { email } = await signUp();
    const res = await api('POST', '/api/auth/signup', {
      body: { email: email.toUpperCase(), password: strongPassword(), data: { full_name: 'Test Writer' } },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'User already registered', code: 'user_already_exists' });
  });

  it.each([
    ['shorter than 8 characters', 'x7#Kq', ['length']],
    ['in the common-password list', 'iloveyou', ['common']],
    ['common in another letter case', 'PassWord123', ['common']],
    ['short and common', '123456', ['length', 'common']],
    ['equal to the e-mail local part', 'ada.lovelace', ['email']],
    ['equal to the whole e-mail', 'Ada.Lovelace@Example.com', ['email']],
  ])('refuses a password %s with 422 weak_password and its reasons', async (_label, password, reasons) => {
    const res = await api('POST', '/api/auth/signup', {
      body: { email: `ada.lovelace@example.com`, password, data: { full_name: 'Test Writer' } },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('weak_password');
    expect(res.body.reasons).toEqual(reasons);
    expect(typeof res.body.message).toBe('string');
  });

  it('creates no account when the password is weak', async () => {
    const email = uniqueEmail();
    const weak = await api('POST', '/api/auth/signup', {
      body: { email, password: 'password', data: { full_name: 'Test Writer' } },
    });
    expect(weak.status).toBe(422);
    const ok = await api('POST', '/api/auth/signup', {
      body: { email, password: strongPassword(), data: { full_name: 'Test Writer' } },
    });
    expect(ok.status).toBe(200);
  });

  it.each([
    ['no body fields', {}],
    ['a malformed e-mail', { email: 'not-an-email', password: 'Quill-strong-1' }],
    ['a number as e-mail', { email: 42, password: 'Quill-strong-1' }],
    ['a number as password', { email: 'a@example.com', password: 12345678 }],
    ['a string as data', { email: 'a@example.com', password: 'Quill-strong-1', data: 'x' }],
    ['no full name', { email: 'a@example.com', password: 'Quill-strong-1' }],
    ['a blank full name', { email: 'a@example.com', password: 'Quill-strong-1', data: { full_name: '  ' } }],
    ['an array body', [1, 2]],
  ])('answers %s with 400 validation_failed', async (_label, body) => {
    const res = await api('POST', '/api/auth/signup', { body });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body.code).toBe('validation_failed');
    expect(typeof res.body.message).toBe('string');
  });

  it('answers malformed JSON with a 400 JSON error', async () => {
    const res = await api('POST', '/api/auth/signup', { rawBody: '{"email": "a@example.com", ' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toMatchObject({ code: 'invalid_json' });
    expect(res.text).not.toMatch(/<html|at .*\.js/);
  });
});

describe('password sign-in', () => {
  it('returns a new session for the right password', async () => {
    const { email, password } = await signUp();
    const res = await signIn(email.toUpperCase(), password);
    expect(res.status).toBe(200);
    const session = sessionSchema.parse(res.body);
    expect(session.user.email).toBe(email);
    expect((await me(session.access_token)).status).toBe(200);
  });

  it('answers a wrong password and an unknown e-mail alike: 400 invalid_credentials', async () => {
    const { email } = await signUp();
    const wrong = await signIn(email, 'Not-the-password-1');
    const unknown = await signIn(uniqueEmail('nobody'), 'Not-the-password-1');
    const expected = { message: 'Invalid login credentials', code: 'invalid_credentials' };
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual(expected);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(expected);
  });

  it('takes about as long for an unknown e-mail as for a wrong password (a dummy hash is checked)', async () => {
    const { email } = await signUp();
    const time = async (address: string) => {
      const started = performance.now();
      expect((await signIn(address, 'Wrong-password-1')).status).toBe(400);
      return performance.now() - started;
    };
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await time(email));
      unknown.push(await time(uniqueEmail('nobody')));
    }
    // Without the dummy hash an unknown e-mail answers in a small fraction of the time.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.4);
  });

  it('upgrades a hash made with weaker argon2 parameters on the next sign-in', async () => {
    const user = await createUser(server);
    const storedHash = async () =>
      (await server.database.db.select().from(users).where(eq(users.id, user.id)))[0]!.passwordHash;
    expect(await storedHash()).toMatch(/^\$argon2id\$v=19\$m=1024,/);
    expect((await signIn(user.email, user.password)).status).toBe(200);
    expect(await storedHash()).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await signIn(user.email, user.password)).status).toBe(200);
  });

  it('refuses a missing or unknown grant_type and a missing password with 400 validation_failed', async () => {
    for (const url of ['/api/auth/token', '/api/auth/token?grant_type=magic']) {
      const res = await api('POST', url, { body: { email: 'a@example.com', password: 'x' } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    const res = await signIn('a@example.com', '');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });
});

describe('refresh tokens', () => {
  async function refresh(refreshToken: string) {
    return api('POST', '/api/auth/token?grant_type=refresh_token', { body: { refresh_token: refreshToken } });
  }

  it('rotates: each use returns a new pair, and the new access token works', async () => {
    const { session } = await signUp();
    const first = await refresh(session.refresh_token);
    expect(first.status).toBe(200);
    const next = sessionSchema.parse(first.body);
    expect(next.refresh_token).not.toBe(session.refresh_token);
    expect((await me(next.access_token)).status).toBe(200);
    const second = await refresh(next.refresh_token);
    expect(second.status).toBe(200);
  });

  it('reusing a rotated token answers 401 and revokes the whole session, including the newer tokens', async () => {
    const { email, password, session } = await signUp();
    const rotated = sessionSchema.parse((await refresh(session.refresh_token)).body);

    const reuse = await refresh(session.refresh_token);
    expect(reuse.status).toBe(401);
    expect(reuse.body.code).toBe('refresh_token_invalid');

    const newer = await refresh(rotated.refresh_token);
    expect(newer.status).toBe(401);
    expect(newer.body.code).toBe('refresh_token_invalid');
    expect((await me(rotated.access_token)).status).toBe(401);
    expect((await me(session.access_token)).status).toBe(401);

    // Other sessions of the same user are not affected, and signing in again works.
    const again = await signIn(email, password);
    expect(again.status).toBe(200);
    expect((await me(again.body.access_token)).status).toBe(200);
  });

  it('of two concurrent uses of one refresh token exactly one succeeds, and the session is then revoked', async () => {
    const { session } = await signUp();
    const results = await Promise.all([refresh(session.refresh_token), refresh(session.refresh_token)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    const winner = results.find((r) => r.status === 200)!;
    expect((await me(winner.body.access_token)).status).toBe(401);
  });

  it('answers an unknown refresh token with 401 refresh_token_invalid', async () => {
    const res = await refresh('definitely-not-a-real-refresh-token');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('refresh_token_invalid');
  });
});

describe('sign-out scopes', () => {
  async function threeSessions() {
    const { email, password, session: a } = await signUp();
    const b = sessionSchema.parse((await signIn(email, password)).body);
    const c = sessionSchema.parse((await signIn(email, password)).body);
    return { a, b, c };
  }
  async function statuses(...sessions: { access_token: string }[]) {
    return Promise.all(sessions.map(async (s) => (await me(s.access_token)).status));
  }

  it('local (the default) ends only this session, and its refresh token stops working', async () => {
    const { a, b, c } = await threeSessions();
    const res = await api('POST', '/api/auth/logout', { token: a.access_token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await statuses(a, b, c)).toEqual([401, 200, 200]);
    const refresh = await api('POST', '/api/auth/token?grant_type=refresh_token', {
      body: { refresh_token: a.refresh_token },
    });
    expect(refresh.status).toBe(401);
    expect(refresh.body.code).toBe('refresh_token_invalid');
  });

  it('global ends every session of the user', async () => {
    const { a, b, c } = await threeSessions();
    expect((await api('POST', '/api/auth/logout?scope=global', { token: b.access_token })).status).toBe(204);
    expect(await statuses(a, b, c)).toEqual([401, 401, 401]);
  });

  it('others ends every session but this one', async () => {
    const { a, b, c } = await threeSessions();
    expect((await api('POST', '/api/auth/logout?scope=others', { token: b.access_token })).status).toBe(204);
    expect(await statuses(a, b, c)).toEqual([401, 200, 401]);
  });

  it('needs a token (401 session_missing) and a known scope (400)', async () => {
    const anonymous = await api('POST', '/api/auth/logout');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: 'Auth session missing!', code: 'session_missing' });
    const { session } = await signUp();
    const bad = await api('POST', '/api/auth/logout?scope=everyone', { token: session.access_token });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
  });
});

describe('access tokens', () => {
  function base64url(value: unknown): string {
    return Buffer.from(JSON.stringify(value)).toString('base64url');
  }

  it('GET /user without a token answers 401 "Auth session missing!"', async () => {
    const res = await api('GET', '/api/auth/user');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Auth session missing!', code: 'session_missing' });
  });

  it('refuses expired, foreign-signed, unsigned (alg none) and malformed tokens with 401', async () => {
    const { session } = await signUp();
    const claims = {
      userId: session.user.id,
      sessionId: JSON.parse(Buffer.from(session.access_token.split('.')[1]!, 'base64url').toString()).sid,
      email: session.user.email,
    };
    const expired = (await signAccessToken(server.config.JWT_SECRET, claims, -10)).token;
    const foreign = (await signAccessToken('another-secret-that-is-also-long-enough-123', claims)).token;
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({
      sub: claims.userId,
      sid: claims.sessionId,
      email: claims.email,
      iss: 'quillwright',
      aud: 'authenticated',
      iat: now,
      exp: now + 3600,
    })}.`;
    // The genuine token works, so the refusals below are about the token, not the session.
    expect((await me(session.access_token)).status).toBe(200);
    for (const token of [expired, foreign, unsigned, 'not.a.jwt', 'garbage']) {
      const res = await me(token);
      expect(res.status, token).toBe(401);
      expect(res.body.code).toBe('bad_jwt');
      expect(typeof res.body.message).toBe('string');
    }
  });
});

describe('PUT /user', () => {
  it('changes the full name', async () => {
    const { session } = await signUp();
    const res = await api('PUT', '/api/auth/user', {
      token: session.access_token,
      body: { data: { full_name: '  Grace Hopper ' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.user_metadata).toEqual({ full_name: 'Grace Hopper' });
    expect((await me(session.access_token)).body.user_metadata.full_name).toBe('Grace Hopper');
  });

  it('changes the password: weak or unchanged refused, then only the new one signs in and other sessions end', async () => {
    const { email, password, session } = await signUp();
    const other = sessionSchema.parse((await signIn(email, password)).body);
    const weak = await api('PUT', '/api/auth/user', {
      token: session.access_token,
      body: { password: 'short' },
    });
    expect(weak.status).toBe(422);
    expect(weak.body).toMatchObject({ code: 'weak_password', reasons: ['length'] });
    const same = await api('PUT', '/api/auth/user', { token: session.access_token, body: { password } });
    expect(same.status).toBe(422);
    expect(same.body.code).toBe('same_password');

    const newPassword = strongPassword();
    const res = await api('PUT', '/api/auth/user', {
      token: session.access_token,
      body: { password: newPassword },
    });
    expect(res.status).toBe(200);
    expect((await signIn(email, password)).status).toBe(400);
    expect((await signIn(email, newPassword)).status).toBe(200);
    expect((await me(session.access_token)).status).toBe(200);
    expect((await me(other.access_token)).status).toBe(401);
  });

  it('changes the e-mail without SMTP only through the link in the outbox, and refuses one that is taken with 422 email_exists', async () => {
    const { email, password, session } = await signUp();
    const { email: takenEmail } = await signUp();
    const taken = await api('PUT', '/api/auth/user', {
      token: session.access_token,
      body: { email: takenEmail.toUpperCase() },
    });
    expect(taken.status).toBe(422);
    expect(taken.body.code).toBe('email_exists');

    const newEmail = uniqueEmail('moved');
    const res = await api('PUT', '/api/auth/user', {
      token: session.access_token,
      body: { email: newEmail },
    });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe(email);
    expect((await signIn(newEmail, password)).status).toBe(400);

    await server.app.deps.mailer.flush();
    const files = await readdir(outboxDir(server.config.DATA_DIR));
    const confirmation = files.find((f) => f.includes(`-email_change-${newEmail}`));
    expect(confirmation, files.join('\n')).toBeDefined();
    expect(files.some((f) => f.includes(`-email_change_notice-${email}`))).toBe(true);
    const { link } = JSON.parse(
      await readFile(path.join(outboxDir(server.config.DATA_DIR), confirmation!), 'utf8'),
    );
    const { token } = tokenFromLink(link, '/auth/confirm');
    expect((await api('POST', '/api/auth/verify', { body: { type: 'email_change', token } })).status).toBe(
      200,
    );
    expect((await signIn(newEmail, password)).status).toBe(200);
  });

  it('needs a session and valid fields', async () => {
    expect((await api('PUT', '/api/auth/user', { body: { data: { full_name: 'x' } } })).status).toBe(401);
    const { session } = await signUp();
    const res = await api('PUT', '/api/auth/user', { token: session.access_token, body: { email: 'nope' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });
});

describe('recovery without SMTP (outbox)', () => {
  async function outboxFiles(): Promise<string[]> {
    try {
      return await readdir(outboxDir(server.config.DATA_DIR));
    } catch {
      return [];
    }
  }
  async function waitForOutbox(predicate: (name: string) => boolean): Promise<string> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = (await outboxFiles()).find((name) => name.endsWith('.json') && predicate(name));
      if (found) return path.join(outboxDir(server.config.DATA_DIR), found);
      if (Date.now() > deadline) throw new Error('no outbox file');
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  it('answers {} for unknown and known e-mails alike', async () => {
    const { email } = await signUp();
    const known = await api('POST', '/api/auth/recover', { body: { email } });
    const unknown = await api('POST', '/api/auth/recover', { body: { email: uniqueEmail('ghost') } });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual({});
    expect(unknown.text).toBe(known.text);
  });

  it('writes the reset mail with its link to DATA_DIR/outbox; the link resets the password once', async () => {
    const { email, password } = await signUp();
    expect((await api('POST', '/api/auth/recover', { body: { email } })).status).toBe(200);
    const file = await waitForOutbox((name) => name.includes('-recovery-') && name.includes(email));
    const mail = JSON.parse(await readFile(file, 'utf8'));
    expect(mail).toMatchObject({ type: 'recovery', to: email });
    expect(mail.link.startsWith('http://localhost:3000/reset-password?token=')).toBe(true);
    expect(mail.text).toContain(mail.link);
    const { token } = tokenFromLink(mail.link, '/reset-password');

    const verified = await api('POST', '/api/auth/verify', { body: { type: 'recovery', token } });
    expect(verified.status).toBe(200);
    const session = sessionSchema.parse(verified.body);
    const newPassword = strongPassword();
    expect(
      (await api('PUT', '/api/auth/user', { token: session.access_token, body: { password: newPassword } }))
        .status,
    ).toBe(200);
    expect((await signIn(email, newPassword)).status).toBe(200);
    expect((await signIn(email, password)).status).toBe(400);

    const reused = await api('POST', '/api/auth/verify', { body: { type: 'recovery', token } });
    expect(reused.status).toBe(403);
    expect(reused.body.code).toBe('otp_expired');
  });

  it('refuses unknown tokens, and a token presented as another type', async () => {
    const bogus = await api('POST', '/api/auth/verify', { body: { type: 'recovery', token: 'bogus-token' } });
    expect(bogus.status).toBe(403);
    expect(bogus.body).toEqual({ message: 'Email link is invalid or has expired', code: 'otp_expired' });

    const { email } = await signUp();
    await api('POST', '/api/auth/recover', { body: { email } });
    const file = await waitForOutbox((name) => name.includes('-recovery-') && name.includes(email));
    const { token } = tokenFromLink(JSON.parse(await readFile(file, 'utf8')).link, '/reset-password');
    const wrongType = await api('POST', '/api/auth/verify', { body: { type: 'signup', token } });
    expect(wrongType.status).toBe(403);
    // The failed attempt did not consume it.
    expect((await api('POST', '/api/auth/verify', { body: { type: 'recovery', token } })).status).toBe(200);
    const badType = await api('POST', '/api/auth/verify', { body: { type: 'magic', token } });
    expect(badType.status).toBe(400);
  });
});

describe('rate limits', () => {
  const fixedIp = (ip: string) => ({ 'x-forwarded-for': ip });

  it('token endpoint: per IP at most 30 password sign-ins and, counted apart, 60 refreshes a minute', async () => {
    const headers = fixedIp('192.0.2.10');
    const passwordGrant = () =>
      api('POST', '/api/auth/token?grant_type=password', {
        headers,
        body: { email: uniqueEmail('nobody'), password: 'Wrong-password-1' },
      });
    const refreshGrant = () =>
      api('POST', '/api/auth/token?grant_type=refresh_token', {
        headers,
        body: { refresh_token: 'unknown-refresh-token' },
      });
    for (let i = 0; i < 30; i++) expect((await passwordGrant()).status).toBe(400);
    const limited = await passwordGrant();
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('over_request_rate_limit');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    for (let i = 0; i < 60; i++) expect((await refreshGrant()).status).toBe(401);
    expect((await refreshGrant()).status).toBe(429);

    const elsewhere = await api('POST', '/api/auth/token?grant_type=password', {
      headers: fixedIp('192.0.2.11'),
      body: { email: uniqueEmail('nobody'), password: 'Wrong-password-1' },
    });
    expect(elsewhere.status).toBe(400);
  });

  it('sign-up: at most 10 a minute per IP', async () => {
    const headers = fixedIp('192.0.2.20');
    for (let i = 0; i < 10; i++) {
      // Weak passwords: counted, but cheap (no hashing).
      const res = await api('POST', '/api/auth/signup', {
        headers,
        body: { email: uniqueEmail(), password: 'x', data: { full_name: 'Test Writer' } },
      });
      expect(res.status).toBe(422);
    }
    const limited = await api('POST', '/api/auth/signup', {
      headers,
      body: { email: uniqueEmail(), password: strongPassword(), data: { full_name: 'Test Writer' } },
    });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('over_request_rate_limit');
  });

  it('recover: at most 5 an hour per e-mail, answered the same for unknown addresses', async () => {
    for (const email of [(await signUp()).email, uniqueEmail('ghost')]) {
      for (let i = 0; i < 5; i++) {
        expect((await api('POST', '/api/auth/recover', { body: { email } })).status).toBe(200);
      }
      const limited = await api('POST', '/api/auth/recover', { body: { email: email.toUpperCase() } });
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('over_request_rate_limit');
    }
  });
});

describe('body limit', () => {
  it('answers a body over MAX_BODY_BYTES with 413 JSON', async () => {
    const small = await startTestServer({ env: { MAX_BODY_BYTES: '1024' } });
    try {
      const res = await small.request('POST', '/api/auth/signup', {
        body: { email: uniqueEmail(), password: strongPassword(), data: { full_name: 'x'.repeat(4096) } },
      });
      expect(res.status).toBe(413);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(res.body).toEqual({ message: 'Request body is too large', code: 'payload_too_large' });
      const fits = await small.request('POST', '/api/auth/signup', {
        body: { email: uniqueEmail(), password: strongPassword(), data: { full_name: 'Test Writer' } },
      });
      expect(fits.status).toBe(200);
    } finally {
      await small.close();
    }
  });
});
