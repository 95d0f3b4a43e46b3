import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { COLLAB_FRAGMENT } from '../../shared/editor/collab-protocol';
import type { ApiTokenCreated, ApiTokenScope } from '../../shared/schemas/api-tokens';
import type { Comment, CommentThread, CommentThreadPage } from '../../shared/schemas/comments';
import { MAX_COMMENT_LENGTH } from '../../shared/schemas/comments';
import type { MemberRole } from '../../shared/schemas/people';
import type { RichTextDoc, RichTextNode } from '../../shared/schemas/richText';
import { connectCollabClient, waitFor, type CollabClient } from '../collab/testing';
import { documentMembers } from '../db/schema';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const docOf = (...texts: string[]) => ({ type: 'doc', content: texts.map(paragraph) });

/** The text of each run that carries the thread's mark, in order. */
function markedRuns(content: RichTextDoc, threadId: string): string[] {
  const runs: string[] = [];
  const walk = (node: RichTextNode) => {
    if (
      node.type === 'text' &&
      node.marks?.some((mark) => mark.type === 'comment' && mark.attrs?.threadId === threadId)
    ) {
      runs.push(node.text ?? '');
    }
    for (const child of node.content ?? []) walk(child);
  };
  walk(content as RichTextNode);
  return runs;
}

/** The text of a live Y.Doc's runs that carry the thread's mark. */
function liveMarkedText(doc: Y.Doc, threadId: string): string {
  let text = '';
  for (const block of doc.getXmlFragment(COLLAB_FRAGMENT).toArray()) {
    if (!(block instanceof Y.XmlElement)) continue;
    for (const child of block.toArray()) {
      if (!(child instanceof Y.XmlText)) continue;
      for (const op of child.toDelta() as { insert: string; attributes?: Record<string, unknown> }[]) {
        const marks = JSON.stringify(op.attributes ?? {});
        if (marks.includes(threadId)) text += op.insert;
      }
    }
  }
  return text;
}

