import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionSchema, signUpResponseSchema } from '../../shared/schemas/auth';
import { outboxDir } from '../mail';
import { startTestServer, type TestServer } from '../test/server';
import {
  client,
  requestEmailChange,
  startSmtpServer,
  strongPassword,
  tokenFromLink,
  uniqueEmail,
} from './test-helpers';

/** With SMTP_URL set, mail goes to a real SMTP server on loopback and sign-up needs confirmation. */
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let server: TestServer;
let api: ReturnType<typeof client>;
const adminEmail = uniqueEmail('owner');

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({
    env: {
      TRUST_PROXY: 'true',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Quillwright <auth@quillwright.test>',
      ADMIN_EMAIL: adminEmail,
    },
  });
  api = client(server);
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const mailTo = (address: string, path: string) => (mail: { to: string[]; decoded: string }) =>
  mail.to.includes(address) && mail.decoded.includes(path);

async function signIn(email: string, password: string) {
  return api('POST', '/api/auth/token?grant_type=password', { body: { email, password } });
}

/** Signs up and follows the confirmation link, as a new user would. */
async function confirmedUser() {
  const email = uniqueEmail();
  const password = strongPassword();
  expect(
    (await api('POST', '/api/auth/signup', { body: { email, password, data: { full_name: 'Test Writer' } } }))
      .status,
  ).toBe(200);
  const mail = await smtp.waitForMail(mailTo(email, '/auth/confirm'));
  const { token } = tokenFromLink(mail.decoded, '/auth/confirm');
  expect((await api('POST', '/api/auth/verify', { body: { type: 'signup', token } })).status).toBe(200);
  return { email, password };
}

