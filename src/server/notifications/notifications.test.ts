import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mentionToken } from '../../shared/mentions';
import {
  NOTIFICATION_DIGEST_DELAY_MS,
  NOTIFICATION_DIGEST_INTERVAL_MS,
  type NotificationPage,
} from '../../shared/notifications';
import type { Comment, CommentThread, MentionablePeople } from '../../shared/schemas/comments';
import type { MemberRole } from '../../shared/schemas/people';
import { startSmtpServer } from '../accounts/test-helpers';
import { documentMembers, notifications, users } from '../db/schema';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { sendDigests } from './digest';

const docOf = (text: string) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

async function newDocument(server: TestServer, owner: TestUser, title = 'Novel'): Promise<string> {
  const res = await server.request('POST', '/api/documents', {
    token: owner.token,
    body: { title, content: docOf('The cat sat on the mat.') },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function addMembers(server: TestServer, documentId: string, members: [TestUser, MemberRole][]) {
  // Straight into the table: inviting through the API is rate-limited per address (people.test.ts tests it).
  await server.database.db.insert(documentMembers).values(
    members.map(([user, role]) => ({
      documentId,
      userId: user.id,
      email: user.email,
      role,
      acceptedAt: new Date(),
    })),
  );
}

function openThread(server: TestServer, documentId: string, token: string, body: string) {
  return server.request<CommentThread>('POST', `/api/documents/${documentId}/threads`, {
    token,
    body: { id: randomUUID(), anchor: { quote: 'cat' }, body },
  });
}

function reply(server: TestServer, documentId: string, threadId: string, token: string, body: string) {
  return server.request<Comment>('POST', `/api/documents/${documentId}/threads/${threadId}/comments`, {
    token,
    body: { body },
  });
}

const list = (server: TestServer, user: TestUser, query = '') =>
  server.request<NotificationPage>('GET', `/api/notifications${query}`, { token: user.token });

async function setSwitches(server: TestServer, user: TestUser, notifications: Record<string, boolean>) {
  const res = await server.request('PUT', '/api/me/settings', { token: user.token, body: { notifications } });
  expect(res.status, res.text).toBe(200);
}

describe('mentions and notifications', () => {
  let server: TestServer;
  let owner: TestUser;
  let editor: TestUser;
  let commenter: TestUser;
  let viewer: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    [owner, editor, commenter, viewer, stranger] = await Promise.all([
      createUser(server, { fullName: 'Olive Owner' }),
      createUser(server, { fullName: 'Edith Editor' }),
      createUser(server, { fullName: 'Cora Commenter' }),
      createUser(server, { fullName: 'Vera Viewer' }),
      createUser(server, { fullName: 'Stan Stranger' }),
    ]);
  });
  afterAll(async () => {
    await server?.close();
  });

  async function teamDocument(title = 'Novel') {
    const id = await newDocument(server, owner, title);
    await addMembers(server, id, [
      [editor, 'editor'],
      [commenter, 'commenter'],
      [viewer, 'viewer'],
    ]);
    return id;
  }

  it('lists the people on the document to those who may comment, and to no one else', async () => {
    const id = await teamDocument();
    const people = await server.request<MentionablePeople>('GET', `/api/documents/${id}/mentions`, {
      token: commenter.token,
    });
    expect(people.status).toBe(200);
    expect(people.body.people).toEqual([
      { id: commenter.id, name: 'Cora Commenter', email: commenter.email },
      { id: editor.id, name: 'Edith Editor', email: editor.email },
      { id: owner.id, name: 'Olive Owner', email: owner.email },
      { id: viewer.id, name: 'Vera Viewer', email: viewer.email },
    ]);
    for (const user of [viewer, stranger]) {
      const refused = await server.request('GET', `/api/documents/${id}/mentions`, { token: user.token });
      expect(refused.status).toBe(404);
    }
  });

  it('stores a mention of a reader as a reference and tells them; a mention of anyone else stays plain text', async () => {
    const id = await teamDocument();
    const body = `Look, ${mentionToken(viewer.id)} and ${mentionToken(stranger.id)} and ${mentionToken(randomUUID())}`;
    const created = await openThread(server, id, editor.token, body);
    expect(created.status, created.text).toBe(201);
    const first = created.body.comments[0]!;
    expect(first.body).toBe(`Look, ${mentionToken(viewer.id)} and @someone and @someone`);
    expect(first.mentions).toEqual([{ id: viewer.id, name: 'Vera Viewer' }]);

    const seen = await list(server, viewer);
    expect(seen.body.unreadCount).toBe(1);
    expect(seen.body.notifications[0]).toMatchObject({
      kind: 'mention',
      documentId: id,
      documentTitle: 'Novel',
      threadId: created.body.id,
      actorName: 'Edith Editor',
      excerpt: 'Look, @Vera Viewer and @someone and @someone',
      readAt: null,
    });
    // The stranger is told nothing, and the author learns nothing about who has access.
    expect((await list(server, stranger)).body.notifications).toEqual([]);
    // The owner is told of the new thread.
    const owners = await list(server, owner);
    expect(owners.body.notifications.find((n) => n.threadId === created.body.id)).toMatchObject({
      kind: 'comment',
    });
  });

  it('tells everyone who wrote in a thread about a reply, never the one who replied, once each', async () => {
    const id = await teamDocument();
    const thread = await openThread(server, id, commenter.token, 'Is this right?');
    expect(thread.status).toBe(201);
    expect((await reply(server, id, thread.body.id, editor.token, 'I think so')).status).toBe(201);
    const before = (await list(server, owner)).body.notifications.length;
    // The owner replies, mentioning the commenter: one notification for the commenter (a mention), one for the
    // editor (a reply), none for the owner.
    const answer = await reply(server, id, thread.body.id, owner.token, `Yes ${mentionToken(commenter.id)}`);
    expect(answer.status).toBe(201);

    const commenters = (await list(server, commenter)).body.notifications.filter(
      (n) => n.threadId === thread.body.id,
    );
    expect(commenters.map((n) => [n.kind, n.actorName])).toEqual([
      ['mention', 'Olive Owner'],
      ['reply', 'Edith Editor'],
    ]);
    const editors = (await list(server, editor)).body.notifications.filter(
      (n) => n.threadId === thread.body.id,
    );
    expect(editors.map((n) => [n.kind, n.actorName])).toEqual([['reply', 'Olive Owner']]);
    const owners = (await list(server, owner)).body.notifications;
    // The owner was told of the new thread only: they had not written in it before their reply.
    expect(owners.length).toBe(before);
  });

  it('pages newest first, counts unread, and marks some or all read (only one’s own)', async () => {
    const id = await teamDocument();
    for (let i = 1; i <= 3; i += 1) {
      expect(
        (await openThread(server, id, editor.token, `Note ${i} ${mentionToken(commenter.id)}`)).status,
      ).toBe(201);
    }
    const first = await list(server, commenter, '?limit=2');
    expect(first.body.notifications.map((n) => n.excerpt)).toEqual([
      'Note 3 @Cora Commenter',
      'Note 2 @Cora Commenter',
    ]);
    expect(first.body.nextCursor).not.toBeNull();
    const next = await list(server, commenter, `?limit=2&cursor=${first.body.nextCursor}`);
    expect(next.body.notifications[0]!.excerpt).toBe('Note 1 @Cora Commenter');
    const unread = first.body.unreadCount;

    // Someone else's ids change nothing.
    const others = await server.request('POST', '/api/notifications/read', {
      token: editor.token,
      body: { ids: [first.body.notifications[0]!.id] },
    });
    expect(others.status).toBe(200);
    const count = await server.request('GET', '/api/notifications/unread-count', { token: commenter.token });
    expect(count.body).toEqual({ unreadCount: unread });

    const one = await server.request('POST', '/api/notifications/read', {
      token: commenter.token,
      body: { ids: [first.body.notifications[0]!.id] },
    });
    expect(one.body).toEqual({ unreadCount: unread - 1 });
    expect((await list(server, commenter, '?limit=1')).body.notifications[0]!.readAt).not.toBeNull();

    const all = await server.request('POST', '/api/notifications/read', {
      token: commenter.token,
      body: { all: true },
    });
    expect(all.body).toEqual({ unreadCount: 0 });

    for (const body of [{}, { ids: [] }, { ids: ['nope'] }, { all: false }]) {
      const bad = await server.request('POST', '/api/notifications/read', { token: commenter.token, body });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('validation_failed');
    }
    const badCursor = await list(server, commenter, '?cursor=garbage');
    expect(badCursor.status).toBe(400);
  });

  it('follows the in-app switches per kind', async () => {
    const quiet = await createUser(server, { fullName: 'Quinn Quiet' });
    const id = await newDocument(server, quiet, 'Quiet book');
    await addMembers(server, id, [[editor, 'editor']]);
    await setSwitches(server, quiet, { commentsInApp: false, commentsEmail: false, mentionsInApp: false });
    expect((await openThread(server, id, editor.token, 'A new thread')).status).toBe(201);
    expect((await openThread(server, id, editor.token, `Hey ${mentionToken(quiet.id)}`)).status).toBe(201);
    expect((await list(server, quiet)).body).toMatchObject({ notifications: [], unreadCount: 0 });
    // The mention's e-mail switch is still on: the row waits for the digest, out of the list.
    const rows = await server.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, quiet.id));
    expect(rows.map((row) => [row.kind, row.inApp])).toEqual([['mention', false]]);

    await setSwitches(server, quiet, { commentsInApp: true });
    expect((await openThread(server, id, editor.token, 'Another thread')).status).toBe(201);
    expect((await list(server, quiet)).body.notifications.map((n) => n.kind)).toEqual(['comment']);
  });

  it('tells nobody about their own comment, nor those who lost access', async () => {
    const id = await teamDocument();
    const thread = await openThread(server, id, owner.token, `Mine ${mentionToken(owner.id)}`);
    expect(thread.status).toBe(201);
    expect((await reply(server, id, thread.body.id, commenter.token, 'Reply')).status).toBe(201);
    await server.database.db.delete(documentMembers).where(eq(documentMembers.userId, commenter.id));
    const before = (await list(server, commenter)).body.notifications.length;
    expect((await reply(server, id, thread.body.id, owner.token, 'Another')).status).toBe(201);
    expect((await list(server, commenter)).body.notifications.length).toBe(before);
    const owners = (await list(server, owner)).body.notifications.filter(
      (n) => n.threadId === thread.body.id,
    );
    expect(owners.map((n) => [n.kind, n.actorName])).toEqual([['reply', 'Cora Commenter']]);
  });

  it('tells the people an edit newly mentions', async () => {
    const id = await teamDocument();
    const thread = await openThread(server, id, commenter.token, 'Hello');
    const commentId = thread.body.comments[0]!.id;
    const edited = await server.request<Comment>(
      'PATCH',
      `/api/documents/${id}/threads/${thread.body.id}/comments/${commentId}`,
      { token: commenter.token, body: { body: `Hello ${mentionToken(editor.id)}` } },
    );
    expect(edited.status).toBe(200);
    expect(edited.body.mentions).toEqual([{ id: editor.id, name: 'Edith Editor' }]);
    const editors = (await list(server, editor)).body.notifications.filter(
      (n) => n.threadId === thread.body.id,
    );
    expect(editors.map((n) => n.kind)).toEqual(['mention']);
  });

  it('answers only the signed-in', async () => {
    expect((await server.request('GET', '/api/notifications')).status).toBe(401);
    expect((await server.request('POST', '/api/notifications/read', { body: { all: true } })).status).toBe(
      401,
    );
  });
});

