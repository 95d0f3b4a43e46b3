import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { MEMBER_INVITES_PER_HOUR } from '../../shared/constants';
import { COLLAB_CLOSE, COLLAB_FRAGMENT } from '../../shared/editor/collab-protocol';
import type { DocumentMember, DocumentMembers, MemberRole } from '../../shared/schemas/people';
import {
  client,
  startSmtpServer,
  strongPassword,
  tokenFromLink,
  uniqueEmail,
} from '../accounts/test-helpers';
import { connectCollabClient, waitFor, type CollabClient } from '../collab/testing';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const docOf = (...texts: string[]) => ({ type: 'doc', content: texts.map(paragraph) });
const suggestion = (id: string) => ({
  id,
  author_id: 'member',
  author_name: 'Member',
  source: 'user',
  created_at: '2026-11-24T10:00:00.000Z',
});

function firstText(doc: Y.Doc): Y.XmlText {
  const block = doc.getXmlFragment(COLLAB_FRAGMENT).get(0) as Y.XmlElement;
  return block.get(0) as Y.XmlText;
}

/** The first paragraph's text without its marks. */
const plain = (doc: Y.Doc) =>
  (firstText(doc).toDelta() as { insert: string }[]).map((op) => op.insert).join('');

describe('people on a document', () => {
  let server: TestServer;
  let owner: TestUser;
  let editor: TestUser;
  let suggester: TestUser;
  let viewer: TestUser;
  let stranger: TestUser;
  // Each call from its own address: invitations are rate-limited per address (tested on its own below).
  let api: ReturnType<typeof client>;
  const clients: CollabClient[] = [];
  const connect = async (documentId: string, token: string, waitForSync = true) => {
    const c = await connectCollabClient({ serverUrl: server.url, documentId, token, waitForSync });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true' } });
    api = client(server);
    [owner, editor, suggester, viewer, stranger] = await Promise.all([
      createUser(server, { fullName: 'Olive Owner' }),
      createUser(server, { fullName: 'Edith Editor' }),
      createUser(server, { fullName: 'Sam Suggester' }),
      createUser(server, { fullName: 'Vera Viewer' }),
      createUser(server),
    ]);
  });
  afterAll(async () => {
    for (const c of clients.splice(0)) c.destroy();
    await server?.close();
  });

  async function newDocument(text = 'The cat sat.'): Promise<string> {
    const res = await server.request('POST', '/api/documents', {
      token: owner.token,
      body: { title: 'Team notes', content: docOf(text) },
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  async function invite(documentId: string, user: { email: string }, role: MemberRole, as = owner) {
    return api<DocumentMember>('POST', `/api/documents/${documentId}/members`, {
      token: as.token,
      body: { email: user.email, role },
    });
  }

  /** A document with the editor, suggester and viewer on it. */
  async function teamDocument(text?: string) {
    const id = await newDocument(text);
    const members: Record<string, DocumentMember> = {};
    for (const [user, role] of [
      [editor, 'editor'],
      [suggester, 'suggester'],
      [viewer, 'viewer'],
    ] as const) {
      const res = await invite(id, user, role);
      expect(res.status, res.text).toBe(201);
      members[role] = res.body;
    }
    return { id, members };
  }

  it('adds an existing account at once, with its name, and lists the people to the owner', async () => {
    const { id, members } = await teamDocument();
    expect(members.editor).toMatchObject({ email: editor.email, name: 'Edith Editor', role: 'editor' });
    expect(members.editor!.acceptedAt).not.toBeNull();
    const list = await server.request<DocumentMembers>('GET', `/api/documents/${id}/members`, {
      token: owner.token,
    });
    expect(list.status).toBe(200);
    expect(list.body.members.map((m) => [m.email, m.role])).toEqual([
      [editor.email, 'editor'],
      [suggester.email, 'suggester'],
      [viewer.email, 'viewer'],
    ]);
    // Self-hosted without billing: no limit.
    expect(list.body.limit).toBeNull();
    const again = await invite(id, { email: editor.email.toUpperCase() }, 'viewer');
    expect(again.status).toBe(409);
    expect((again.body as unknown as { code: string }).code).toBe('member_exists');
    const self = await invite(id, owner, 'editor');
    expect(self.status).toBe(400);
  });

  it('shows each member the document in "Shared with me", with the owner\'s name and their role', async () => {
    const { id } = await teamDocument();
    const shared = await server.request('GET', '/api/shared-with-me', { token: suggester.token });
    expect(shared.status).toBe(200);
    expect(shared.body).toContainEqual(
      expect.objectContaining({ id, title: 'Team notes', role: 'suggester', ownerName: 'Olive Owner' }),
    );
    const none = await server.request('GET', '/api/shared-with-me', { token: stranger.token });
    expect(none.body.map((d: { id: string }) => d.id)).not.toContain(id);
    // The owner's own list does not change, and the member's own list holds only their documents.
    const own = await server.request('GET', '/api/documents', { token: suggester.token });
    expect(own.body.map((d: { id: string }) => d.id)).not.toContain(id);
    const opened = await server.request('GET', `/api/shared-with-me/${id}`, { token: viewer.token });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ id, role: 'viewer', ownerName: 'Olive Owner' });
    expect((await server.request('GET', `/api/shared-with-me/${id}`, { token: owner.token })).body.role).toBe(
      'owner',
    );
    expect((await server.request('GET', `/api/shared-with-me/${id}`, { token: stranger.token })).status).toBe(
      404,
    );
  });

  describe('every role × action over REST', () => {
    const roles = ['owner', 'editor', 'suggester', 'viewer', 'stranger'] as const;
    type Role = (typeof roles)[number];
    const userOf = (role: Role) => ({ owner, editor, suggester, viewer, stranger })[role];
    const allowed: Record<string, Role[]> = {
      read: ['owner', 'editor', 'suggester', 'viewer'],
      write: ['owner', 'editor'],
      invite: ['owner'],
      members: ['owner'],
      share: ['owner'],
      export: ['owner'],
      versions: ['owner'],
      delete: ['owner'],
    };

    it.each(roles)('%s', async (role) => {
      const { id } = await teamDocument();
      const user = userOf(role);
      const status = async (method: string, path: string, body?: unknown) =>
        (await api(method, path, { token: user.token, body })).status;
      const results: Record<string, boolean> = {
        read: (await status('GET', `/api/documents/${id}`)) === 200,
        write: (await status('PATCH', `/api/documents/${id}`, { content: docOf('Changed.') })) === 200,
        invite:
          (await status('POST', `/api/documents/${id}/members`, { email: uniqueEmail(), role: 'viewer' })) ===
          201,
        members: (await status('GET', `/api/documents/${id}/members`)) === 200,
        share: (await status('PUT', `/api/documents/${id}/share`, { isPublic: true })) === 200,
        export: (await status('GET', `/api/documents/${id}/export?format=txt`)) === 200,
        versions: (await status('GET', `/api/documents/${id}/versions`)) === 200,
        delete: (await status('DELETE', `/api/documents/${id}`)) === 204,
      };
      for (const [action, who] of Object.entries(allowed)) {
        expect(results[action], `${role} ${action}`).toBe(who.includes(role));
      }
      // A refusal looks like a missing document, never a 403 or a 500.
      if (role === 'stranger') expect(await status('GET', `/api/documents/${id}`)).toBe(404);
    });

    it('refuses what only the owner may do on members with 404, and bad input with 400', async () => {
      const { id, members } = await teamDocument();
      const path = `/api/documents/${id}/members/${members.viewer!.id}`;
      for (const user of [editor, suggester, viewer, stranger]) {
        expect(
          (await server.request('PATCH', path, { token: user.token, body: { role: 'editor' } })).status,
        ).toBe(404);
        expect((await server.request('DELETE', path, { token: user.token })).status).toBe(404);
      }
      const bad = await server.request('PATCH', path, { token: owner.token, body: { role: 'owner' } });
      expect(bad.status).toBe(400);
      const badEmail = await server.request('POST', `/api/documents/${id}/members`, {
        token: owner.token,
        body: { email: 'not an address', role: 'viewer' },
      });
      expect(badEmail.status).toBe(400);
      expect(
        (await server.request('GET', '/api/documents/nope/members', { token: owner.token })).status,
      ).toBe(400);
    });
  });

  describe('on the collaboration socket', () => {
    it('lets an editor write, keeps a suggester to suggestions, and refuses a viewer and a stranger', async () => {
      const { id } = await teamDocument('Keep every word.');
      const ownerClient = await connect(id, owner.token);
      const editorClient = await connect(id, editor.token);
      firstText(editorClient.doc).insert(0, 'Edited. ');
      await waitFor(
        () => firstText(ownerClient.doc).toString() === 'Edited. Keep every word.',
        5_000,
        'edit',
      );

      const suggesterClient = await connect(id, suggester.token);
      firstText(suggesterClient.doc).insert(0, 'Maybe ', { insertion: suggestion('s1') });
      await waitFor(
        () => plain(ownerClient.doc).startsWith('Maybe ') || suggesterClient.refusals.length > 0,
        5_000,
        'suggestion',
      );
      expect(suggesterClient.refusals).toEqual([]);
      firstText(suggesterClient.doc).delete(0, 14);
      await waitFor(
        () => suggesterClient.refusals.includes(COLLAB_CLOSE.suggestionsOnly.reason),
        5_000,
        'plain edit refused',
      );
      expect(plain(ownerClient.doc)).toBe('Maybe Edited. Keep every word.');

      const viewerClient = await connect(id, viewer.token, false);
      await waitFor(() => viewerClient.refusals.length > 0, 5_000, 'viewer refused');
      expect(viewerClient.refusals[0]).toBe(COLLAB_CLOSE.viewOnly.reason);
      const strangerClient = await connect(id, stranger.token, false);
      await waitFor(() => strangerClient.refusals.length > 0, 5_000, 'stranger refused');
      expect(strangerClient.refusals[0]).toBe(COLLAB_CLOSE.notFound.reason);
    });

    it("closes a revoked editor's open socket at once, and nothing it sends afterwards is kept", async () => {
      const { id, members } = await teamDocument('Before.');
      const ownerClient = await connect(id, owner.token);
      const editorClient = await connect(id, editor.token);
      firstText(editorClient.doc).insert(0, 'Allowed. ');
      await waitFor(
        () => firstText(ownerClient.doc).toString() === 'Allowed. Before.',
        5_000,
        'allowed edit',
      );

      const removed = await server.request('DELETE', `/api/documents/${id}/members/${members.editor!.id}`, {
        token: owner.token,
      });
      expect(removed.status).toBe(204);
      await waitFor(
        () => editorClient.refusals.includes(COLLAB_CLOSE.accessRevoked.reason),
        5_000,
        'socket closed',
      );
      firstText(editorClient.doc).insert(0, 'Sneaked. ');
      // Give a wrongly accepted change every chance to arrive, then read as a fresh client.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const reader = await connect(id, owner.token);
      expect(firstText(reader.doc).toString()).toBe('Allowed. Before.');
      expect((await server.request('GET', `/api/documents/${id}`, { token: editor.token })).status).toBe(404);
      expect(
        (await server.request('GET', '/api/shared-with-me', { token: editor.token })).body,
      ).not.toContainEqual(expect.objectContaining({ id }));
    });

    it('tells an open socket its new role when the owner makes an editor a suggester, and guards it from then', async () => {
      const { id, members } = await teamDocument('Start.');
      const ownerClient = await connect(id, owner.token);
      const editorClient = await connect(id, editor.token);
      const changed = await server.request('PATCH', `/api/documents/${id}/members/${members.editor!.id}`, {
        token: owner.token,
        body: { role: 'suggester' },
      });
      expect(changed.status).toBe(200);
      await waitFor(
        () => editorClient.messages.some((m) => m.type === 'access' && m.role === 'suggester'),
        5_000,
        'the new role announced',
      );
      // The owner's own connection kept its role and heard nothing.
      expect(ownerClient.messages.filter((m) => m.type === 'access')).toEqual([]);
      expect(editorClient.refusals).toEqual([]);
      firstText(editorClient.doc).insert(0, 'Plain. ');
      await waitFor(
        () => editorClient.refusals.includes(COLLAB_CLOSE.suggestionsOnly.reason),
        5_000,
        'a plain edit refused',
      );
      expect(firstText(ownerClient.doc).toString()).toBe('Start.');
    });

    it('turns an editor changed to viewer away from the live document, and the REST write too', async () => {
      const { id, members } = await teamDocument('Start.');
      const editorClient = await connect(id, editor.token);
      const changed = await server.request('PATCH', `/api/documents/${id}/members/${members.editor!.id}`, {
        token: owner.token,
        body: { role: 'viewer' },
      });
      expect(changed.status).toBe(200);
      expect(changed.body.role).toBe('viewer');
      await waitFor(
        () => editorClient.refusals.includes(COLLAB_CLOSE.accessRevoked.reason),
        5_000,
        'socket closed',
      );
      const write = await server.request('PATCH', `/api/documents/${id}`, {
        token: editor.token,
        body: { content: docOf('Nope.') },
      });
      expect(write.status).toBe(404);
      expect((await server.request('GET', `/api/documents/${id}`, { token: editor.token })).status).toBe(200);
    });
  });

  it('refuses more invitations than the hourly limit from one address with 429', async () => {
    const id = await newDocument();
    const from = { 'x-forwarded-for': '10.99.0.1' };
    const statuses: number[] = [];
    for (let i = 0; i < MEMBER_INVITES_PER_HOUR + 1; i += 1) {
      const res = await server.request('POST', `/api/documents/${id}/members`, {
        token: owner.token,
        headers: from,
        body: { email: uniqueEmail(), role: 'viewer' },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, MEMBER_INVITES_PER_HOUR).every((s) => s === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('takes access away while the document is in the trash, and gives it back on restore', async () => {
    const { id } = await teamDocument('Trash me.');
    const editorClient = await connect(id, editor.token);
    expect((await server.request('DELETE', `/api/documents/${id}`, { token: owner.token })).status).toBe(204);
    await waitFor(() => editorClient.refusals.length > 0, 5_000, 'socket closed');
    for (const user of [editor, suggester, viewer]) {
      expect((await server.request('GET', `/api/documents/${id}`, { token: user.token })).status).toBe(404);
      const shared = await server.request('GET', '/api/shared-with-me', { token: user.token });
      expect(shared.body.map((d: { id: string }) => d.id)).not.toContain(id);
    }
    // Members cannot restore or see the trash's document; the owner can.
    expect((await server.request('POST', `/api/trash/${id}/restore`, { token: editor.token })).status).toBe(
      404,
    );
    expect((await server.request('POST', `/api/trash/${id}/restore`, { token: owner.token })).status).toBe(
      204,
    );
    expect((await server.request('GET', `/api/documents/${id}`, { token: editor.token })).status).toBe(200);
  });
});

describe('invitations by e-mail (SMTP, plan limits enforced)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let owner: TestUser;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer({
      env: {
        TRUST_PROXY: 'true',
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Quillwright <auth@quillwright.test>',
        ENFORCE_PLAN_LIMITS: 'true',
      },
    });
    api = client(server);
    owner = await createUser(server, { fullName: 'Olive Owner', plan: 'creator' });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('mails an address without an account; signing up and confirming it opens the document', async () => {
    const created = await server.request('POST', '/api/documents', {
      token: owner.token,
      body: { title: 'Secret plans', content: docOf('Hello.') },
    });
    const id = created.body.id as string;
    const email = uniqueEmail('invitee');
    const invited = await server.request<DocumentMember>('POST', `/api/documents/${id}/members`, {
      token: owner.token,
      body: { email, role: 'editor' },
    });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ email, name: null, acceptedAt: null, role: 'editor' });

    const mail = await smtp.waitForMail(
      (m) => m.to.includes(email) && m.decoded.includes('Open the document'),
    );
    expect(mail.decoded).toContain('Olive Owner');
    expect(mail.decoded).toContain('Secret plans');
    expect(mail.decoded).toContain(`Open the document: ${server.config.APP_URL}/`);

    // Signing up alone is not enough: the address must be confirmed.
    const password = strongPassword();
    expect(
      (
        await api('POST', '/api/auth/signup', {
          body: { email, password, data: { full_name: 'New Person' } },
        })
      ).status,
    ).toBe(200);
    const confirm = await smtp.waitForMail(
      (m) => m.to.includes(email) && m.decoded.includes('/auth/confirm'),
    );
    const { token } = tokenFromLink(confirm.decoded, '/auth/confirm');
    const verified = await api('POST', '/api/auth/verify', { body: { type: 'signup', token } });
    expect(verified.status, verified.text).toBe(200);
    const accessToken = verified.body.access_token as string;

    const opened = await server.request('GET', `/api/shared-with-me/${id}`, { token: accessToken });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ role: 'editor', title: 'Secret plans', ownerName: 'Olive Owner' });
    const write = await server.request('PATCH', `/api/documents/${id}`, {
      token: accessToken,
      body: { title: 'Our plans' },
    });
    expect(write.status).toBe(200);
    const list = await server.request<DocumentMembers>('GET', `/api/documents/${id}/members`, {
      token: owner.token,
    });
    expect(list.body.members[0]).toMatchObject({ email, name: 'New Person' });
    expect(list.body.members[0]!.acceptedAt).not.toBeNull();
  });

  it("refuses people beyond the owner's plan with 403 plan_limit", async () => {
    const gratis = await createUser(server, { plan: 'gratis' });
    const created = await server.request('POST', '/api/documents', { token: gratis.token, body: {} });
    const id = created.body.id as string;
    for (let i = 0; i < 2; i += 1) {
      const ok = await server.request('POST', `/api/documents/${id}/members`, {
        token: gratis.token,
        body: { email: uniqueEmail(), role: 'viewer' },
      });
      expect(ok.status).toBe(201);
    }
    const over = await server.request('POST', `/api/documents/${id}/members`, {
      token: gratis.token,
      body: { email: uniqueEmail(), role: 'viewer' },
    });
    expect(over.status).toBe(403);
    expect(over.body.code).toBe('plan_limit');
    const list = await server.request<DocumentMembers>('GET', `/api/documents/${id}/members`, {
      token: gratis.token,
    });
    expect(list.body.limit).toBe(2);
  });
});