describe('sign-up with SMTP', () => {
  it('requires confirming the e-mail: no session, sign-in refused until the mailed link is followed', async () => {
    const email = uniqueEmail();
    const password = strongPassword();
    const res = await api('POST', '/api/auth/signup', {
      body: { email, password, data: { full_name: 'Mary Shelley' } },
    });
    expect(res.status).toBe(200);
    const body = signUpResponseSchema.parse(res.body);
    expect(body.session).toBeNull();
    expect(body.user).toMatchObject({
      email,
      email_confirmed_at: null,
      user_metadata: { full_name: 'Mary Shelley' },
    });

    const early = await signIn(email, password);
    expect(early.status).toBe(400);
    expect(early.body).toEqual({ message: 'Email not confirmed', code: 'email_not_confirmed' });
    // The wrong password still says only "invalid credentials".
    expect((await signIn(email, 'Wrong-password-1')).body.code).toBe('invalid_credentials');

    const mail = await smtp.waitForMail(mailTo(email, '/auth/confirm'));
    expect(mail.from).toBe('auth@quillwright.test');
    const { token, link } = tokenFromLink(mail.decoded, '/auth/confirm');
    expect(link.startsWith('http://localhost:3000/auth/confirm?token=')).toBe(true);
    expect(link).toContain('type=signup');

    const verified = await api('POST', '/api/auth/verify', { body: { type: 'signup', token } });
    expect(verified.status).toBe(200);
    const session = sessionSchema.parse(verified.body);
    expect(session.user.email_confirmed_at).not.toBeNull();
    expect((await api('GET', '/api/auth/user', { token: session.access_token })).status).toBe(200);
    expect((await signIn(email, password)).status).toBe(200);

    const reused = await api('POST', '/api/auth/verify', { body: { type: 'signup', token } });
    expect(reused.status).toBe(403);
    expect(reused.body.code).toBe('otp_expired');
  });

  it('resend mails a new confirmation link and the older link stops working', async () => {
    const email = uniqueEmail();
    await api('POST', '/api/auth/signup', {
      body: { email, password: strongPassword(), data: { full_name: 'Test Writer' } },
    });
    const first = tokenFromLink(
      (await smtp.waitForMail(mailTo(email, '/auth/confirm'))).decoded,
      '/auth/confirm',
    );
    const res = await api('POST', '/api/auth/resend', { body: { type: 'signup', email } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const second = await smtp.waitForMail(
      (mail) => mailTo(email, '/auth/confirm')(mail) && !mail.decoded.includes(first.token),
    );
    const { token } = tokenFromLink(second.decoded, '/auth/confirm');
    expect(
      (await api('POST', '/api/auth/verify', { body: { type: 'signup', token: first.token } })).status,
    ).toBe(403);
    expect((await api('POST', '/api/auth/verify', { body: { type: 'signup', token } })).status).toBe(200);
  });
});

describe('password reset over SMTP', () => {
  it('mails a reset link; following it and setting a new password lets the user in with the new one only', async () => {
    const { email, password } = await confirmedUser();
    const ghost = uniqueEmail('ghost');
    const unknown = await api('POST', '/api/auth/recover', { body: { email: ghost } });
    const known = await api('POST', '/api/auth/recover', { body: { email: email.toUpperCase() } });
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(unknown.text).toBe(known.text);
    expect(known.body).toEqual({});

    const mail = await smtp.waitForMail(mailTo(email, '/reset-password'));
    expect(mail.raw).toMatch(/^Subject: Reset your Quillwright password/m);
    const { token, link } = tokenFromLink(mail.decoded, '/reset-password');
    expect(link).toBe(`http://localhost:3000/reset-password?token=${token}`);

    const verified = await api('POST', '/api/auth/verify', { body: { type: 'recovery', token } });
    expect(verified.status).toBe(200);
    const session = sessionSchema.parse(verified.body);
    expect(session.user.email).toBe(email);

    const newPassword = strongPassword();
    const updated = await api('PUT', '/api/auth/user', {
      token: session.access_token,
      body: { password: newPassword },
    });
    expect(updated.status).toBe(200);

    expect((await signIn(email, newPassword)).status).toBe(200);
    const old = await signIn(email, password);
    expect(old.status).toBe(400);
    expect(old.body.code).toBe('invalid_credentials');

    const reused = await api('POST', '/api/auth/verify', { body: { type: 'recovery', token } });
    expect(reused.status).toBe(403);
    expect(reused.body.code).toBe('otp_expired');

    // No mail ever went to the unknown address, and nothing went to the outbox.
    expect(smtp.mails.some((m) => m.to.includes(ghost))).toBe(false);
    expect(existsSync(outboxDir(server.config.DATA_DIR))).toBe(false);
  });
});

describe('ADMIN_EMAIL with SMTP', () => {
  it('makes that account admin only once the address is confirmed through the mailed link', async () => {
    const password = strongPassword();
    const res = await api('POST', '/api/auth/signup', {
      body: { email: adminEmail, password, data: { full_name: 'Instance Owner' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.user.role).toBe('member');
    const mail = await smtp.waitForMail(mailTo(adminEmail, '/auth/confirm'));
    const { token } = tokenFromLink(mail.decoded, '/auth/confirm');
    const verified = await api('POST', '/api/auth/verify', { body: { type: 'signup', token } });
    expect(verified.status).toBe(200);
    expect(verified.body.user.role).toBe('admin');
    expect((await api('GET', '/api/auth/user', { token: verified.body.access_token })).body.role).toBe(
      'admin',
    );
  });
});

describe('e-mail change over SMTP', () => {
  it('needs the current password, tells the old address, and keeps it until the link mailed to the new one is followed', async () => {
    const { email, password } = await confirmedUser();
    const session = sessionSchema.parse((await signIn(email, password)).body);
    const newEmail = uniqueEmail('moved');
    await requestEmailChange(server, api, { email, password, accessToken: session.access_token }, newEmail);

    // The current address hears of it at once, with a way to take the account back.
    const notice = await smtp.waitForMail((m) => m.to.includes(email) && m.decoded.includes(newEmail));
    expect(notice.decoded).toContain('/reset-password?token=');

    const mail = await smtp.waitForMail(mailTo(newEmail, '/auth/confirm'));
    const { token, link } = tokenFromLink(mail.decoded, '/auth/confirm');
    expect(link).toContain('type=email_change');
    expect((await signIn(newEmail, password)).status).toBe(400);

    const verified = await api('POST', '/api/auth/verify', { body: { type: 'email_change', token } });
    expect(verified.status).toBe(200);
    expect(verified.body.user.email).toBe(newEmail);
    expect((await signIn(newEmail, password)).status).toBe(200);
    expect((await signIn(email, password)).status).toBe(400);
  });
});