describe('comments on passages', () => {
  let server: TestServer;
  let owner: TestUser;
  let editor: TestUser;
  let suggester: TestUser;
  let commenter: TestUser;
  let viewer: TestUser;
  let stranger: TestUser;
  const clients: CollabClient[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    [owner, editor, suggester, commenter, viewer, stranger] = await Promise.all([
      createUser(server, { fullName: 'Olive Owner' }),
      createUser(server, { fullName: 'Edith Editor' }),
      createUser(server, { fullName: 'Sam Suggester' }),
      createUser(server, { fullName: 'Cora Commenter' }),
      createUser(server, { fullName: 'Vera Viewer' }),
      createUser(server, { fullName: 'Stan Stranger' }),
    ]);
  });
  afterAll(async () => {
    for (const c of clients.splice(0)) c.destroy();
    await server?.close();
  });

  async function newDocument(...texts: string[]): Promise<string> {
    const res = await server.request('POST', '/api/documents', {
      token: owner.token,
      body: { title: 'Draft', content: docOf(...(texts.length > 0 ? texts : ['The cat sat on the mat.'])) },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  }

  async function teamDocument(...texts: string[]): Promise<string> {
    const id = await newDocument(...texts);
    const members: [TestUser, MemberRole][] = [
      [editor, 'editor'],
      [suggester, 'suggester'],
      [commenter, 'commenter'],
      [viewer, 'viewer'],
    ];
    // Straight into the table: inviting through the API is rate-limited per address (people.test.ts tests it).
    await server.database.db.insert(documentMembers).values(
      members.map(([user, role]) => ({
        documentId: id,
        userId: user.id,
        email: user.email,
        role,
        acceptedAt: new Date(),
      })),
    );
    return id;
  }

  async function storedContent(id: string): Promise<RichTextDoc> {
    const res = await server.request('GET', `/api/documents/${id}`, { token: owner.token });
    expect(res.status).toBe(200);
    return res.body.content as RichTextDoc;
  }

  const openThread = (
    id: string,
    token: string,
    body: { quote?: string; prefix?: string; suffix?: string; text?: string; threadId?: string } = {},
  ) =>
    server.request('POST', `/api/documents/${id}/threads`, {
      token,
      body: {
        id: body.threadId ?? randomUUID(),
        anchor: { quote: body.quote ?? 'cat', prefix: body.prefix ?? '', suffix: body.suffix ?? '' },
        body: body.text ?? 'Which cat?',
      },
    });

  const list = (id: string, token: string, query = '') =>
    server.request<CommentThreadPage>('GET', `/api/documents/${id}/threads${query}`, { token });

  describe('who may do what', () => {
    const ROLES = ['owner', 'editor', 'suggester', 'commenter', 'viewer', 'stranger'] as const;
    type Role = (typeof ROLES)[number];
    const userOf = (role: Role): TestUser =>
      ({ owner, editor, suggester, commenter, viewer, stranger })[role];
    /** The expected status of each action per role; "own" is the role's own comment or thread. */
    const EXPECTED: Record<string, Record<Role, number>> = {
      list: { owner: 200, editor: 200, suggester: 200, commenter: 200, viewer: 200, stranger: 404 },
      create: { owner: 201, editor: 201, suggester: 201, commenter: 201, viewer: 404, stranger: 404 },
      reply: { owner: 201, editor: 201, suggester: 201, commenter: 201, viewer: 404, stranger: 404 },
      editOther: { owner: 403, editor: 403, suggester: 403, commenter: 403, viewer: 404, stranger: 404 },
      deleteOtherComment: {
        owner: 403,
        editor: 403,
        suggester: 403,
        commenter: 403,
        viewer: 404,
        stranger: 404,
      },
      resolveOther: { owner: 200, editor: 200, suggester: 403, commenter: 403, viewer: 403, stranger: 404 },
      deleteOtherThread: {
        owner: 204,
        editor: 403,
        suggester: 403,
        commenter: 403,
        viewer: 403,
        stranger: 404,
      },
    };

    for (const role of ROLES) {
      it(`${role}: ${Object.entries(EXPECTED)
        .map(([action, byRole]) => `${action} ${byRole[role]}`)
        .join(', ')}`, async () => {
        const id = await teamDocument('The cat sat on the mat.');
        const user = userOf(role);
        // A thread of someone else's (the editor's; the owner's for the editor), with a reply of theirs.
        const other = role === 'editor' ? owner : editor;
        const theirs = await openThread(id, other.token, { quote: 'mat' });
        expect(theirs.status).toBe(201);
        const theirReply = await server.request<Comment>(
          'POST',
          `/api/documents/${id}/threads/${theirs.body.id}/comments`,
          { token: other.token, body: { body: 'And the mat?' } },
        );
        expect(theirReply.status).toBe(201);
        const base = `/api/documents/${id}/threads/${theirs.body.id}`;

        const listed = await list(id, user.token);
        expect(listed.status, 'list').toBe(EXPECTED.list![role]);
        if (listed.status === 200) expect(listed.body.threads.map((t) => t.id)).toEqual([theirs.body.id]);

        const created = await openThread(id, user.token);
        expect(created.status, 'create').toBe(EXPECTED.create![role]);
        const replied = await server.request<Comment>('POST', `${base}/comments`, {
          token: user.token,
          body: { body: 'Me too' },
        });
        expect(replied.status, 'reply').toBe(EXPECTED.reply![role]);
        const edited = await server.request('PATCH', `${base}/comments/${theirReply.body.id}`, {
          token: user.token,
          body: { body: 'Not mine' },
        });
        expect(edited.status, 'edit other').toBe(EXPECTED.editOther![role]);
        if (edited.status === 403) expect(edited.body.code).toBe('not_your_comment');
        const deletedOther = await server.request('DELETE', `${base}/comments/${theirReply.body.id}`, {
          token: user.token,
        });
        expect(deletedOther.status, 'delete other comment').toBe(EXPECTED.deleteOtherComment![role]);

        if (created.status === 201) {
          // Their own: edit, resolve, delete a reply, then the thread (its first comment).
          const mine = created.body;
          expect(mine.canResolve).toBe(true);
          expect(mine.comments[0]!.mine).toBe(true);
          const own = `/api/documents/${id}/threads/${mine.id}`;
          const editedOwn = await server.request<Comment>(
            'PATCH',
            `${own}/comments/${mine.comments[0]!.id}`,
            {
              token: user.token,
              body: { body: 'Which cat, exactly?' },
            },
          );
          expect(editedOwn.status, 'edit own').toBe(200);
          expect(editedOwn.body.body).toBe('Which cat, exactly?');
          expect(editedOwn.body.editedAt).not.toBeNull();
          const resolvedOwn = await server.request<CommentThread>('PATCH', own, {
            token: user.token,
            body: { status: 'resolved' },
          });
          expect(resolvedOwn.status, 'resolve own').toBe(200);
          expect(resolvedOwn.body.status).toBe('resolved');
          expect(resolvedOwn.body.resolvedBy?.id).toBe(user.id);
          const ownReply = await server.request<Comment>('POST', `${own}/comments`, {
            token: user.token,
            body: { body: 'A second thought' },
          });
          const deletedReply = await server.request('DELETE', `${own}/comments/${ownReply.body.id}`, {
            token: user.token,
          });
          expect(deletedReply.status, 'delete own reply').toBe(204);
          const deletedFirst = await server.request('DELETE', `${own}/comments/${mine.comments[0]!.id}`, {
            token: user.token,
          });
          expect(deletedFirst.status, 'delete own first comment').toBe(204);
          const after = await list(id, owner.token);
          expect(after.body.threads.map((t) => t.id)).not.toContain(mine.id);
          expect(markedRuns(await storedContent(id), mine.id)).toEqual([]);
        }

        const resolvedOther = await server.request('PATCH', base, {
          token: user.token,
          body: { status: 'resolved' },
        });
        expect(resolvedOther.status, 'resolve other').toBe(EXPECTED.resolveOther![role]);
        const deletedThread = await server.request('DELETE', base, { token: user.token });
        expect(deletedThread.status, 'delete other thread').toBe(EXPECTED.deleteOtherThread![role]);
        for (const response of [listed, created, replied, edited, resolvedOther, deletedThread]) {
          if (response.status >= 400) expect(typeof response.body.code).toBe('string');
        }
      });
    }

    it('answers 401 without a session', async () => {
      const id = await newDocument();
      expect((await server.request('GET', `/api/documents/${id}/threads`)).status).toBe(401);
    });

    it('gives API tokens what their scopes allow: read only lists, comment, suggest and write also comment', async () => {
      const id = await newDocument();
      const cases: [ApiTokenScope, number][] = [
        ['read', 403],
        ['suggest', 201],
        ['comment', 201],
        ['write', 201],
      ];
      for (const [scope, createStatus] of cases) {
        const made = await server.request<ApiTokenCreated>('POST', '/api/me/api-tokens', {
          token: owner.token,
          body: { name: `comments ${scope}`, scopes: [scope] },
        });
        expect(made.status, made.text).toBe(201);
        const token = made.body.token;
        expect((await list(id, token)).status, `${scope} lists`).toBe(200);
        const created = await openThread(id, token);
        expect(created.status, `${scope} creates`).toBe(createStatus);
        if (createStatus === 403) expect(created.body.code).toBe('insufficient_scope');
      }
    });
  });

  describe('share-link visitors', () => {
    async function sharedAt(access: 'view' | 'comment' | 'suggest' | 'edit') {
      const id = await newDocument('The cat sat on the mat.');
      const shared = await server.request('PUT', `/api/documents/${id}/share`, {
        token: owner.token,
        body: {
          isPublic: true,
          allowEditing: access === 'edit',
          allowSuggesting: access === 'suggest',
          allowCommenting: access === 'comment',
        },
      });
      expect(shared.status, shared.text).toBe(200);
      const opened = await server.request('GET', `/api/shared/${id}`);
      expect(opened.status).toBe(200);
      expect(opened.body.access).toBe(access);
      return { id, headers: { 'x-share-token': opened.body.shareToken as string } };
    }

    const EXPECTED = {
      view: { list: 200, create: 404, reply: 404, resolve: 403 },
      comment: { list: 200, create: 201, reply: 201, resolve: 403 },
      suggest: { list: 200, create: 201, reply: 201, resolve: 403 },
      edit: { list: 200, create: 201, reply: 201, resolve: 200 },
    } as const;

    for (const access of ['view', 'comment', 'suggest', 'edit'] as const) {
      it(`a "${access}" visitor: ${JSON.stringify(EXPECTED[access])}`, async () => {
        const { id, headers } = await sharedAt(access);
        const ownersThread = await openThread(id, owner.token, { quote: 'mat' });
        const base = `/api/shared/${id}/threads`;
        const listed = await server.request<CommentThreadPage>('GET', base, { headers });
        expect(listed.status).toBe(EXPECTED[access].list);
        expect(listed.body.threads[0]!.comments[0]!.author.name).toBe('Olive Owner');
        expect(listed.body.threads[0]!.comments[0]!.mine).toBe(false);
        const created = await server.request<CommentThread>('POST', base, {
          headers,
          body: { id: randomUUID(), anchor: { quote: 'cat' }, body: 'Hello', authorName: 'Robin Reader' },
        });
        expect(created.status, created.text).toBe(EXPECTED[access].create);
        const replied = await server.request<Comment>('POST', `${base}/${ownersThread.body.id}/comments`, {
          headers,
          body: { body: 'Agreed', authorName: 'Robin Reader' },
        });
        expect(replied.status).toBe(EXPECTED[access].reply);
        const resolved = await server.request('PATCH', `${base}/${ownersThread.body.id}`, {
          headers,
          body: { status: 'resolved' },
        });
        expect(resolved.status).toBe(EXPECTED[access].resolve);
        if (created.status === 201) {
          // A visitor's comment is under the name they gave, and not theirs to change afterwards.
          expect(created.body.comments[0]!.author).toEqual({ id: null, name: 'Robin Reader' });
          expect(created.body.comments[0]!.mine).toBe(false);
          const edit = await server.request(
            'PATCH',
            `${base}/${created.body.id}/comments/${created.body.comments[0]!.id}`,
            {
              headers,
              body: { body: 'Changed' },
            },
          );
          expect(edit.status).toBe(403);
          expect(markedRuns(await storedContent(id), created.body.id)).toEqual(['cat']);
        }
        // The owner's own routes are not reached with a share token.
        expect((await server.request('GET', `/api/documents/${id}/threads`, { headers })).status).toBe(401);
      });
    }

    it('a visitor must give a name, and a token for another document opens nothing', async () => {
      const { id, headers } = await sharedAt('comment');
      const nameless = await server.request('POST', `/api/shared/${id}/threads`, {
        headers,
        body: { id: randomUUID(), anchor: { quote: 'cat' }, body: 'Hi' },
      });
      expect(nameless.status).toBe(400);
      const otherId = await newDocument();
      const elsewhere = await server.request('GET', `/api/shared/${otherId}/threads`, { headers });
      expect(elsewhere.status).toBe(404);
      const noToken = await server.request('GET', `/api/shared/${id}/threads`);
      expect(noToken.status).toBe(404);
    });

    it('a "comment" link reads the saved copy: the live socket refuses its visitor', async () => {
      const { id, headers } = await sharedAt('comment');
      const client = await connectCollabClient({
        serverUrl: server.url,
        documentId: id,
        token: headers['x-share-token'],
        waitForSync: false,
      });
      clients.push(client);
      await waitFor(() => client.refusals.length > 0, 5_000, 'a refusal');
      expect(client.refusals[0]).toBe('view-only');
    });
  });

  describe('anchoring', () => {
    it('marks the quoted passage in the stored content, for a commenter who may not edit', async () => {
      const id = await teamDocument('The cat sat on the mat.');
      const created = await openThread(id, commenter.token, { quote: 'sat on' });
      expect(created.status, created.text).toBe(201);
      expect(created.body.anchor).toEqual({ quote: 'sat on', prefix: '', suffix: '' });
      const content = await storedContent(id);
      expect(markedRuns(content, created.body.id)).toEqual(['sat on']);
      // The rest of the text is untouched.
      expect(JSON.stringify(content)).toContain('"text":"The cat "');
    });

    it('picks the occurrence whose surroundings match, and follows the position hint when it still reads so', async () => {
      const id = await newDocument('A cat here.', 'Another cat there.');
      const second = await openThread(id, owner.token, {
        quote: 'cat',
        prefix: 'Another ',
        suffix: ' there',
      });
      expect(markedRuns(await storedContent(id), second.body.id)).toEqual(['cat']);
      const content = await storedContent(id);
      expect(content.content![1]!.content!.some((n) => n.marks?.some((m) => m.type === 'comment'))).toBe(
        true,
      );
      expect(content.content![0]!.content!.some((n) => n.marks?.some((m) => m.type === 'comment'))).toBe(
        false,
      );
      // "A cat here." → positions: paragraph opens at 0, text from 1; "cat" is 3..6.
      const hinted = await server.request<CommentThread>('POST', `/api/documents/${id}/threads`, {
        token: owner.token,
        body: { id: randomUUID(), anchor: { quote: 'cat', from: 3, to: 6 }, body: 'This one' },
      });
      expect(hinted.status).toBe(201);
      const after = await storedContent(id);
      expect(
        after.content![0]!.content!.some((n) => n.marks?.some((m) => m.attrs?.threadId === hinted.body.id)),
      ).toBe(true);
    });

    it('lets threads overlap', async () => {
      const id = await newDocument('The quick brown fox.');
      const a = await openThread(id, owner.token, { quote: 'quick brown' });
      const b = await openThread(id, owner.token, { quote: 'brown fox' });
      const content = await storedContent(id);
      expect(markedRuns(content, a.body.id).join('')).toBe('quick brown');
      expect(markedRuns(content, b.body.id).join('')).toBe('brown fox');
    });

    it('finds a passage across paragraphs with any white space between them', async () => {
      const id = await newDocument('First line ends', 'second line starts');
      const created = await openThread(id, owner.token, { quote: 'ends\nsecond' });
      expect(created.status, created.text).toBe(201);
      expect(markedRuns(await storedContent(id), created.body.id)).toEqual(['ends', 'second']);
    });

    it('answers 409 anchor_not_found when the passage is not in the document, and keeps nothing', async () => {
      const id = await newDocument();
      const missing = await openThread(id, owner.token, { quote: 'a dog' });
      expect(missing.status).toBe(409);
      expect(missing.body.code).toBe('anchor_not_found');
      expect((await list(id, owner.token)).body.threads).toEqual([]);
    });

    it('is idempotent on the thread id: the same thread again gives it back without a second mark', async () => {
      const id = await newDocument();
      const threadId = randomUUID();
      const first = await openThread(id, owner.token, { threadId });
      const second = await openThread(id, owner.token, { threadId, text: 'Retried' });
      expect(first.status).toBe(201);
      expect(second.status).toBe(200);
      expect(second.body.comments.map((c: Comment) => c.body)).toEqual(['Which cat?']);
      expect(markedRuns(await storedContent(id), threadId)).toEqual(['cat']);
      const otherDocument = await newDocument();
      const taken = await openThread(otherDocument, owner.token, { threadId });
      expect(taken.status).toBe(409);
      expect(taken.body.code).toBe('thread_id_taken');
    });

    it('lists threads in the order of their passages, those whose text is gone last', async () => {
      const id = await newDocument('Alpha beta gamma.', 'Delta epsilon.');
      const delta = await openThread(id, owner.token, { quote: 'Delta' });
      const gamma = await openThread(id, owner.token, { quote: 'gamma' });
      const alpha = await openThread(id, owner.token, { quote: 'Alpha' });
      let page = await list(id, owner.token);
      expect(page.body.threads.map((t) => t.id)).toEqual([alpha.body.id, gamma.body.id, delta.body.id]);
      // The owner deletes "Alpha" (with its mark): its thread stays, last.
      const content = await storedContent(id);
      content.content![0]!.content = content.content![0]!.content!.filter((node) => node.text !== 'Alpha');
      const patched = await server.request('PATCH', `/api/documents/${id}`, {
        token: owner.token,
        body: { content },
      });
      expect(patched.status).toBe(200);
      page = await list(id, owner.token);
      expect(page.body.threads.map((t) => t.id)).toEqual([gamma.body.id, delta.body.id, alpha.body.id]);
      // Pages follow with an opaque cursor.
      const first = await list(id, owner.token, '?limit=2');
      expect(first.body.threads).toHaveLength(2);
      const rest = await list(id, owner.token, `?limit=2&cursor=${first.body.nextCursor}`);
      expect(rest.body.threads.map((t) => t.id)).toEqual([alpha.body.id]);
      expect(rest.body.nextCursor).toBeNull();
      // By status.
      await server.request('PATCH', `/api/documents/${id}/threads/${gamma.body.id}`, {
        token: owner.token,
        body: { status: 'resolved' },
      });
      const open = await list(id, owner.token, '?status=open');
      expect(open.body.threads.map((t) => t.id)).toEqual([delta.body.id, alpha.body.id]);
      const bad = await list(id, owner.token, '?cursor=nonsense!');
      expect(bad.status).toBe(400);
    });
  });

  describe('hostile input', () => {
    it('refuses a body over the limit, an empty one and a malformed id; stores HTML as plain text', async () => {
      const id = await newDocument();
      const huge = await openThread(id, owner.token, { text: 'x'.repeat(MAX_COMMENT_LENGTH + 1) });
      expect(huge.status).toBe(400);
      expect(huge.body.code).toBe('validation_failed');
      const empty = await openThread(id, owner.token, { text: '   ' });
      expect(empty.status).toBe(400);
      const badId = await server.request('POST', `/api/documents/${id}/threads`, {
        token: owner.token,
        body: { id: 'not-a-uuid', anchor: { quote: 'cat' }, body: 'Hi' },
      });
      expect(badId.status).toBe(400);
      const badThread = await server.request('GET', `/api/documents/${id}/threads/nope/comments`, {
        token: owner.token,
      });
      expect(badThread.status).toBe(404);
      const unknownThread = await server.request(
        'POST',
        `/api/documents/${id}/threads/${randomUUID()}/comments`,
        {
          token: owner.token,
          body: { body: 'Hi' },
        },
      );
      expect(unknownThread.status).toBe(404);
      expect(unknownThread.body.code).toBe('thread_not_found');
      const badDocument = await server.request('GET', '/api/documents/not-a-uuid/threads', {
        token: owner.token,
      });
      expect(badDocument.status).toBe(400);
      const html = '<img src=x onerror=alert(1)><b>bold</b>';
      const created = await openThread(id, owner.token, { text: html });
      expect(created.status).toBe(201);
      expect(created.body.comments[0]!.body).toBe(html);
    });
  });

  describe('live documents', () => {
    it('marks the live document through its Y.Doc and tells every open editor the threads changed', async () => {
      const id = await teamDocument('The cat sat on the mat.');
      const ownerClient = await connectCollabClient({
        serverUrl: server.url,
        documentId: id,
        token: owner.token,
      });
      clients.push(ownerClient);
      const created = await openThread(id, commenter.token, { quote: 'mat' });
      expect(created.status, created.text).toBe(201);
      await waitFor(
        () => liveMarkedText(ownerClient.doc, created.body.id) === 'mat',
        5_000,
        'the mark, live',
      );
      await waitFor(
        () => ownerClient.messages.some((m) => m.type === 'comments'),
        1_000,
        'the comments message within a second',
      );
      expect(markedRuns(await storedContent(id), created.body.id)).toEqual(['mat']);
      // A reply, a resolve: each announced.
      const before = ownerClient.messages.filter((m) => m.type === 'comments').length;
      await server.request('POST', `/api/documents/${id}/threads/${created.body.id}/comments`, {
        token: editor.token,
        body: { body: 'Yes' },
      });
      await waitFor(
        () => ownerClient.messages.filter((m) => m.type === 'comments').length > before,
        1_000,
        'the reply announced',
      );
      // Text typed meanwhile in the live document is kept when a thread is deleted (its mark taken off).
      ownerClient.appendParagraph('Typed live.');
      const deleted = await server.request('DELETE', `/api/documents/${id}/threads/${created.body.id}`, {
        token: owner.token,
      });
      expect(deleted.status).toBe(204);
      await waitFor(() => liveMarkedText(ownerClient.doc, created.body.id) === '', 5_000, 'the mark gone');
      expect(ownerClient.paragraphs()).toEqual(['The cat sat on the mat.', 'Typed live.']);
    });
  });

  describe('trash and versions', () => {
    it('keeps threads through trash and restore, and through restoring a version', async () => {
      const id = await newDocument('The cat sat on the mat.');
      const version = await server.request('POST', `/api/documents/${id}/versions`, {
        token: owner.token,
        body: { name: 'Before comments' },
      });
      expect(version.status, version.text).toBe(201);
      const created = await openThread(id, owner.token, { quote: 'cat' });
      expect((await server.request('DELETE', `/api/documents/${id}`, { token: owner.token })).status).toBe(
        204,
      );
      expect((await list(id, owner.token)).status).toBe(404);
      const restored = await server.request('POST', `/api/trash/${id}/restore`, { token: owner.token });
      expect(restored.status, restored.text).toBe(204);
      expect((await list(id, owner.token)).body.threads.map((t) => t.id)).toEqual([created.body.id]);
      // The version predates the thread: its text has no mark, the thread stays and is marked again.
      const back = await server.request('POST', `/api/documents/${id}/versions/${version.body.id}/restore`, {
        token: owner.token,
      });
      expect(back.status, back.text).toBe(200);
      const page = await list(id, owner.token);
      expect(page.body.threads.map((t) => t.id)).toEqual([created.body.id]);
      expect(markedRuns(await storedContent(id), created.body.id)).toEqual(['cat']);
    });

    it('puts back the highlight of an open thread whose passage a restored version holds', async () => {
      const id = await newDocument('The cat sat on the mat.', 'A dog barked at the moon.');
      const older = await server.request('POST', `/api/documents/${id}/versions`, {
        token: owner.token,
        body: { name: 'Two lines' },
      });
      expect(older.status, older.text).toBe(201);
      const added = await server.request('PATCH', `/api/documents/${id}`, {
        token: owner.token,
        body: { content: docOf('The cat sat on the mat.', 'A dog barked at the moon.', 'An owl hooted.') },
      });
      expect(added.status, added.text).toBe(200);
      const owl = await openThread(id, owner.token, { quote: 'owl', prefix: 'An ', suffix: ' hooted.' });
      const dog = await openThread(id, owner.token, {
        quote: 'dog barked',
        prefix: 'The cat sat on the mat.\nA ',
        suffix: ' at the moon.',
      });
      const resolved = await openThread(id, owner.token, { quote: 'moon' });
      for (const created of [owl, dog, resolved]) expect(created.status, created.text).toBe(201);
      const resolving = await server.request('PATCH', `/api/documents/${id}/threads/${resolved.body.id}`, {
        token: owner.token,
        body: { status: 'resolved' },
      });
      expect(resolving.status, resolving.text).toBe(200);

      // The passages deleted: no marks left, every thread on deleted text.
      const cut = await server.request('PATCH', `/api/documents/${id}`, {
        token: owner.token,
        body: { content: docOf('The cat sat on the mat.') },
      });
      expect(cut.status, cut.text).toBe(200);
      for (const thread of [owl, dog, resolved]) {
        expect(markedRuns(await storedContent(id), thread.body.id)).toEqual([]);
      }

      const back = await server.request('POST', `/api/documents/${id}/versions/${older.body.id}/restore`, {
        token: owner.token,
      });
      expect(back.status, back.text).toBe(200);
      const content = await storedContent(id);
      // The open thread whose quote the version holds has its highlight again, in the answer and the stored copy.
      expect(markedRuns(back.body.content as RichTextDoc, dog.body.id)).toEqual(['dog barked']);
      expect(markedRuns(content, dog.body.id)).toEqual(['dog barked']);
      // The quote the version lacks stays on deleted text; a resolved thread is not marked again.
      expect(markedRuns(content, owl.body.id)).toEqual([]);
      expect(markedRuns(content, resolved.body.id)).toEqual([]);
      // Listed by its passage again, ahead of the older thread still on deleted text.
      const page = await list(id, owner.token, '?status=all');
      expect(page.body.threads.map((t) => t.id)).toEqual([dog.body.id, owl.body.id, resolved.body.id]);
      expect(content.content?.map((block) => block.content?.map((run) => run.text).join(''))).toEqual([
        'The cat sat on the mat.',
        'A dog barked at the moon.',
      ]);
    });

    it('marks the restored passage in the live document too', async () => {
      const id = await newDocument('The cat sat on the mat.');
      const older = await server.request('POST', `/api/documents/${id}/versions`, {
        token: owner.token,
        body: { name: 'The cat' },
      });
      expect(older.status, older.text).toBe(201);
      const ownerClient = await connectCollabClient({
        serverUrl: server.url,
        documentId: id,
        token: owner.token,
      });
      clients.push(ownerClient);
      const created = await openThread(id, owner.token, {
        quote: 'mat',
        prefix: 'The cat sat on the ',
        suffix: '.',
      });
      expect(created.status, created.text).toBe(201);
      await waitFor(
        () => liveMarkedText(ownerClient.doc, created.body.id) === 'mat',
        5_000,
        'the mark, live',
      );
      const cut = await server.request('PATCH', `/api/documents/${id}`, {
        token: owner.token,
        body: { content: docOf('The cat sat.') },
      });
      expect(cut.status, cut.text).toBe(200);
      await waitFor(() => liveMarkedText(ownerClient.doc, created.body.id) === '', 5_000, 'the mark gone');
      const back = await server.request('POST', `/api/documents/${id}/versions/${older.body.id}/restore`, {
        token: owner.token,
      });
      expect(back.status, back.text).toBe(200);
      await waitFor(
        () => liveMarkedText(ownerClient.doc, created.body.id) === 'mat',
        5_000,
        'the mark back, live',
      );
      expect(markedRuns(back.body.content as RichTextDoc, created.body.id)).toEqual(['mat']);
    });
  });
});
