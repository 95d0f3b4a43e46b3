import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../db/schema';
import { AppError } from '../errors';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { authorizeDocument, documentForUser, documentRole, userRoles, type AccessDeps } from './access';
import {
  can,
  DOCUMENT_ABILITIES,
  DOCUMENT_ROLES,
  ROLE_ABILITIES,
  tokenMay,
  type DocumentAbility,
  type DocumentRole,
} from './policy';
import { listDocumentsOf } from './repository';

/**
 * The abilities table as the product defines it, written out cell by cell: changing what a role may do
 * must change this test too (and docs/security.md's table).
 */
const EXPECTED: Record<DocumentAbility, Record<DocumentRole, boolean>> = {
  read: { owner: true, editor: true, suggester: true, commenter: true, viewer: true },
  write: { owner: true, editor: true, suggester: false, commenter: false, viewer: false },
  suggest: { owner: true, editor: true, suggester: true, commenter: false, viewer: false },
  comment: { owner: true, editor: true, suggester: true, commenter: true, viewer: false },
  openLive: { owner: true, editor: true, suggester: true, commenter: false, viewer: false },
  share: { owner: true, editor: false, suggester: false, commenter: false, viewer: false },
  manageMembers: { owner: true, editor: false, suggester: false, commenter: false, viewer: false },
  delete: { owner: true, editor: false, suggester: false, commenter: false, viewer: false },
  useAi: { owner: true, editor: false, suggester: false, commenter: false, viewer: false },
  seeVersions: { owner: true, editor: false, suggester: false, commenter: false, viewer: false },
  manageVersions: { owner: true, editor: false, suggester: false, commenter: false, viewer: false },
  export: { owner: true, editor: false, suggester: false, commenter: false, viewer: false },
};

describe('the abilities table', () => {
  it('grants each role exactly its abilities', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...DOCUMENT_ABILITIES].sort());
    for (const ability of DOCUMENT_ABILITIES) {
      for (const role of DOCUMENT_ROLES) {
        expect(can(role, ability), `${role} ${ability}`).toBe(EXPECTED[ability][role]);
        expect(ROLE_ABILITIES[role].has(ability)).toBe(EXPECTED[ability][role]);
      }
    }
  });

  it('grants nothing without a role', () => {
    for (const ability of DOCUMENT_ABILITIES) {
      expect(can(null, ability)).toBe(false);
      expect(can(undefined, ability)).toBe(false);
    }
  });
});

const CONTENT = {
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Policy words' }] }],
};

let server: TestServer;
let owner: TestUser;
let other: TestUser;
let deps: AccessDeps;

async function newDocument(user: TestUser): Promise<string> {
  const [row] = await server.database.db
    .insert(documents)
    .values({ userId: user.id, title: 'Policy', content: CONTENT })
    .returning({ id: documents.id });
  return row!.id;
}

/** Shares the owner's document with these settings and returns a visitor's token. */
async function shareToken(
  documentId: string,
  settings: { allowEditing: boolean; allowSuggesting?: boolean },
): Promise<string> {
  const put = await server.request('PUT', `/api/documents/${documentId}/share`, {
    token: owner.token,
    body: { isPublic: true, ...settings },
  });
  expect(put.status, put.text).toBe(200);
  const visit = await server.request('GET', `/api/shared/${documentId}`);
  expect(visit.status, visit.text).toBe(200);
  return visit.body.shareToken as string;
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string | undefined }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return { status: (error as AppError).status, code: (error as AppError).code };
}

beforeAll(async () => {
  server = await startTestServer();
  [owner, other] = await Promise.all([createUser(server), createUser(server)]);
  deps = { db: server.database.db, config: server.config };
});
afterAll(() => server?.close());