describe('the e-mail digest (SMTP)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let server: TestServer;
  let owner: TestUser;
  let writer: TestUser;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer({
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Quillwright <notify@quillwright.test>' },
    });
    [owner, writer] = await Promise.all([
      createUser(server, { fullName: 'Olive Owner' }),
      createUser(server, { fullName: 'Wes <b>Writer</b>' }),
    ]);
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  const later = (ms: number) => new Date(Date.now() + ms);

  it('sends one digest holding the unread notifications, once, and no second one within the interval', async () => {
    const id = await newDocument(server, owner, 'The <i>Book</i>');
    await addMembers(server, id, [[writer, 'commenter']]);
    for (const text of ['First thought', 'Second thought', 'Third & last']) {
      expect((await openThread(server, id, writer.token, text)).status).toBe(201);
    }
    // Not yet: they are fresh.
    expect(await sendDigests(server.app.deps)).toBe(0);

    const at = later(NOTIFICATION_DIGEST_DELAY_MS + 1_000);
    // Two instances at once: one sends.
    const sent = await Promise.all([sendDigests(server.app.deps, at), sendDigests(server.app.deps, at)]);
    expect(sent[0]! + sent[1]!).toBe(1);
    await server.app.deps.mailer.flush();
    const digests = smtp.mails.filter((m) => m.to.includes(owner.email));
    expect(digests).toHaveLength(1);
    const mail = digests[0]!;
    expect(mail.decoded).toContain('3 new notifications on Quillwright');
    for (const text of ['First thought', 'Second thought']) expect(mail.decoded).toContain(text);
    // Escaped in the HTML part: the names and the title are text.
    expect(mail.decoded).toContain('Wes &lt;b&gt;Writer&lt;/b&gt;');
    expect(mail.decoded).toContain('The &lt;i&gt;Book&lt;/i&gt;');
    expect(mail.decoded).toContain('Third &amp; last');
    expect(mail.decoded).not.toContain('<p>Wes <b>');

    // A new one within the interval waits for the next turn.
    expect((await openThread(server, id, writer.token, 'Fourth')).status).toBe(201);
    expect(await sendDigests(server.app.deps, later(NOTIFICATION_DIGEST_DELAY_MS + 2_000))).toBe(0);
    expect(
      await sendDigests(
        server.app.deps,
        later(NOTIFICATION_DIGEST_INTERVAL_MS + NOTIFICATION_DIGEST_DELAY_MS + 5_000),
      ),
    ).toBe(1);
    await server.app.deps.mailer.flush();
    const second = smtp.mails.filter((m) => m.to.includes(owner.email));
    expect(second).toHaveLength(2);
    expect(second[1]!.decoded).toContain('1 new notification on Quillwright');
    expect(second[1]!.decoded).toContain('Fourth');
    expect(second[1]!.decoded).not.toContain('First thought');
  });

  it('sends nothing when the e-mail switch is off, for read notifications, or to an unconfirmed address', async () => {
    const [off, reader, unconfirmed] = await Promise.all([
      createUser(server, { fullName: 'Off Owner' }),
      createUser(server, { fullName: 'Reader Owner' }),
      createUser(server, { fullName: 'Unconfirmed Owner' }),
    ]);
    await setSwitches(server, off, { commentsEmail: false });
    await server.database.db
      .update(users)
      .set({ emailConfirmedAt: null })
      .where(eq(users.id, unconfirmed.id));
    for (const person of [off, reader, unconfirmed]) {
      const id = await newDocument(server, person);
      await addMembers(server, id, [[writer, 'commenter']]);
      expect((await openThread(server, id, writer.token, 'Hello there')).status).toBe(201);
    }
    // The in-app list still has it.
    expect((await list(server, off)).body.unreadCount).toBe(1);
    await server.request('POST', '/api/notifications/read', { token: reader.token, body: { all: true } });

    const at = later(NOTIFICATION_DIGEST_INTERVAL_MS * 4);
    await sendDigests(server.app.deps, at);
    await server.app.deps.mailer.flush();
    for (const person of [off, reader, unconfirmed]) {
      expect(smtp.mails.filter((m) => m.to.includes(person.email))).toEqual([]);
    }
    // Turning the switch on later does not mail what was passed over.
    await setSwitches(server, off, { commentsEmail: true });
    await sendDigests(server.app.deps, later(NOTIFICATION_DIGEST_INTERVAL_MS * 8));
    await server.app.deps.mailer.flush();
    expect(smtp.mails.filter((m) => m.to.includes(off.email))).toEqual([]);
  });
});
