import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { randomBytes } from 'node:crypto';
import { SMTPServer } from 'smtp-server';
import { expect } from 'vitest';
import { sessions } from '../db/schema';
import type { ApiResponse, RequestOptions, TestServer } from '../test/server';

/** Moves the sign-in of the access token's session into the past (beyond the re-authentication window). */
export async function signedInMinutesAgo(server: TestServer, accessToken: string, minutes: number) {
  const sessionId = String(decodeJwt(accessToken).sid);
  await server.database.db
    .update(sessions)
    .set({ createdAt: new Date(Date.now() - minutes * 60_000) })
    .where(eq(sessions.id, sessionId));
  return sessionId;
}

/**
 * Asks to move the account to `newEmail` from a session that signed in a while ago: refused without the current
 * password (a stolen session alone cannot take the account), accepted with it, and the account keeps its
 * address until the link mailed to the new one is followed.
 */
export async function requestEmailChange(
  server: TestServer,
  api: ReturnType<typeof client>,
  account: { email: string; password: string; accessToken: string },
  newEmail: string,
): Promise<void> {
  const token = account.accessToken;
  await signedInMinutesAgo(server, token, 10);
  const withoutPassword = await api('PUT', '/api/auth/user', { token, body: { email: newEmail } });
  expect(withoutPassword.status).toBe(401);
  expect(withoutPassword.body.code).toBe('reauthentication_needed');
  const withPassword = await api('PUT', '/api/auth/user', {
    token,
    body: { email: newEmail, current_password: account.password },
  });
  expect(withPassword.status).toBe(200);
  expect(withPassword.body.email).toBe(account.email);
}

/**
 * Each call comes from its own client IP (X-Forwarded-For, with TRUST_PROXY on), so per-IP rate limits of
 * one test never leak into another; rate-limit tests pass a fixed IP.
 */
let ipCounter = 0;
function nextIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

export function client(server: TestServer) {
  return <T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> =>
    server.request<T>(method, path, {
      ...options,
      headers: { 'x-forwarded-for': nextIp(), ...options.headers },
    });
}

export function uniqueEmail(tag = 'writer'): string {
  return `${tag}-${randomBytes(5).toString('hex')}@example.com`;
}

/** A password that passes every strength rule. */
export function strongPassword(): string {
  return `Quill-${randomBytes(6).toString('hex')}`;
}

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** Raw message with quoted-printable soft breaks and escapes undone, for finding links. */
  decoded: string;
}

function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A real SMTP server on loopback (no TLS, no auth) collecting every message it receives. */
export async function startSmtpServer(): Promise<{
  url: string;
  mails: ReceivedMail[];
  waitForMail(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          decoded: decodeQuotedPrintable(raw),
        });
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    const net = server.listen(0, '127.0.0.1', () => {
      const address = net.address();
      if (address && typeof address === 'object') resolve(address.port);
      else reject(new Error('SMTP server did not bind'));
    });
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitForMail(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mails.find(predicate);
        if (found) return found;
        if (Date.now() > deadline) throw new Error('no matching mail arrived');
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The token of the first link to `${path}?token=…` in a mail. */
export function tokenFromLink(text: string, path: string): { token: string; link: string } {
  const escaped = path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const match = new RegExp(`https?://[^\\s"<>]*${escaped}\\?token=([A-Za-z0-9_%-]+)[^\\s"<>]*`).exec(text);
  if (!match?.[1]) throw new Error(`no ${path} link in: ${text.slice(0, 2000)}`);
  return { token: decodeURIComponent(match[1]), link: match[0] };
}