describe('roles found in the database', () => {
  it('a signed-in user owns their own document and holds no role on anyone else’s', async () => {
    const id = await newDocument(owner);
    expect(await documentRole(deps, { kind: 'user', userId: owner.id }, id)).toBe('owner');
    expect(await documentRole(deps, { kind: 'user', userId: other.id }, id)).toBeNull();
    expect(
      await documentRole(deps, { kind: 'user', userId: owner.id }, '00000000-0000-4000-8000-000000000000'),
    ).toBeNull();
    expect(await documentRole(deps, { kind: 'user', userId: owner.id }, 'not-a-document-id')).toBeNull();
  });

  it('a share token gives the role of the share settings now, for its own document only', async () => {
    const id = await newDocument(owner);
    const elsewhere = await newDocument(owner);
    const actor = (token: string, documentId = id) => ({ kind: 'share' as const, token, documentId });

    const editing = await shareToken(id, { allowEditing: true });
    expect(await documentRole(deps, actor(editing), id)).toBe('editor');
    // The token names its document: presented for another one, it opens nothing.
    expect(await documentRole(deps, actor(editing, elsewhere), elsewhere)).toBeNull();
    expect(await documentRole(deps, actor(editing), elsewhere)).toBeNull();

    const suggesting = await shareToken(id, { allowEditing: false, allowSuggesting: true });
    expect(await documentRole(deps, actor(suggesting), id)).toBe('suggester');
    // Issued under the editing settings: the level changed, so that token no longer opens anything.
    expect(await documentRole(deps, actor(editing), id)).toBeNull();

    const viewing = await shareToken(id, { allowEditing: false, allowSuggesting: false });
    expect(await documentRole(deps, actor(viewing), id)).toBe('viewer');

    const made = await server.request('PUT', `/api/documents/${id}/share`, {
      token: owner.token,
      body: { isPublic: false, allowEditing: false },
    });
    expect(made.status).toBe(200);
    expect(await documentRole(deps, actor(viewing), id)).toBeNull();
  });

  it('refuses what the role may not do like a missing document (404, with the caller’s code)', async () => {
    const id = await newDocument(owner);
    const ownerActor = { kind: 'user' as const, userId: owner.id };
    expect(await authorizeDocument(deps, ownerActor, id, 'useAi')).toBe('owner');
    expect(await refusal(authorizeDocument(deps, { kind: 'user', userId: other.id }, id, 'read'))).toEqual({
      status: 404,
      code: 'not_found',
    });
    expect(
      await refusal(
        authorizeDocument(deps, { kind: 'user', userId: other.id }, id, 'useAi', 'document_not_found'),
      ),
    ).toEqual({ status: 404, code: 'document_not_found' });

    const viewing = await shareToken(id, { allowEditing: false });
    const visitor = { kind: 'share' as const, token: viewing, documentId: id };
    expect(await authorizeDocument(deps, visitor, id, 'read')).toBe('viewer');
    for (const ability of ['write', 'suggest', 'openLive', 'share', 'useAi', 'export'] as const) {
      expect(await refusal(authorizeDocument(deps, visitor, id, ability))).toEqual({
        status: 404,
        code: 'not_found',
      });
    }

    expect((await documentForUser(deps, owner.id, id, 'export')).content).toEqual(CONTENT);
    expect(await refusal(documentForUser(deps, other.id, id, 'export'))).toEqual({
      status: 404,
      code: 'not_found',
    });
  });

  it('the list query, the single check and the batched check agree', async () => {
    const mine = await Promise.all([newDocument(owner), newDocument(owner)]);
    const theirs = await Promise.all([newDocument(other), newDocument(other)]);
    const listed = new Set(
      (await listDocumentsOf(server.database.db, owner.id, { limit: 1000 })).map((row) => row.id),
    );
    const pairs = [...mine, ...theirs].map((documentId) => ({ userId: owner.id, documentId }));
    const roleOf = await userRoles(server.database, pairs);
    for (const { documentId } of pairs) {
      const role = await documentRole(deps, { kind: 'user', userId: owner.id }, documentId);
      expect(role !== null, documentId).toBe(listed.has(documentId));
      expect(roleOf({ userId: owner.id, documentId })).toBe(role);
      expect(role).toBe(mine.includes(documentId) ? 'owner' : null);
    }
  });
});

describe('API token scopes narrow a role', () => {
  it('read reads; write also changes and deletes; comment and suggest read and comment; none shares, opens live or uses AI', () => {
    const expected: Record<string, DocumentAbility[]> = {
      read: ['read', 'seeVersions', 'export'],
      write: ['read', 'write', 'comment', 'delete', 'seeVersions', 'manageVersions', 'export'],
      comment: ['read', 'comment'],
      suggest: ['read', 'suggest', 'comment'],
    };
    for (const scope of ['read', 'write', 'comment', 'suggest'] as const) {
      for (const ability of DOCUMENT_ABILITIES) {
        expect(tokenMay([scope], ability), `${scope} ${ability}`).toBe(expected[scope]!.includes(ability));
      }
    }
    for (const ability of ['share', 'openLive', 'useAi'] as const) {
      expect(tokenMay(['read', 'write', 'comment', 'suggest'], ability)).toBe(false);
    }
    expect(tokenMay(['read', 'suggest'], 'write')).toBe(false);
  });
});
