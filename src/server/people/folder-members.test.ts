import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLAB_CLOSE } from '../../shared/editor/collab-protocol';
import type { Folder } from '../../shared/schemas/folders';
import type { DocumentMember, MemberRole, SharedWithMeDocument } from '../../shared/schemas/people';
import {
  client,
  startSmtpServer,
  strongPassword,
  tokenFromLink,
  uniqueEmail,
} from '../accounts/test-helpers';
import { appendParagraph, connectCollabClient, waitFor, type CollabClient } from '../collab/testing';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

const docOf = (text: string) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

describe('people on a folder', () => {
  let server: TestServer;
  let owner: TestUser;
  let member: TestUser;
  let other: TestUser;
  let stranger: TestUser;
  const clients: CollabClient[] = [];

  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true' } });
    [owner, member, other, stranger] = await Promise.all([
      createUser(server, { fullName: 'Olive Owner' }),
      createUser(server, { fullName: 'Mia Member' }),
      createUser(server, { fullName: 'Otto Other' }),
      createUser(server),
    ]);
  });
  afterAll(async () => {
    for (const c of clients.splice(0)) c.destroy();
    await server?.close();
  });

  const connect = async (documentId: string, token: string, waitForSync = true) => {
    const c = await connectCollabClient({ serverUrl: server.url, documentId, token, waitForSync });
    clients.push(c);
    return c;
  };
  async function newFolder(name: string, parentId: string | null = null): Promise<string> {
    const res = await server.request<Folder>('POST', '/api/folders', {
      token: owner.token,
      body: { name, parentId },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id;
  }
  async function newDocument(title: string, folderId: string | null, text = 'Words.'): Promise<string> {
    const res = await server.request('POST', '/api/documents', {
      token: owner.token,
      body: { title, content: docOf(text) },
    });
    expect(res.status, res.text).toBe(201);
    const id = res.body.id as string;
    if (folderId) await place(id, folderId);
    return id;
  }
  async function place(documentId: string, folderId: string | null, as = owner) {
    return server.request('PUT', `/api/documents/${documentId}/folder`, {
      token: as.token,
      body: { folderId },
    });
  }
  async function share(folderId: string, user: { email: string }, role: MemberRole, as = owner) {
    return server.request<DocumentMember>('POST', `/api/folders/${folderId}/members`, {
      token: as.token,
      body: { email: user.email, role },
      headers: {
        'x-forwarded-for': `10.33.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      },
    });
  }
  const read = async (documentId: string, as: TestUser) =>
    (await server.request('GET', `/api/documents/${documentId}`, { token: as.token })).status;
  const write = async (documentId: string, as: TestUser) =>
    (
      await server.request('PATCH', `/api/documents/${documentId}`, {
        token: as.token,
        body: { content: docOf('Changed.') },
      })
    ).status;
  const sharedWith = async (as: TestUser) =>
    (await server.request<SharedWithMeDocument[]>('GET', '/api/shared-with-me', { token: as.token })).body;
  const roleOf = async (documentId: string, as: TestUser) => {
    const res = await server.request('GET', `/api/shared-with-me/${documentId}`, { token: as.token });
    return res.status === 200 ? (res.body.role as string) : res.status;
  };

  it('gives the role on documents at any depth, and on documents added later', async () => {
    const top = await newFolder('Book');
    const middle = await newFolder('Part one', top);
    const deep = await newFolder('Chapter one', middle);
    const inTop = await newDocument('Outline', top);
    const inDeep = await newDocument('Scene', deep);
    const outside = await newDocument('Diary', null);

    const invited = await share(top, member, 'editor');
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body).toMatchObject({ email: member.email, name: 'Mia Member', role: 'editor' });
    expect(invited.body.acceptedAt).not.toBeNull();

    for (const id of [inTop, inDeep]) {
      expect(await read(id, member)).toBe(200);
      expect(await write(id, member)).toBe(200);
      expect(await roleOf(id, member)).toBe('editor');
    }
    expect(await read(outside, member)).toBe(404);

    const later = await newDocument('Epilogue', middle);
    expect(await read(later, member)).toBe(200);
    const list = await sharedWith(member);
    for (const id of [inTop, inDeep, later]) {
      expect(list).toContainEqual(
        expect.objectContaining({
          id,
          role: 'editor',
          ownerName: 'Olive Owner',
          folder: { id: top, name: 'Book' },
        }),
      );
    }
    expect(list.map((d) => d.id)).not.toContain(outside);

    // The owner's list is unchanged, and the member's own folders do not show the owner's.
    const tree = await server.request('GET', '/api/folders', { token: member.token });
    expect(tree.body.folders).toEqual([]);
  });

  it('takes the strongest of the document role and every folder role above it', async () => {
    const top = await newFolder('Shared top');
    const inner = await newFolder('Inner', top);
    const id = await newDocument('Mixed', inner);
    expect((await share(top, other, 'viewer')).status).toBe(201);
    expect(await roleOf(id, other)).toBe('viewer');
    expect(await write(id, other)).toBe(404);

    expect((await share(inner, other, 'suggester')).status).toBe(201);
    expect(await roleOf(id, other)).toBe('suggester');

    const own = await server.request('POST', `/api/documents/${id}/members`, {
      token: owner.token,
      body: { email: other.email, role: 'editor' },
    });
    expect(own.status).toBe(201);
    expect(await roleOf(id, other)).toBe('editor');
    expect(await write(id, other)).toBe(200);
    const entry = (await sharedWith(other)).find((d) => d.id === id);
    expect(entry).toMatchObject({ role: 'editor', folder: { id: top } });

    // A weaker document role does not lower a stronger folder role.
    const members = await server.request('GET', `/api/documents/${id}/members`, { token: owner.token });
    const row = members.body.members.find((m: DocumentMember) => m.email === other.email);
    await server.request('PATCH', `/api/documents/${id}/members/${row.id}`, {
      token: owner.token,
      body: { role: 'viewer' },
    });
    expect(await roleOf(id, other)).toBe('suggester');
  });

  it('ends access at once when the document moves out or the folder moves out of the shared one', async () => {
    const top = await newFolder('Moving');
    const sub = await newFolder('Sub', top);
    const id = await newDocument('Leaving', top, 'Before.');
    const subDoc = await newDocument('In sub', sub);
    const elsewhere = await newFolder('Elsewhere');
    expect((await share(top, member, 'editor')).status).toBe(201);

    const editorClient = await connect(id, member.token);
    appendParagraph(editorClient.doc, 'Member line.');
    const ownerClient = await connect(id, owner.token);
    await waitFor(() => ownerClient.paragraphs().includes('Member line.'), 5_000, 'member edit');

    expect((await place(id, elsewhere)).status).toBe(200);
    expect(await read(id, member)).toBe(404);
    await waitFor(
      () => editorClient.refusals.includes(COLLAB_CLOSE.accessRevoked.reason),
      5_000,
      'socket closed on move',
    );
    expect((await sharedWith(member)).map((d) => d.id)).not.toContain(id);

    // A sub-folder moved out takes its documents out of reach too.
    expect(await read(subDoc, member)).toBe(200);
    const moved = await server.request('PATCH', `/api/folders/${sub}`, {
      token: owner.token,
      body: { parentId: null },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(await read(subDoc, member)).toBe(404);

    // Moving it back gives the role back.
    expect((await place(id, top)).status).toBe(200);
    expect(await read(id, member)).toBe(200);
  });

  it('closes an open editor when the person is removed, and tells it a lowered role', async () => {
    const top = await newFolder('Live');
    const id = await newDocument('Live doc', top, 'Start.');
    const invited = await share(top, other, 'editor');
    expect(invited.status).toBe(201);
    const c = await connect(id, other.token);

    const lowered = await server.request('PATCH', `/api/folders/${top}/members/${invited.body.id}`, {
      token: owner.token,
      body: { role: 'suggester' },
    });
    expect(lowered.status).toBe(200);
    expect(lowered.body.role).toBe('suggester');
    await waitFor(
      () => c.messages.some((m) => m.type === 'access' && m.role === 'suggester'),
      5_000,
      'the new role announced',
    );

    const removed = await server.request('DELETE', `/api/folders/${top}/members/${invited.body.id}`, {
      token: owner.token,
    });
    expect(removed.status).toBe(204);
    await waitFor(() => c.refusals.includes(COLLAB_CLOSE.accessRevoked.reason), 5_000, 'socket closed');
    expect(await read(id, other)).toBe(404);
    expect((await sharedWith(other)).map((d) => d.id)).not.toContain(id);
  });

  it('ends access when the folder goes to the trash, and gives it back on restore', async () => {
    const top = await newFolder('Trashed');
    const id = await newDocument('Inside', top);
    expect((await share(top, member, 'viewer')).status).toBe(201);
    expect(await read(id, member)).toBe(200);
    expect((await server.request('DELETE', `/api/folders/${top}`, { token: owner.token })).status).toBe(204);
    expect(await read(id, member)).toBe(404);
    expect((await sharedWith(member)).map((d) => d.id)).not.toContain(id);
    expect((await server.request('GET', `/api/folders/${top}/members`, { token: owner.token })).status).toBe(
      404,
    );
    const restored = await server.request('POST', `/api/trash/folders/${top}/restore`, {
      token: owner.token,
    });
    expect(restored.status, restored.text).toBe(204);
    expect(await read(id, member)).toBe(200);
  });

  it('keeps sharing, moving, renaming and deleting to the owner; a stranger is told nothing exists', async () => {
    const top = await newFolder('Owner only');
    const id = await newDocument('Kept', top);
    const invited = await share(top, member, 'editor');
    expect(invited.status).toBe(201);
    const mine = await server.request<Folder>('POST', '/api/folders', {
      token: member.token,
      body: { name: 'Mine' },
    });

    for (const user of [member, stranger]) {
      const status = async (method: string, path: string, body?: unknown) =>
        (await server.request(method, path, { token: user.token, body })).status;
      expect(await status('GET', `/api/folders/${top}/members`)).toBe(404);
      expect(
        await status('POST', `/api/folders/${top}/members`, { email: uniqueEmail(), role: 'viewer' }),
      ).toBe(404);
      expect(
        await status('PATCH', `/api/folders/${top}/members/${invited.body.id}`, { role: 'viewer' }),
      ).toBe(404);
      expect(await status('DELETE', `/api/folders/${top}/members/${invited.body.id}`)).toBe(404);
      expect(await status('PATCH', `/api/folders/${top}`, { name: 'Renamed' })).toBe(404);
      expect(await status('DELETE', `/api/folders/${top}`)).toBe(404);
      expect(await status('PUT', `/api/documents/${id}/folder`, { folderId: null })).toBe(404);
      expect(await status('PUT', `/api/documents/${id}/folder`, { folderId: mine.body.id })).toBe(404);
      expect(
        await status('POST', `/api/documents/${id}/members`, { email: uniqueEmail(), role: 'viewer' }),
      ).toBe(404);
      expect(await status('PUT', `/api/documents/${id}/share`, { isPublic: true })).toBe(404);
      expect(await status('DELETE', `/api/documents/${id}`)).toBe(404);
    }
    expect(await read(id, stranger)).toBe(404);
    expect(await roleOf(id, stranger)).toBe(404);
    // Nothing moved: the document is still in the owner's folder, and the member still edits it.
    expect(await write(id, member)).toBe(200);

    const again = await share(top, { email: member.email.toUpperCase() }, 'viewer');
    expect(again.status).toBe(409);
    expect((await share(top, owner, 'viewer')).status).toBe(400);
    expect((await share(top, { email: 'not an address' }, 'viewer')).status).toBe(400);
    const badRole = await server.request('POST', `/api/folders/${top}/members`, {
      token: owner.token,
      body: { email: uniqueEmail(), role: 'owner' },
    });
    expect(badRole.status).toBe(400);
    expect((await server.request('GET', '/api/folders/nope/members', { token: owner.token })).status).toBe(
      400,
    );
  });

  it('cannot make a loop of folders, so the walk up always ends', async () => {
    const a = await newFolder('Loop A');
    const b = await newFolder('Loop B', a);
    const looped = await server.request('PATCH', `/api/folders/${a}`, {
      token: owner.token,
      body: { parentId: b },
    });
    expect(looped.status).toBe(400);
    expect(looped.body.code).toBe('folder_cycle');
    const id = await newDocument('In B', b);
    expect((await share(a, stranger, 'viewer')).status).toBe(201);
    expect(await read(id, stranger)).toBe(200);
  });
});

describe('folder invitations by e-mail (SMTP, plan limits enforced)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Quillwright <auth@quillwright.test>',
        ENFORCE_PLAN_LIMITS: 'true',
      },
    });
    owner = await createUser(server, { fullName: 'Olive Owner', plan: 'gratis' });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it("mails an address without an account; confirming it opens the folder's documents", async () => {
    const folder = await server.request<Folder>('POST', '/api/folders', {
      token: owner.token,
      body: { name: 'Secret folder' },
    });
    const folderId = folder.body.id;
    const created = await server.request('POST', '/api/documents', {
      token: owner.token,
      body: { title: 'Plans', content: docOf('Hello.') },
    });
    const id = created.body.id as string;
    await server.request('PUT', `/api/documents/${id}/folder`, { token: owner.token, body: { folderId } });

    const email = uniqueEmail('folder-invitee');
    const invited = await server.request<DocumentMember>('POST', `/api/folders/${folderId}/members`, {
      token: owner.token,
      body: { email, role: 'editor' },
    });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body).toMatchObject({ email, name: null, acceptedAt: null });
    const mail = await smtp.waitForMail((m) => m.to.includes(email) && m.decoded.includes('Open the folder'));
    expect(mail.decoded).toContain('Secret folder');
    expect(mail.decoded).toContain('Olive Owner');

    const api = client(server);
    expect(
      (
        await api('POST', '/api/auth/signup', {
          body: { email, password: strongPassword(), data: { full_name: 'New Person' } },
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
    const shared = await server.request('GET', '/api/shared-with-me', { token: accessToken });
    expect(shared.body).toContainEqual(
      expect.objectContaining({ id, role: 'editor', folder: { id: folderId, name: 'Secret folder' } }),
    );

    // Gratis allows two people on a folder: the invitation above and one more.
    expect(
      (
        await server.request('POST', `/api/folders/${folderId}/members`, {
          token: owner.token,
          body: { email: uniqueEmail(), role: 'viewer' },
        })
      ).status,
    ).toBe(201);
    const over = await server.request('POST', `/api/folders/${folderId}/members`, {
      token: owner.token,
      body: { email: uniqueEmail(), role: 'viewer' },
    });
    expect(over.status).toBe(403);
    expect(over.body.code).toBe('plan_limit');
    const list = await server.request('GET', `/api/folders/${folderId}/members`, { token: owner.token });
    expect(list.body.limit).toBe(2);
    expect(list.body.members).toHaveLength(2);
  });
});
