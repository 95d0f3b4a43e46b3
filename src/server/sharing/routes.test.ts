import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../db/schema';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { SHARE_PASSWORD_ATTEMPTS_PER_MINUTE } from './routes';

const CONTENT = {
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Shared words' }] }],
};

let server: TestServer;
let owner: TestUser;
let stranger: TestUser;

async function newDocument(title = 'Field notes'): Promise<string> {
  const [row] = await server.database.db
    .insert(documents)
    .values({ userId: owner.id, title, content: CONTENT })
    .returning({ id: documents.id });
  return row!.id;
}

const isoDate = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  server = await startTestServer();
  owner = await createUser(server);
  stranger = await createUser(server);
});
afterAll(() => server?.close());

describe('share settings', () => {
  it('a new document is private: visitors get 404 and no content', async () => {
    const id = await newDocument();
    const res = await server.request('GET', `/api/shared/${id}`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect(res.text).not.toContain('Shared words');
  });

  it('the owner makes it public and a visitor reads it without signing in', async () => {
    const id = await newDocument();
    const put = await server.request('PUT', `/api/documents/${id}/share`, {
      token: owner.token,
      body: { isPublic: true, allowEditing: false, expiresAt: null },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      isPublic: true,
      allowEditing: false,
      allowSuggesting: false,
      expiresAt: null,
      hasPassword: false,
    });
    const res = await server.request('GET', `/api/shared/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      title: 'Field notes',
      content: CONTENT,
      allowEditing: false,
      access: 'view',
    });
    expect(typeof res.body.shareToken).toBe('string');
  });

  it('another user can neither read nor change the share settings (404)', async () => {
    const id = await newDocument();
    const get = await server.request('GET', `/api/documents/${id}/share`, { token: stranger.token });
    expect(get.status).toBe(404);
    const put = await server.request('PUT', `/api/documents/${id}/share`, {
      token: stranger.token,
      body: { isPublic: true },
    });
    expect(put.status).toBe(404);
    expect((await server.request('GET', `/api/shared/${id}`)).status).toBe(404);
    expect(
      (await server.request('PUT', `/api/documents/${id}/share`, { body: { isPublic: true } })).status,
    ).toBe(401);
  });

  it('turning it private again cuts visitors off, and their old token stops working', async () => {
    const id = await newDocument();
    await server.request('PUT', `/api/documents/${id}/share`, {
      token: owner.token,
      body: { isPublic: true },
    });
    const open = await server.request('GET', `/api/shared/${id}`);
    expect(open.status).toBe(200);
    await server.request('PUT', `/api/documents/${id}/share`, {
      token: owner.token,
      body: { isPublic: false },
    });
    const after = await server.request('GET', `/api/shared/${id}`, {
      headers: { 'x-share-token': open.body.shareToken },
    });
    expect(after.status).toBe(404);
  });

  it('an expiry date before today is refused; a past expiry answers 410', async () => {
    const id = await newDocument();
    const past = await server.request('PUT', `/api/documents/${id}/share`, {
      token: owner.token,
      body: { isPublic: true, expiresAt: isoDate(-3) },
    });
    expect(past.status).toBe(400);
    expect(past.body.code).toBe('invalid_expiry');
    const future = await server.request('PUT', `/api/documents/${id}/share`, {
      token: owner.token,
      body: { isPublic: true, expiresAt: isoDate(5) },
    });
    expect(future.status).toBe(200);
    expect(future.body.expiresAt).toBe(isoDate(5));
    expect((await server.request('GET', `/api/shared/${id}`)).status).toBe(200);
    // Time passes: the link's expiry is now behind us.
    await server.database.exec(
      `update documents set share_expires_at = now() - interval '1 minute' where id = '${id}'`,
    );
    const expired = await server.request('GET', `/api/shared/${id}`);
    expect(expired.status).toBe(410);
    expect(expired.body.code).toBe('share_expired');
    expect(expired.text).not.toContain('Shared words');
  });

  it('a password-protected link needs the right password; the wrong one reveals nothing', async () => {
    const id = await newDocument();
    const put = await server.request('PUT', `/api/documents/${id}/share`, {
      token: owner.token,
      body: { isPublic: true, password: 'open sesame' },
    });
    expect(put.body.hasPassword).toBe(true);
    const locked = await server.request('GET', `/api/shared/${id}`);
    expect(locked.status).toBe(401);
    expect(locked.body.code).toBe('share_password_required');
    expect(locked.text).not.toContain('Shared words');

    const wrong = await server.request('POST', `/api/shared/${id}/unlock`, { body: { password: 'guess' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('share_password_invalid');

    const right = await server.request('POST', `/api/shared/${id}/unlock`, {
      body: { password: 'open sesame' },
    });
    expect(right.status).toBe(200);
    const read = await server.request('GET', `/api/shared/${id}`, {
      headers: { 'x-share-token': right.body.shareToken },
    });
    expect(read.status).toBe(200);
    expect(read.body.content).toEqual(CONTENT);

    // Changing the password invalidates the token issued for the old one.
    await server.request('PUT', `/api/documents/${id}/share`, {
      token: owner.token,
      body: { isPublic: true, password: 'new secret' },
    });
    const stale = await server.request('GET', `/api/shared/${id}`, {
      headers: { 'x-share-token': right.body.shareToken },
    });
    expect(stale.status).toBe(401);
  });

  it('password attempts are rate-limited per document', async () => {
    const id = await newDocument();
    await server.request('PUT', `/api/documents/${id}/share`, {
      token: owner.token,
      body: { isPublic: true, password: 'correct horse' },
    });
    const statuses: number[] = [];
    for (let i = 0; i < SHARE_PASSWORD_ATTEMPTS_PER_MINUTE + 2; i++) {
      statuses.push(
        (await server.request('POST', `/api/shared/${id}/unlock`, { body: { password: `try ${i}` } })).status,
      );
    }
    expect(statuses.slice(0, SHARE_PASSWORD_ATTEMPTS_PER_MINUTE).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Even the right password waits out the window.
    const right = await server.request('POST', `/api/shared/${id}/unlock`, {
      body: { password: 'correct horse' },
    });
    expect(right.status).toBe(429);
  });

  it('bad input is a 400 with a JSON error, never a 500', async () => {
    const id = await newDocument();
    for (const body of [
      {},
      { isPublic: 'yes' },
      { isPublic: true, expiresAt: 'tomorrow' },
      { isPublic: true, extra: 1 },
    ]) {
      const res = await server.request('PUT', `/api/documents/${id}/share`, { token: owner.token, body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    expect(
      (
        await server.request('PUT', '/api/documents/not-a-uuid/share', {
          token: owner.token,
          body: { isPublic: true },
        })
      ).status,
    ).toBe(400);
    expect((await server.request('GET', '/api/shared/not-a-uuid')).status).toBe(404);
  });
});
