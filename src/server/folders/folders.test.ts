import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FOLDER_DEPTH, MAX_FOLDER_NAME_LENGTH } from '../../shared/constants';
import type { DocumentPlacement, Folder, FolderTree, TrashedFolder } from '../../shared/schemas/folders';
import type { LibraryPage } from '../../shared/schemas/search';
import { documents, documentVersions, folders } from '../db/schema';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { purgeExpiredFolders } from './repository';

const DAY_MS = 86_400_000;
const docWith = (words: string) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text: words }] }],
});

let server: TestServer;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startTestServer({ env: { TRASH_RETENTION_DAYS: '30' } });
  [alice, bob] = await Promise.all([createUser(server), createUser(server)]);
});
afterAll(() => server?.close());

async function newFolder(user: TestUser, name: string, parentId: string | null = null): Promise<Folder> {
  const res = await server.request('POST', '/api/folders', { token: user.token, body: { name, parentId } });
  expect(res.status, res.text).toBe(201);
  return res.body as Folder;
}

async function newDocument(user: TestUser, title: string, words = 'plain words'): Promise<string> {
  const res = await server.request('POST', '/api/documents', {
    token: user.token,
    body: { title, content: docWith(words) },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function place(user: TestUser, documentId: string, folderId: string | null, position?: number) {
  return server.request('PUT', `/api/documents/${documentId}/folder`, {
    token: user.token,
    body: position === undefined ? { folderId } : { folderId, position },
  });
}

async function treeOf(user: TestUser): Promise<FolderTree> {
  const res = await server.request('GET', '/api/folders', { token: user.token });
  expect(res.status, res.text).toBe(200);
  return res.body as FolderTree;
}

async function titlesIn(user: TestUser, folderId: string): Promise<string[]> {
  const res = await server.request('GET', `/api/search/documents?folderId=${folderId}&sort=manual`, {
    token: user.token,
  });
  expect(res.status, res.text).toBe(200);
  return (res.body as LibraryPage).documents.map((d) => d.title);
}

describe('the folder tree', () => {
  it('creates nested folders, renames and reorders them, and counts their documents', async () => {
    const user = await createUser(server);
    const essays = await newFolder(user, '  Essays  ');
    expect(essays).toMatchObject({ name: 'Essays', parentId: null, documentCount: 0 });
    const drafts = await newFolder(user, 'Drafts', essays.id);
    const notes = await newFolder(user, 'Notes');
    const doc = await newDocument(user, 'In drafts');
    expect((await place(user, doc, drafts.id)).status).toBe(200);
    await newDocument(user, 'Loose');

    let tree = await treeOf(user);
    expect(tree.folders.filter((f) => f.parentId === null).map((f) => f.name)).toEqual(['Essays', 'Notes']);
    expect(tree.folders.find((f) => f.id === drafts.id)).toMatchObject({
      parentId: essays.id,
      documentCount: 1,
    });
    expect(tree.topLevelCount).toBe(1);

    const renamed = await server.request('PATCH', `/api/folders/${drafts.id}`, {
      token: user.token,
      body: { name: 'First drafts' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'First drafts', parentId: essays.id });

    const first = await server.request('PATCH', `/api/folders/${notes.id}`, {
      token: user.token,
      body: { position: 0 },
    });
    expect(first.status, first.text).toBe(200);
    tree = await treeOf(user);
    expect(tree.folders.filter((f) => f.parentId === null).map((f) => f.name)).toEqual(['Notes', 'Essays']);

    // Out to the top level, and back in.
    const out = await server.request('PATCH', `/api/folders/${drafts.id}`, {
      token: user.token,
      body: { parentId: null },
    });
    expect(out.body).toMatchObject({ parentId: null });
    const back = await server.request('PATCH', `/api/folders/${drafts.id}`, {
      token: user.token,
      body: { parentId: notes.id },
    });
    expect(back.body).toMatchObject({ parentId: notes.id });
  });

  it('refuses blank and over-long names, and a patch that changes nothing', async () => {
    const blank = await server.request('POST', '/api/folders', { token: alice.token, body: { name: '   ' } });
    expect(blank.status).toBe(400);
    expect(blank.body.code).toBe('validation_failed');
    const long = await server.request('POST', '/api/folders', {
      token: alice.token,
      body: { name: 'x'.repeat(MAX_FOLDER_NAME_LENGTH + 1) },
    });
    expect(long.status).toBe(400);
    expect(long.body.message).toContain(String(MAX_FOLDER_NAME_LENGTH));
    expect((await newFolder(alice, 'x'.repeat(MAX_FOLDER_NAME_LENGTH))).name).toHaveLength(
      MAX_FOLDER_NAME_LENGTH,
    );
    const folder = await newFolder(alice, 'Kept');
    const empty = await server.request('PATCH', `/api/folders/${folder.id}`, {
      token: alice.token,
      body: {},
    });
    expect(empty.status).toBe(400);
    const bad = await server.request('PATCH', '/api/folders/not-a-uuid', {
      token: alice.token,
      body: { name: 'a' },
    });
    expect(bad.status).toBe(400);
    expect((await server.request('GET', '/api/folders')).status).toBe(401);
  });

  it(`nests at most ${MAX_FOLDER_DEPTH} deep, when creating and when moving`, async () => {
    const user = await createUser(server);
    const chain: Folder[] = [];
    for (let depth = 1; depth <= MAX_FOLDER_DEPTH; depth++) {
      chain.push(await newFolder(user, `Level ${depth}`, chain.at(-1)?.id ?? null));
    }
    const deeper = await server.request('POST', '/api/folders', {
      token: user.token,
      body: { name: 'Too deep', parentId: chain.at(-1)!.id },
    });
    expect(deeper.status).toBe(400);
    expect(deeper.body.code).toBe('folder_too_deep');

    // A folder with a sub-folder is two levels: it fits under level 6, not under level 7.
    const pair = await newFolder(user, 'Pair');
    await newFolder(user, 'Inner', pair.id);
    const tooDeep = await server.request('PATCH', `/api/folders/${pair.id}`, {
      token: user.token,
      body: { parentId: chain[MAX_FOLDER_DEPTH - 2]!.id },
    });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.code).toBe('folder_too_deep');
    const fits = await server.request('PATCH', `/api/folders/${pair.id}`, {
      token: user.token,
      body: { parentId: chain[MAX_FOLDER_DEPTH - 3]!.id },
    });
    expect(fits.status, fits.text).toBe(200);
  });

  it('refuses to move a folder into itself or one of its descendants', async () => {
    const top = await newFolder(alice, 'Top');
    const middle = await newFolder(alice, 'Middle', top.id);
    const bottom = await newFolder(alice, 'Bottom', middle.id);
    for (const parentId of [top.id, bottom.id, middle.id]) {
      const res = await server.request('PATCH', `/api/folders/${top.id}`, {
        token: alice.token,
        body: { parentId },
      });
      expect(res.status, parentId).toBe(400);
      expect(res.body.code).toBe('folder_cycle');
    }
    expect((await treeOf(alice)).folders.find((f) => f.id === top.id)?.parentId).toBeNull();
  });
});

describe("another user's folders", () => {
  it('answer 404 everywhere, and are never listed', async () => {
    const secret = await newFolder(bob, 'Bob only');
    const bobDoc = await newDocument(bob, 'Bob doc');
    const aliceDoc = await newDocument(alice, 'Alice doc');
    const mine = await newFolder(alice, 'Mine');

    expect((await treeOf(alice)).folders.map((f) => f.id)).not.toContain(secret.id);
    const asAlice = { token: alice.token };
    const answers = [
      await server.request('PATCH', `/api/folders/${secret.id}`, { ...asAlice, body: { name: 'Taken' } }),
      await server.request('DELETE', `/api/folders/${secret.id}`, asAlice),
      await server.request('POST', '/api/folders', { ...asAlice, body: { name: 'In', parentId: secret.id } }),
      await server.request('PATCH', `/api/folders/${mine.id}`, { ...asAlice, body: { parentId: secret.id } }),
      await place(alice, aliceDoc, secret.id),
      await place(alice, bobDoc, mine.id),
      await place(alice, bobDoc, null),
      await server.request('GET', `/api/documents/${bobDoc}/folder`, asAlice),
      await server.request('GET', `/api/search/documents?folderId=${secret.id}`, asAlice),
      await server.request('GET', `/api/search?q=doc&folderId=${secret.id}`, asAlice),
      await server.request('POST', `/api/trash/folders/${secret.id}/restore`, asAlice),
      await server.request('DELETE', `/api/trash/folders/${secret.id}`, asAlice),
    ];
    expect(answers.map((res) => res.status)).toEqual(answers.map(() => 404));
    const [row] = await server.database.db.select().from(folders).where(eq(folders.id, secret.id));
    expect(row).toMatchObject({ name: 'Bob only', trashedAt: null });

    // Trashed, it is still not Alice's to restore.
    expect((await server.request('DELETE', `/api/folders/${secret.id}`, { token: bob.token })).status).toBe(
      204,
    );
    expect((await server.request('POST', `/api/trash/folders/${secret.id}/restore`, asAlice)).status).toBe(
      404,
    );
    const trash = await server.request('GET', '/api/trash/folders', asAlice);
    expect(trash.body.folders.map((f: TrashedFolder) => f.id)).not.toContain(secret.id);
  });
});

describe('documents in folders', () => {
  it('moves documents in and out, keeps their order, and shows the path above them', async () => {
    const user = await createUser(server);
    const book = await newFolder(user, 'Book');
    const part = await newFolder(user, 'Part one', book.id);
    const [a, b, c] = [
      await newDocument(user, 'A'),
      await newDocument(user, 'B'),
      await newDocument(user, 'C'),
    ];
    const before = await server.request('GET', `/api/documents/${a}`, { token: user.token });
    for (const id of [a, b, c]) expect((await place(user, id, part.id)).status).toBe(200);
    expect(await titlesIn(user, part.id)).toEqual(['A', 'B', 'C']);

    expect((await place(user, c, part.id, 0)).status).toBe(200);
    expect(await titlesIn(user, part.id)).toEqual(['C', 'A', 'B']);
    expect((await place(user, c, part.id, 2)).status).toBe(200);
    expect(await titlesIn(user, part.id)).toEqual(['A', 'B', 'C']);
    // A position past the end is last.
    expect((await place(user, a, part.id, 99)).status).toBe(200);
    expect(await titlesIn(user, part.id)).toEqual(['B', 'C', 'A']);

    const placement = await server.request('GET', `/api/documents/${a}/folder`, { token: user.token });
    expect(placement.body as DocumentPlacement).toEqual({
      folderId: part.id,
      path: [
        { id: book.id, name: 'Book' },
        { id: part.id, name: 'Part one' },
      ],
    });
    // Moving changes neither the content nor the ETag.
    const after = await server.request('GET', `/api/documents/${a}`, { token: user.token });
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));

    const out = await place(user, a, null);
    expect(out.body).toEqual({ folderId: null, path: [] });
    expect(await titlesIn(user, part.id)).toEqual(['B', 'C']);
    expect(await titlesIn(user, book.id)).toEqual([]);
    const all = await server.request('GET', '/api/search/documents', { token: user.token });
    expect(all.body.total).toBe(3);

    const badPosition = await place(user, b, part.id, -1);
    expect(badPosition.status).toBe(400);
  });

  it('searches in a folder and its sub-folders only', async () => {
    const user = await createUser(server);
    const book = await newFolder(user, 'Book');
    const part = await newFolder(user, 'Part', book.id);
    const inBook = await newDocument(user, 'Harbour one', 'the harbour at dawn');
    const inPart = await newDocument(user, 'Harbour two', 'the harbour at dusk');
    await newDocument(user, 'Harbour three', 'the harbour at night');
    await place(user, inBook, book.id);
    await place(user, inPart, part.id);
    const search = (folderId?: string) =>
      server.request('GET', `/api/search?q=harbour${folderId ? `&folderId=${folderId}` : ''}`, {
        token: user.token,
      });
    const titles = (res: { body: { title: string }[] }) => res.body.map((hit) => hit.title).sort();
    expect(titles(await search())).toEqual(['Harbour one', 'Harbour three', 'Harbour two']);
    expect(titles(await search(book.id))).toEqual(['Harbour one', 'Harbour two']);
    expect(titles(await search(part.id))).toEqual(['Harbour two']);
  });
});

describe('folders in the trash', () => {
  it('takes the folder, its sub-folders and their documents to the trash together, and brings them back', async () => {
    const user = await createUser(server);
    const book = await newFolder(user, 'Book');
    const part = await newFolder(user, 'Part', book.id);
    const [a, b, loose] = [
      await newDocument(user, 'A', 'lighthouse'),
      await newDocument(user, 'B'),
      await newDocument(user, 'Loose'),
    ];
    await place(user, a, book.id);
    await place(user, b, part.id);
    await server.request('POST', `/api/documents/${a}/versions`, {
      token: user.token,
      body: { name: 'kept' },
    });
    // Deleted on its own before: it stays in the trash when the folder comes back.
    const alone = await newDocument(user, 'Alone');
    await place(user, alone, book.id);
    expect((await server.request('DELETE', `/api/documents/${alone}`, { token: user.token })).status).toBe(
      204,
    );

    expect((await server.request('DELETE', `/api/folders/${book.id}`, { token: user.token })).status).toBe(
      204,
    );
    expect((await treeOf(user)).folders).toEqual([]);
    expect((await server.request('GET', `/api/documents/${a}`, { token: user.token })).status).toBe(404);
    const library = await server.request('GET', '/api/search/documents', { token: user.token });
    expect(library.body.documents.map((d: { id: string }) => d.id)).toEqual([loose]);
    expect(
      (await server.request('GET', `/api/search/documents?folderId=${book.id}`, { token: user.token }))
        .status,
    ).toBe(404);

    const trashed = await server.request('GET', '/api/trash/folders', { token: user.token });
    expect(trashed.body.folders).toMatchObject([
      { id: book.id, name: 'Book', documentCount: 2, folderCount: 1 },
    ]);
    const folder = trashed.body.folders[0] as TrashedFolder;
    expect(Date.parse(folder.purgeAt) - Date.parse(folder.trashedAt)).toBe(30 * DAY_MS);
    // The documents that went with it are listed under it, not one by one.
    const trashedDocs = await server.request('GET', '/api/trash', { token: user.token });
    expect(trashedDocs.body.documents.map((d: { id: string }) => d.id)).toEqual([alone]);
    // A sub-folder that went with its parent is not restored on its own.
    expect(
      (await server.request('POST', `/api/trash/folders/${part.id}/restore`, { token: user.token })).status,
    ).toBe(404);

    const restored = await server.request('POST', `/api/trash/folders/${book.id}/restore`, {
      token: user.token,
    });
    expect(restored.status, restored.text).toBe(204);
    const tree = await treeOf(user);
    expect(tree.folders.map((f) => [f.name, f.parentId, f.documentCount])).toEqual([
      ['Book', null, 1],
      ['Part', book.id, 1],
    ]);
    expect(await titlesIn(user, part.id)).toEqual(['B']);
    const versions = await server.request('GET', `/api/documents/${a}/versions`, { token: user.token });
    expect(versions.body.map((v: { name: string | null }) => v.name)).toContain('kept');
    expect((await server.request('GET', '/api/trash/folders', { token: user.token })).body.folders).toEqual(
      [],
    );
    expect((await server.request('GET', '/api/trash', { token: user.token })).body.documents).toHaveLength(1);

    // Restoring a document whose folder has gone puts it at the top level.
    expect((await server.request('DELETE', `/api/folders/${book.id}`, { token: user.token })).status).toBe(
      204,
    );
    expect((await server.request('POST', `/api/trash/${alone}/restore`, { token: user.token })).status).toBe(
      204,
    );
    const placement = await server.request('GET', `/api/documents/${alone}/folder`, { token: user.token });
    expect(placement.body).toEqual({ folderId: null, path: [] });
  });

  it('restores a sub-folder deleted on its own to the top level when its parent has gone', async () => {
    const user = await createUser(server);
    const outer = await newFolder(user, 'Outer');
    const inner = await newFolder(user, 'Inner', outer.id);
    await server.request('DELETE', `/api/folders/${inner.id}`, { token: user.token });
    await server.request('DELETE', `/api/folders/${outer.id}`, { token: user.token });
    const trash = await server.request('GET', '/api/trash/folders', { token: user.token });
    expect(trash.body.folders.map((f: TrashedFolder) => f.name)).toEqual(['Outer', 'Inner']);
    expect(
      (await server.request('POST', `/api/trash/folders/${inner.id}/restore`, { token: user.token })).status,
    ).toBe(204);
    expect((await treeOf(user)).folders).toMatchObject([{ id: inner.id, parentId: null }]);
  });

  it('deletes a trashed folder for good with its documents, and the purge removes expired folders', async () => {
    const user = await createUser(server);
    const gone = await newFolder(user, 'Gone');
    const doc = await newDocument(user, 'Inside');
    await place(user, doc, gone.id);
    await server.request('DELETE', `/api/folders/${gone.id}`, { token: user.token });
    expect(
      (await server.request('DELETE', `/api/trash/folders/${gone.id}`, { token: user.token })).status,
    ).toBe(204);
    const left = await server.database.db.select().from(documents).where(eq(documents.id, doc));
    expect(left).toEqual([]);
    expect(
      (await server.request('DELETE', `/api/trash/folders/${gone.id}`, { token: user.token })).status,
    ).toBe(404);

    const old = await newFolder(user, 'Old');
    const sub = await newFolder(user, 'Old inside', old.id);
    const oldDoc = await newDocument(user, 'Old doc');
    await place(user, oldDoc, sub.id);
    const fresh = await newFolder(user, 'Fresh');
    await server.request('DELETE', `/api/folders/${old.id}`, { token: user.token });
    await server.request('DELETE', `/api/folders/${fresh.id}`, { token: user.token });
    const longAgo = new Date(Date.now() - 31 * DAY_MS);
    await server.database.db
      .update(folders)
      .set({ trashedAt: longAgo })
      .where(inArray(folders.id, [old.id, sub.id]));
    await server.database.db.update(documents).set({ trashedAt: longAgo }).where(eq(documents.id, oldDoc));
    await server.app.deps.documentWriter.purgeTrash();
    expect(await purgeExpiredFolders(server.database.db, 30)).toBeGreaterThanOrEqual(2);
    const remaining = await server.database.db
      .select({ id: folders.id })
      .from(folders)
      .where(inArray(folders.id, [old.id, sub.id, fresh.id]));
    expect(remaining).toEqual([{ id: fresh.id }]);
    const [versions] = await server.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(documentVersions)
      .where(eq(documentVersions.documentId, oldDoc));
    expect(versions!.n).toBe(0);
    expect(await server.database.db.select().from(documents).where(eq(documents.id, oldDoc))).toEqual([]);
  });
});

describe('plan limits', () => {
  let limited: TestServer;
  afterAll(() => limited?.close());

  it('count every document a restored folder brings back, and refuse the restore when they do not fit', async () => {
    limited = await startTestServer({ env: { ENFORCE_PLAN_LIMITS: 'true' } });
    const user = await createUser(limited, { plan: 'gratis' });
    const as = { token: user.token };
    const folder = await limited.request('POST', '/api/folders', { ...as, body: { name: 'Full' } });
    const inside: string[] = [];
    for (const title of ['One', 'Two']) {
      const res = await limited.request('POST', '/api/documents', { ...as, body: { title } });
      inside.push(res.body.id as string);
      await limited.request('PUT', `/api/documents/${res.body.id}/folder`, {
        ...as,
        body: { folderId: folder.body.id },
      });
    }
    expect((await limited.request('DELETE', `/api/folders/${folder.body.id}`, as)).status).toBe(204);
    // Of the three places, two are taken again: one is left for the folder's two documents.
    const taken = await limited.request('POST', '/api/documents', { ...as, body: { title: 'Taken' } });
    expect(taken.status).toBe(201);
    expect((await limited.request('POST', '/api/documents', { ...as, body: { title: 'Also' } })).status).toBe(
      201,
    );
    const refused = await limited.request('POST', `/api/trash/folders/${folder.body.id}/restore`, as);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('plan_limit');
    // Nothing came back: the folder and both documents are still in the trash.
    expect((await limited.request('GET', '/api/folders', as)).body.folders).toEqual([]);
    const trashed = await limited.request('GET', '/api/trash/folders', as);
    expect(trashed.body.folders).toMatchObject([{ id: folder.body.id, documentCount: 2 }]);

    await limited.request('DELETE', `/api/documents/${taken.body.id}`, as);
    const restored = await limited.request('POST', `/api/trash/folders/${folder.body.id}/restore`, as);
    expect(restored.status, restored.text).toBe(204);
    const listed = await limited.request('GET', `/api/search/documents?folderId=${folder.body.id}`, as);
    expect(listed.body.total).toBe(2);
  });
});
