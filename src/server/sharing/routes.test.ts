import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLAB_CLOSE } from '../../shared/editor/collab-protocol';
import { shareLink } from '../../shared/share-links';
import { connectCollabClient, waitFor, type CollabClient } from '../collab/testing';
import { documents } from '../db/schema';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { SHARE_PASSWORD_FREE_ATTEMPTS } from './password-attempts';

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

/** Requests from distinct client addresses (the server trusts X-Forwarded-For in these tests). */
const from = (address: string) => ({ 'x-forwarded-for': address });

beforeAll(async () => {
  server = await startTestServer({ env: { TRUST_PROXY: 'true' } });
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
      allowCommenting: false,
      showSuggestions: false,
      expiresAt: null,
      hasPassword: false,
      linkKey: null,
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

  it("a stranger guessing the password makes only their own address wait, not other visitors'", async () => {
    const id = await newDocument();
    await server.request('PUT', `/api/documents/${id}/share`, {
      token: owner.token,
      body: { isPublic: true, password: 'correct horse' },
    });
    const unlock = (password: string, address: string) =>
      server.request('POST', `/api/shared/${id}/unlock`, { body: { password }, headers: from(address) });

    // A stranger guesses from a few addresses; each address is stopped after its free tries.
    const guessers = ['203.0.113.66', '203.0.113.67', '203.0.113.68', '203.0.113.69', '203.0.113.70'];
    for (const address of guessers) {
      const statuses: number[] = [];
      for (let i = 0; i < SHARE_PASSWORD_FREE_ATTEMPTS + 2; i++) {
        statuses.push((await unlock(`try ${i}`, address)).status);
      }
      expect(statuses).toEqual([...Array(SHARE_PASSWORD_FREE_ATTEMPTS).fill(401), 429, 429]);
    }
    // A guessing address waits, even with the right password.
    const guesser = await unlock('correct horse', guessers[0]!);
    expect(guesser.status).toBe(429);
    expect(Number(guesser.headers.get('retry-after'))).toBeGreaterThan(0);

    // A visitor elsewhere who was given the password gets in at once, and reads the document.
    const visitor = await unlock('correct horse', '198.51.100.20');
    expect(visitor.status).toBe(200);
    const read = await server.request('GET', `/api/shared/${id}`, {
      headers: { 'x-share-token': visitor.body.shareToken, ...from('198.51.100.20') },
    });
    expect(read.status).toBe(200);
    expect(read.body.content).toEqual(CONTENT);
    // Another visitor mistyping once is told so, not made to wait.
    expect((await unlock('correct hose', '198.51.100.21')).status).toBe(401);
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

/** Shares a document publicly (with `settings`) and returns its link as the owner's share menu shows it. */
async function share(id: string, settings: Record<string, unknown> = {}): Promise<string> {
  const res = await server.request('PUT', `/api/documents/${id}/share`, {
    token: owner.token,
    body: { isPublic: true, ...settings },
  });
  expect(res.status).toBe(200);
  return shareLink(server.url, id, res.body);
}

/** The API path a visitor's page calls for a share link. */
const apiPathOf = (link: string) => {
  const url = new URL(link);
  return `/api${url.pathname}${url.search}`;
};

describe('one link whatever the access level', () => {
  it('a link copied under "Can view" grants editing once the owner switches to "Can edit", and viewing again after', async () => {
    const id = await newDocument();
    const copied = await share(id, { allowEditing: false });
    expect((await server.request('GET', apiPathOf(copied))).body.access).toBe('view');

    const editLink = await share(id, { allowEditing: true });
    expect(editLink).toBe(copied);
    const editing = await server.request('GET', apiPathOf(copied));
    expect(editing.status).toBe(200);
    expect(editing.body.access).toBe('edit');
    // The token from that visit opens the live document for writing.
    const visitor = await connectCollabClient({
      serverUrl: server.url,
      documentId: id,
      token: editing.body.shareToken,
    });
    try {
      visitor.appendParagraph('visitor line');
      const stored = async () => {
        const doc = await server.request('GET', `/api/documents/${id}`, { token: owner.token });
        return JSON.stringify(doc.body.content).includes('visitor line');
      };
      const deadline = Date.now() + 8_000;
      while (!(await stored()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await stored()).toBe(true);
    } finally {
      visitor.destroy();
    }

    expect(await share(id, { allowEditing: false })).toBe(copied);
    expect((await server.request('GET', apiPathOf(copied))).body.access).toBe('view');
    // An old link that says edit=true carries no power of its own.
    const legacy = await server.request('GET', `/api/shared/${id}?edit=true`);
    expect(legacy.body.access).toBe('view');
  });

  it('a visitor who gave the password is not asked again when the owner changes the access level', async () => {
    const id = await newDocument();
    await share(id, { password: 'tulip' });
    const unlocked = await server.request('POST', `/api/shared/${id}/unlock`, {
      body: { password: 'tulip' },
      headers: from('198.51.100.40'),
    });
    await share(id, { allowEditing: true });
    const again = await server.request('GET', `/api/shared/${id}`, {
      headers: { 'x-share-token': unlocked.body.shareToken },
    });
    expect(again.status).toBe(200);
    expect(again.body.access).toBe('edit');
  });
});

describe('Reset link', () => {
  it('gives the link a new address: the old one answers 410, its tokens are refused on REST and socket', async () => {
    const id = await newDocument();
    const oldLink = await share(id, { password: 'harbour', allowEditing: true });
    const unlocked = await server.request('POST', `${apiPathOf(oldLink).split('?')[0]}/unlock`, {
      body: { password: 'harbour' },
      headers: from('198.51.100.50'),
    });
    expect(unlocked.status).toBe(200);
    const oldToken = unlocked.body.shareToken as string;
    const opened = await server.request('GET', apiPathOf(oldLink), {
      headers: { 'x-share-token': oldToken },
    });
    expect(opened.status).toBe(200);
    const clients: CollabClient[] = [];
    try {
      const live = await connectCollabClient({ serverUrl: server.url, documentId: id, token: oldToken });
      clients.push(live);

      const reset = await server.request('POST', `/api/documents/${id}/share/reset`, { token: owner.token });
      expect(reset.status).toBe(200);
      expect(reset.body).toMatchObject({ isPublic: true, allowEditing: true, hasPassword: true });
      const newLink = shareLink(server.url, id, reset.body);
      expect(newLink).not.toBe(oldLink);

      // The socket opened through the old link is closed at once, and the old token opens no new one.
      await waitFor(
        () => live.refusals.includes(COLLAB_CLOSE.accessRevoked.reason),
        5_000,
        'old socket closed',
      );
      const again = await connectCollabClient({
        serverUrl: server.url,
        documentId: id,
        token: oldToken,
        waitForSync: false,
      });
      clients.push(again);
      await waitFor(() => again.refusals.length > 0, 5_000, 'old token refused');
      expect(again.provider.isSynced).toBe(false);

      // The old address: 410 and nothing of the document, with or without the old token.
      for (const headers of [{}, { 'x-share-token': oldToken }] as Record<string, string>[]) {
        const old = await server.request('GET', apiPathOf(oldLink), { headers });
        expect(old.status).toBe(410);
        expect(old.body.code).toBe('share_link_reset');
        expect(old.text).not.toContain('Shared words');
      }
      const oldUnlock = await server.request('POST', `/api/shared/${id}/unlock`, {
        body: { password: 'harbour' },
        headers: from('198.51.100.51'),
      });
      expect(oldUnlock.status).toBe(410);
      // The old token does not open the new address either: the password is asked again.
      const stale = await server.request('GET', apiPathOf(newLink), {
        headers: { 'x-share-token': oldToken },
      });
      expect(stale.status).toBe(401);
      expect(stale.body.code).toBe('share_password_required');

      // The new address works: password, then the document.
      const key = new URL(newLink).searchParams.get('key');
      const fresh = await server.request('POST', `/api/shared/${id}/unlock?key=${key}`, {
        body: { password: 'harbour' },
        headers: from('198.51.100.52'),
      });
      expect(fresh.status).toBe(200);
      const read = await server.request('GET', apiPathOf(newLink), {
        headers: { 'x-share-token': fresh.body.shareToken },
      });
      expect(read.status).toBe(200);
      expect(read.body.content).toEqual(CONTENT);
      expect(read.body.access).toBe('edit');
    } finally {
      for (const client of clients) client.destroy();
    }
  });

  it("only the owner resets a link; turning sharing off and on keeps the reset link's address", async () => {
    const id = await newDocument();
    await share(id);
    expect(
      (await server.request('POST', `/api/documents/${id}/share/reset`, { token: stranger.token })).status,
    ).toBe(404);
    expect((await server.request('POST', `/api/documents/${id}/share/reset`)).status).toBe(401);
    const reset = await server.request('POST', `/api/documents/${id}/share/reset`, { token: owner.token });
    const link = shareLink(server.url, id, reset.body);
    await server.request('PUT', `/api/documents/${id}/share`, {
      token: owner.token,
      body: { isPublic: false },
    });
    expect(await share(id)).toBe(link);
    expect((await server.request('GET', `/api/shared/${id}`)).status).toBe(410);
    expect((await server.request('GET', apiPathOf(link))).status).toBe(200);
  });
});

describe('pending suggestions and view-only visitors', () => {
  const suggested = {
    type: 'doc',
    content: [
      {
        type: 'paragraph',
        content: [
          { type: 'text', text: 'The ' },
          { type: 'text', text: 'old', marks: [{ type: 'deletion', attrs: suggestionBy('a') }] },
          { type: 'text', text: 'new', marks: [{ type: 'insertion', attrs: suggestionBy('a') }] },
          { type: 'text', text: ' plan' },
        ],
      },
    ],
  };
  function suggestionBy(id: string) {
    return {
      id,
      author_id: 'visitor-1',
      author_name: 'Anonymous Otter',
      source: 'user',
      created_at: '2026-11-23T12:00:00.000Z',
    };
  }

  it('readers see the text without pending suggestions unless the owner shows them', async () => {
    const [row] = await server.database.db
      .insert(documents)
      .values({ userId: owner.id, title: 'Plan', content: suggested })
      .returning({ id: documents.id });
    const id = row!.id;
    const link = await share(id);
    const hidden = await server.request('GET', apiPathOf(link));
    expect(hidden.body.showSuggestions).toBe(false);
    const paragraph = hidden.body.content.content[0].content as { text: string; marks?: unknown }[];
    expect(paragraph.map((node) => node.text).join('')).toBe('The old plan');
    expect(paragraph.every((node) => node.marks === undefined)).toBe(true);
    expect(hidden.text).not.toContain('new');

    await share(id, { showSuggestions: true });
    const shown = await server.request('GET', apiPathOf(link));
    expect(shown.body.showSuggestions).toBe(true);
    expect(shown.body.content).toEqual(suggested);

    // Visitors who may suggest or edit always see them: they work on them.
    await share(id, { allowSuggesting: true });
    expect((await server.request('GET', apiPathOf(link))).body.content).toEqual(suggested);
  });
});
