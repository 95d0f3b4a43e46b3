import { hash } from '@node-rs/argon2';
import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_PATH } from '../../shared/constants';
import { COLLAB_CLOSE } from '../../shared/editor/collab-protocol';
import { connectCollabClient, waitFor, type CollabClient } from '../collab/testing';
import { multipartFile, seedImage, testPng } from '../images/testing';
import {
  aiCommands,
  aiSuggestions,
  comments,
  commentThreads,
  documents,
  sessions,
  templates,
  users,
} from '../db/schema';
import { signAccessToken } from '../plugins';
import { createUser, type TestUser } from '../test/factories';
import { startFakeOpenAI } from '../test/fake-openai';
import type { FakeProvider } from '../test/fake-provider';
import { startFakeStripe, type FakeStripe } from '../test/fake-stripe';
import { startTestServer, type ApiResponse, type TestServer } from '../test/server';

/**
 * Who may call what. Every route the app serves (`app.routeList`, filled by an onRoute
 * hook) × every kind of caller, with the status each must get. A route without an entry in MATRIX fails
 * the first test, so a new route cannot ship without its authorization being decided here.
 *
 * Each case gets fresh state: a document of the owner that is shared publicly behind a password (so the
 * share token, not the link alone, is what lets a visitor in), at the access level of the visiting caller
 * (view, suggest or edit), and fresh sessions for the signed-in callers. Every answer here comes from the
 * documents access policy (documents/policy.ts); documents/policy.test.ts checks its abilities table.
 *
 * The server runs with an AI provider and Stripe configured (the local OpenAI-compatible and Stripe
 * stand-ins), so every caller's answer is exact: the owner's success path is checked on AI and billing
 * routes too, and a 5xx for anyone fails.
 */

const ACTORS = [
  'anonymous',
  'otherUser',
  'owner',
  'shareViewer',
  'shareSuggester',
  'shareEditor',
  'expiredSession',
  'revokedSession',
] as const;
type Actor = (typeof ACTORS)[number];

const SHARE_PASSWORD = 'matrix share password';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
/** Port 9 (discard) on loopback: nothing listens there. */
const WEBHOOK_TARGET = '127.0.0.1:9';

interface CaseState {
  documentId: string;
  suggestionId: string;
  /** One of the owner's custom AI commands. */
  commandId: string;
  /** One of the owner's templates. */
  templateId: string;
  /** A named version of the document (version history). */
  versionId: string;
  /** An image in the document. */
  imageId: string;
  /** A comment thread of the owner's on the document, and its first comment. */
  threadId: string;
  commentId: string;
  /** A paid Stripe checkout session of the owner's. */
  checkoutSessionId: string;
  owner: TestUser;
  other: TestUser;
  /** Another signed-in session of the owner's (another device), made per case. */
  ownerDeviceSessionId: string;
}

interface Call {
  path: string;
  body?: unknown;
  /** Sent as-is instead of JSON (multipart uploads). */
  rawBody?: string | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
}

/** The exact status each caller must get. */
type Expectation = number;

interface RouteCase {
  call(state: CaseState): Call;
  expect: Record<Actor, Expectation>;
  /** Extra checks on a 2xx answer (e.g. another user's list must not contain the owner's document). */
  check?(actor: Actor, response: ApiResponse, state: CaseState): void;
  /** The case's document is in the owner's trash (the trash's own routes). */
  trashed?: boolean;
}

// Callers without a valid bearer token.
const NO_USER = {
  anonymous: 401,
  shareViewer: 401,
  shareSuggester: 401,
  shareEditor: 401,
  expiredSession: 401,
  revokedSession: 401,
} as const;

/** A route of the signed-in user's own data: any signed-in user gets `ok`. */
const userScoped = (ok: number): Record<Actor, Expectation> => ({ ...NO_USER, otherUser: ok, owner: ok });
/** A route on the owner's document: another user gets 404 (never 403: the document's existence is hidden). */
const documentScoped = (ok: number): Record<Actor, Expectation> => ({
  ...NO_USER,
  otherUser: 404,
  owner: ok,
});
/** Anyone gets the same answer: bearer and share tokens change nothing. */
const everyone = (status: number): Record<Actor, Expectation> =>
  Object.fromEntries(ACTORS.map((actor) => [actor, status])) as Record<Actor, Expectation>;

/** An instance-admin route: every member is refused with 403 forbidden. */
const membersForbidden: Record<Actor, Expectation> = { ...NO_USER, otherUser: 403, owner: 403 };

const CHECKOUT_EXPECTATION: Record<Actor, Expectation> = { ...NO_USER, otherUser: 200, owner: 409 };

/** AI generation on the owner's document: the provider answers the owner; another user is told it does not exist. */
const aiDocumentRoute = (body: (s: CaseState) => Record<string, unknown>, path: string): RouteCase => ({
  call: (s) => ({ path, body: { ...body(s), documentId: s.documentId } }),
  expect: documentScoped(200),
});

const ensureNotListed: RouteCase['check'] = (actor, response, state) => {
  if (actor === 'otherUser') expect(JSON.stringify(response.body)).not.toContain(state.documentId);
};

const MATRIX: Record<string, RouteCase> = {
  'GET /api/health': { call: () => ({ path: '/api/health' }), expect: everyone(200) },
  'GET /api/openapi.json': { call: () => ({ path: '/api/openapi.json' }), expect: everyone(200) },

  // Accounts: public entry points answer the same whatever token comes along.
  'POST /api/auth/signup': {
    call: () => ({
      path: '/api/auth/signup',
      body: {
        email: `matrix-${randomBytes(5).toString('hex')}@example.com`,
        password: 'a sturdy passphrase 7',
        data: { full_name: 'Matrix Writer' },
      },
    }),
    expect: everyone(200),
  },
  'POST /api/auth/token': {
    call: (s) => ({
      path: '/api/auth/token?grant_type=password',
      body: { email: s.owner.email, password: s.owner.password },
    }),
    expect: everyone(200),
  },
  'POST /api/auth/logout': { call: () => ({ path: '/api/auth/logout' }), expect: userScoped(204) },
  'POST /api/auth/recover': {
    call: () => ({
      path: '/api/auth/recover',
      body: { email: `nobody-${randomBytes(4).toString('hex')}@x.io` },
    }),
    expect: everyone(200),
  },
  'POST /api/auth/resend': {
    call: () => ({
      path: '/api/auth/resend',
      body: { type: 'signup', email: `nobody-${randomBytes(4).toString('hex')}@x.io` },
    }),
    expect: everyone(200),
  },
  'POST /api/auth/verify': {
    call: () => ({ path: '/api/auth/verify', body: { type: 'recovery', token: 'not-a-real-token' } }),
    expect: everyone(403),
  },
  'GET /api/auth/user': {
    call: () => ({ path: '/api/auth/user' }),
    expect: userScoped(200),
    check: (actor, response, s) => {
      if (actor === 'otherUser') expect(response.body.id).toBe(s.other.id);
      if (actor === 'owner') expect(response.body.id).toBe(s.owner.id);
    },
  },
  'PUT /api/auth/user': {
    call: () => ({ path: '/api/auth/user', body: { data: { full_name: 'Matrix Writer' } } }),
    expect: userScoped(200),
  },
  'GET /api/auth/sessions': {
    call: () => ({ path: '/api/auth/sessions' }),
    expect: userScoped(200),
    check: (actor, response, s) => {
      if (actor === 'otherUser') expect(JSON.stringify(response.body)).not.toContain(s.ownerDeviceSessionId);
    },
  },
  // Signing out one of the owner's devices: another user is told it does not exist.
  'DELETE /api/auth/sessions/:id': {
    call: (s) => ({ path: `/api/auth/sessions/${s.ownerDeviceSessionId}` }),
    expect: documentScoped(204),
  },
  'GET /api/auth/setup': { call: () => ({ path: '/api/auth/setup' }), expect: userScoped(200) },
  // The instance has its admin: no setup code works any more, for anyone.
  'POST /api/auth/setup': {
    call: () => ({ path: '/api/auth/setup', body: { code: 'AAAAA-BBBBB-CCCCC' } }),
    expect: { ...NO_USER, otherUser: 403, owner: 403 },
  },

  // Documents: owner only; others are told it does not exist.
  'GET /api/documents': {
    call: () => ({ path: '/api/documents' }),
    expect: userScoped(200),
    check: ensureNotListed,
  },
  'POST /api/documents': {
    call: () => ({ path: '/api/documents', body: { title: 'Matrix new' } }),
    expect: userScoped(201),
  },
  'POST /api/documents/import': {
    call: () => markdownUpload('/api/documents/import'),
    expect: userScoped(201),
  },
  'POST /api/documents/import/convert': {
    call: () => markdownUpload('/api/documents/import/convert'),
    expect: userScoped(200),
  },
  // Search reads only the caller's documents: another user never finds the owner's "secret".
  'GET /api/search': {
    call: () => ({ path: '/api/search?q=secret' }),
    expect: userScoped(200),
    check: ensureNotListed,
  },
  'GET /api/search/documents': {
    call: () => ({ path: '/api/search/documents' }),
    expect: userScoped(200),
    check: ensureNotListed,
  },
  'GET /api/documents/:id': {
    call: (s) => ({ path: `/api/documents/${s.documentId}` }),
    expect: documentScoped(200),
  },
  // Each case's document has never been open live, so it has no Yjs state yet: 204 (document-state.test.ts
  // covers the state itself).
  'GET /api/documents/:id/state': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/state` }),
    expect: documentScoped(204),
  },
  'PATCH /api/documents/:id': {
    call: (s) => ({ path: `/api/documents/${s.documentId}`, body: { title: 'Matrix renamed' } }),
    expect: documentScoped(200),
  },
  'DELETE /api/documents/:id': {
    call: (s) => ({ path: `/api/documents/${s.documentId}` }),
    expect: documentScoped(204),
  },
  // Pins are each user's own, on documents they may read.
  'GET /api/documents/:id/pin': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/pin` }),
    expect: documentScoped(200),
  },
  'PUT /api/documents/:id/pin': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/pin` }),
    expect: documentScoped(204),
  },
  'DELETE /api/documents/:id/pin': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/pin` }),
    expect: documentScoped(204),
  },
  // Goals are each writer's own, on documents they may write.
  'GET /api/documents/:id/goal': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/goal?zone=Europe/Paris` }),
    expect: documentScoped(200),
  },
  'PUT /api/documents/:id/goal': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/goal`, body: { target_words: 5000 } }),
    expect: documentScoped(200),
  },
  'DELETE /api/documents/:id/goal': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/goal` }),
    expect: documentScoped(204),
  },
  // Templates: the built-in ones for every signed-in user, the owner's own for the owner alone.
  'GET /api/templates': {
    call: () => ({ path: '/api/templates' }),
    expect: userScoped(200),
    check: (actor, response, s) => {
      if (actor === 'otherUser') expect(JSON.stringify(response.body)).not.toContain(s.templateId);
    },
  },
  'POST /api/templates': {
    call: (s) => ({ path: '/api/templates', body: { documentId: s.documentId } }),
    expect: documentScoped(201),
  },
  'DELETE /api/templates/:id': {
    call: (s) => ({ path: `/api/templates/${s.templateId}` }),
    expect: documentScoped(204),
  },
  'POST /api/templates/:id/documents': {
    call: (s) => ({ path: `/api/templates/${s.templateId}/documents`, body: { date: '2026-11-28' } }),
    expect: documentScoped(201),
  },
  // The trash: the owner's alone; each case's document is in the owner's trash.
  'GET /api/trash': {
    call: () => ({ path: '/api/trash' }),
    expect: userScoped(200),
    trashed: true,
    check: (actor, response, s) => {
      const listed = JSON.stringify(response.body).includes(s.documentId);
      expect(listed, `${actor} sees the owner's trashed document`).toBe(actor === 'owner');
    },
  },
  'POST /api/trash/:id/restore': {
    call: (s) => ({ path: `/api/trash/${s.documentId}/restore` }),
    expect: documentScoped(204),
    trashed: true,
  },
  'DELETE /api/trash/:id': {
    call: (s) => ({ path: `/api/trash/${s.documentId}` }),
    expect: documentScoped(204),
    trashed: true,
  },
  'DELETE /api/trash': {
    call: () => ({ path: '/api/trash' }),
    expect: userScoped(204),
    trashed: true,
  },
  // Version history: the owner's alone, like the document (a share link opens nothing here).
  'GET /api/documents/:id/versions': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/versions` }),
    expect: documentScoped(200),
  },
  'GET /api/documents/:id/versions/:versionId': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/versions/${s.versionId}` }),
    expect: documentScoped(200),
  },
  'POST /api/documents/:id/versions': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/versions`, body: { name: 'Matrix version' } }),
    expect: documentScoped(201),
  },
  'POST /api/documents/:id/versions/checkpoint': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/versions/checkpoint`, body: { reason: 'ai' } }),
    expect: documentScoped(201),
  },
  'POST /api/documents/:id/versions/:versionId/restore': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/versions/${s.versionId}/restore` }),
    expect: documentScoped(200),
  },
  'DELETE /api/documents/:id/versions/:versionId': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/versions/${s.versionId}` }),
    expect: documentScoped(204),
  },
  'GET /api/documents/:id/export': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/export?format=html` }),
    expect: documentScoped(200),
  },
  'GET /api/documents/:id/compile': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/compile` }),
    expect: documentScoped(200),
  },
  'POST /api/documents/:id/compile': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/compile`, body: { format: 'epub' } }),
    expect: documentScoped(200),
  },

  // Sharing: settings are the owner's; the shared view needs the link's token when a password is set.
  'GET /api/documents/:id/share': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/share` }),
    expect: documentScoped(200),
  },
  'PUT /api/documents/:id/share': {
    // The settings the document already has (so the visitors' tokens stay valid).
    call: (s) => ({
      path: `/api/documents/${s.documentId}/share`,
      body: { isPublic: true, allowEditing: false },
    }),
    expect: documentScoped(200),
  },
  'POST /api/documents/:id/share/reset': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/share/reset` }),
    expect: documentScoped(200),
  },
  // People on a document: managing them is the owner's; "Shared with me" is each user's own.
  // Images: whoever may edit uploads, whoever may read sees them; anyone else is told there is nothing.
  'POST /api/documents/:id/images': {
    call: (s) => {
      const upload = multipartFile(matrixPng);
      return {
        path: `/api/documents/${s.documentId}/images`,
        headers: { 'content-type': upload.contentType },
        rawBody: upload.body,
      };
    },
    expect: { ...documentScoped(201), shareViewer: 404, shareSuggester: 404, shareEditor: 201 },
  },
  'GET /api/documents/:id/images/:imageId': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/images/${s.imageId}` }),
    expect: { ...documentScoped(200), shareViewer: 200, shareSuggester: 200, shareEditor: 200 },
  },
  'GET /api/documents/:id/image-access': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/image-access` }),
    expect: { ...documentScoped(200), shareViewer: 200, shareSuggester: 200, shareEditor: 200 },
  },
  'GET /api/documents/:id/members': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/members` }),
    expect: documentScoped(200),
  },
  'POST /api/documents/:id/members': {
    call: (s) => ({
      path: `/api/documents/${s.documentId}/members`,
      body: { email: `matrix-${randomUUID()}@example.com`, role: 'viewer' },
    }),
    expect: documentScoped(201),
  },
  'PATCH /api/documents/:id/members/:memberId': {
    // No such member: the owner is told so; anyone else, that the document does not exist.
    call: (s) => ({ path: `/api/documents/${s.documentId}/members/${UNKNOWN_ID}`, body: { role: 'editor' } }),
    expect: documentScoped(404),
  },
  'DELETE /api/documents/:id/members/:memberId': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/members/${UNKNOWN_ID}` }),
    expect: documentScoped(404),
  },
  // Comments on passages (comments/comments.test.ts checks every role): signed-in people on /api/documents,
  // share-link visitors on /api/shared. The case's thread and its first comment are the owner's.
  'GET /api/documents/:id/threads': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/threads` }),
    expect: documentScoped(200),
    check: (_actor, response, s) => expect(response.body.threads[0].id).toBe(s.threadId),
  },
  'POST /api/documents/:id/threads': {
    call: (s) => ({
      path: `/api/documents/${s.documentId}/threads`,
      body: { id: randomUUID(), anchor: { quote: 'secret' }, body: 'A thought' },
    }),
    expect: documentScoped(201),
  },
  'PATCH /api/documents/:id/threads/:threadId': {
    call: (s) => ({
      path: `/api/documents/${s.documentId}/threads/${s.threadId}`,
      body: { status: 'resolved' },
    }),
    expect: documentScoped(200),
  },
  'DELETE /api/documents/:id/threads/:threadId': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/threads/${s.threadId}` }),
    expect: documentScoped(204),
  },
  'POST /api/documents/:id/threads/:threadId/comments': {
    call: (s) => ({
      path: `/api/documents/${s.documentId}/threads/${s.threadId}/comments`,
      body: { body: 'Yes' },
    }),
    expect: documentScoped(201),
  },
  'PATCH /api/documents/:id/threads/:threadId/comments/:commentId': {
    call: (s) => ({
      path: `/api/documents/${s.documentId}/threads/${s.threadId}/comments/${s.commentId}`,
      body: { body: 'Changed my mind' },
    }),
    expect: documentScoped(200),
  },
  'DELETE /api/documents/:id/threads/:threadId/comments/:commentId': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/threads/${s.threadId}/comments/${s.commentId}` }),
    expect: documentScoped(204),
  },
  'GET /api/documents/:id/mentions': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/mentions` }),
    expect: documentScoped(200),
    check: (_actor, response, s) =>
      expect(response.body.people.map((p: { id: string }) => p.id)).toEqual([s.owner.id]),
  },
  // Without a share token the document is not shared, whoever asks (the owner uses /api/documents).
  'GET /api/shared/:id/threads': {
    call: (s) => ({ path: `/api/shared/${s.documentId}/threads` }),
    expect: { ...everyone(404), shareViewer: 200, shareSuggester: 200, shareEditor: 200 },
  },
  'POST /api/shared/:id/threads': {
    call: (s) => ({
      path: `/api/shared/${s.documentId}/threads`,
      body: { id: randomUUID(), anchor: { quote: 'secret' }, body: 'A thought', authorName: 'Visitor' },
    }),
    expect: { ...everyone(404), shareSuggester: 201, shareEditor: 201 },
  },
  'PATCH /api/shared/:id/threads/:threadId': {
    // Someone else's thread: resolved by those who may edit.
    call: (s) => ({
      path: `/api/shared/${s.documentId}/threads/${s.threadId}`,
      body: { status: 'resolved' },
    }),
    expect: { ...everyone(404), shareViewer: 403, shareSuggester: 403, shareEditor: 200 },
  },
  'DELETE /api/shared/:id/threads/:threadId': {
    call: (s) => ({ path: `/api/shared/${s.documentId}/threads/${s.threadId}` }),
    expect: { ...everyone(404), shareViewer: 403, shareSuggester: 403, shareEditor: 403 },
  },
  'POST /api/shared/:id/threads/:threadId/comments': {
    call: (s) => ({
      path: `/api/shared/${s.documentId}/threads/${s.threadId}/comments`,
      body: { body: 'Yes', authorName: 'Visitor' },
    }),
    expect: { ...everyone(404), shareSuggester: 201, shareEditor: 201 },
  },
  'PATCH /api/shared/:id/threads/:threadId/comments/:commentId': {
    call: (s) => ({
      path: `/api/shared/${s.documentId}/threads/${s.threadId}/comments/${s.commentId}`,
      body: { body: 'Changed' },
    }),
    expect: { ...everyone(404), shareSuggester: 403, shareEditor: 403 },
  },
  'DELETE /api/shared/:id/threads/:threadId/comments/:commentId': {
    call: (s) => ({ path: `/api/shared/${s.documentId}/threads/${s.threadId}/comments/${s.commentId}` }),
    expect: { ...everyone(404), shareSuggester: 403, shareEditor: 403 },
  },
  'GET /api/shared-with-me': {
    call: () => ({ path: '/api/shared-with-me' }),
    expect: userScoped(200),
    check: ensureNotListed,
  },
  'GET /api/shared-with-me/:id': {
    call: (s) => ({ path: `/api/shared-with-me/${s.documentId}` }),
    expect: documentScoped(200),
  },
  'GET /api/shared/:id': {
    call: (s) => ({ path: `/api/shared/${s.documentId}` }),
    // Without the visitor's token a password-protected link asks for the password — even for the owner,
    // who reads the document through /api/documents.
    expect: { ...everyone(401), shareViewer: 200, shareSuggester: 200, shareEditor: 200 },
    check: (actor, response, s) => {
      expect(response.body.id).toBe(s.documentId);
      expect(response.body.allowEditing).toBe(actor === 'shareEditor');
      expect(response.body.access).toBe(SHARE_ACCESS_OF[actor as keyof typeof SHARE_ACCESS_OF]);
    },
  },
  'POST /api/shared/:id/unlock': {
    // A wrong password is refused whoever asks: no token lets anyone skip it.
    call: (s) => ({ path: `/api/shared/${s.documentId}/unlock`, body: { password: 'wrong password' } }),
    expect: everyone(401),
  },

  // Settings.
  'GET /api/me/settings': { call: () => ({ path: '/api/me/settings' }), expect: userScoped(200) },
  // Notifications are one's own: another user's list never holds the owner's.
  'GET /api/notifications': { call: () => ({ path: '/api/notifications' }), expect: userScoped(200) },
  'GET /api/notifications/unread-count': {
    call: () => ({ path: '/api/notifications/unread-count' }),
    expect: userScoped(200),
  },
  'POST /api/notifications/read': {
    call: () => ({ path: '/api/notifications/read', body: { all: true } }),
    expect: userScoped(200),
  },
  'PUT /api/me/settings': {
    call: () => ({ path: '/api/me/settings', body: { preferences: { theme: 'dark' } } }),
    expect: userScoped(200),
  },

  // Personal API tokens (api-tokens/api-tokens.test.ts checks what a token itself may call).
  'GET /api/me/api-tokens': { call: () => ({ path: '/api/me/api-tokens' }), expect: userScoped(200) },
  'POST /api/me/api-tokens': {
    call: () => ({ path: '/api/me/api-tokens', body: { name: 'Matrix', scopes: ['read'] } }),
    expect: userScoped(201),
  },
  // Only the token's user can revoke it; an unknown one is missing for everyone.
  'DELETE /api/me/api-tokens/:id': {
    call: () => ({ path: `/api/me/api-tokens/${UNKNOWN_ID}` }),
    expect: { ...NO_USER, otherUser: 404, owner: 404 },
  },
  'GET /api/admin/api-tokens': { call: () => ({ path: '/api/admin/api-tokens' }), expect: membersForbidden },
  'PUT /api/admin/api-tokens': {
    call: () => ({ path: '/api/admin/api-tokens', body: { enabled: true } }),
    expect: membersForbidden,
  },

  // OAuth consent (oauth/oauth.test.ts checks the whole flow): a signed-in user only; a request naming no
  // registered app is refused for everyone who gets that far.
  'GET /api/oauth/authorize': {
    call: () => ({ path: '/api/oauth/authorize?client_id=unknown' }),
    expect: userScoped(400),
  },
  'POST /api/oauth/authorize': {
    call: () => ({ path: '/api/oauth/authorize', body: { client_id: 'unknown', allow: true } }),
    expect: userScoped(400),
  },
  'GET /api/me/connected-apps': { call: () => ({ path: '/api/me/connected-apps' }), expect: userScoped(200) },
  'DELETE /api/me/connected-apps/:id': {
    call: () => ({ path: `/api/me/connected-apps/${UNKNOWN_ID}` }),
    expect: { ...NO_USER, otherUser: 404, owner: 404 },
  },

  // Folders (folders/folders.test.ts checks the tree's own rules). Unknown folders are missing for everyone.
  'GET /api/folders': { call: () => ({ path: '/api/folders' }), expect: userScoped(200) },
  'POST /api/folders': {
    call: () => ({ path: '/api/folders', body: { name: 'Matrix folder', parentId: null } }),
    expect: userScoped(201),
  },
  'PATCH /api/folders/:id': {
    call: () => ({ path: `/api/folders/${UNKNOWN_ID}`, body: { name: 'Renamed' } }),
    expect: { ...NO_USER, otherUser: 404, owner: 404 },
  },
  'DELETE /api/folders/:id': {
    call: () => ({ path: `/api/folders/${UNKNOWN_ID}` }),
    expect: { ...NO_USER, otherUser: 404, owner: 404 },
  },
  'GET /api/folders/:id/export': {
    call: () => ({ path: `/api/folders/${UNKNOWN_ID}/export?format=md` }),
    expect: { ...NO_USER, otherUser: 404, owner: 404 },
  },
  'GET /api/folders/:id/compile': {
    call: () => ({ path: `/api/folders/${UNKNOWN_ID}/compile` }),
    expect: { ...NO_USER, otherUser: 404, owner: 404 },
  },
  'POST /api/folders/:id/compile': {
    call: () => ({ path: `/api/folders/${UNKNOWN_ID}/compile`, body: { format: 'epub' } }),
    expect: { ...NO_USER, otherUser: 404, owner: 404 },
  },
  'GET /api/folders/:id/goal': {
    call: () => ({ path: `/api/folders/${UNKNOWN_ID}/goal` }),
    expect: { ...NO_USER, otherUser: 404, owner: 404 },
  },
  'PUT /api/folders/:id/goal': {
    call: () => ({ path: `/api/folders/${UNKNOWN_ID}/goal`, body: { target_words: 5000 } }),
    expect: { ...NO_USER, otherUser: 404, owner: 404 },
  },
  'DELETE /api/folders/:id/goal': {
    call: () => ({ path: `/api/folders/${UNKNOWN_ID}/goal` }),
    expect: { ...NO_USER, otherUser: 404, owner: 404 },
  },
  // People on a folder: the owner's only (people/folder-members.test.ts checks an owner's real folder).
  'GET /api/folders/:id/members': {
    call: () => ({ path: `/api/folders/${UNKNOWN_ID}/members` }),
    expect: { ...NO_USER, otherUser: 404, owner: 404 },
  },
  'POST /api/folders/:id/members': {
    call: () => ({
      path: `/api/folders/${UNKNOWN_ID}/members`,
      body: { email: `matrix-${randomUUID()}@example.com`, role: 'viewer' },
    }),
    expect: { ...NO_USER, otherUser: 404, owner: 404 },
  },
  'PATCH /api/folders/:id/members/:memberId': {
    call: () => ({ path: `/api/folders/${UNKNOWN_ID}/members/${UNKNOWN_ID}`, body: { role: 'editor' } }),
    expect: { ...NO_USER, otherUser: 404, owner: 404 },
  },
  'DELETE /api/folders/:id/members/:memberId': {
    call: () => ({ path: `/api/folders/${UNKNOWN_ID}/members/${UNKNOWN_ID}` }),
    expect: { ...NO_USER, otherUser: 404, owner: 404 },
  },
  'GET /api/documents/:id/folder': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/folder` }),
    expect: documentScoped(200),
  },
  'PUT /api/documents/:id/folder': {
    call: (s) => ({ path: `/api/documents/${s.documentId}/folder`, body: { folderId: null } }),
    expect: documentScoped(200),
  },
  'GET /api/trash/folders': { call: () => ({ path: '/api/trash/folders' }), expect: userScoped(200) },
  'POST /api/trash/folders/:id/restore': {
    call: () => ({ path: `/api/trash/folders/${UNKNOWN_ID}/restore` }),
    expect: { ...NO_USER, otherUser: 404, owner: 404 },
  },
  'DELETE /api/trash/folders/:id': {
    call: () => ({ path: `/api/trash/folders/${UNKNOWN_ID}` }),
    expect: { ...NO_USER, otherUser: 404, owner: 404 },
  },
  'DELETE /api/trash/folders': { call: () => ({ path: '/api/trash/folders' }), expect: userScoped(204) },

  // Webhooks (webhooks/webhooks.test.ts delivers to a local receiver). The address is a closed loopback port
  // the server is allowed to reach (OUTBOUND_ALLOWED_HOSTS below): deliveries fail at once, on this machine.
  'GET /api/webhooks': { call: () => ({ path: '/api/webhooks' }), expect: userScoped(200) },
  'POST /api/webhooks': {
    call: () => ({
      path: '/api/webhooks',
      body: { url: `http://${WEBHOOK_TARGET}/hook`, events: ['document.restored'] },
    }),
    expect: userScoped(201),
  },
  'DELETE /api/webhooks/:id': {
    call: () => ({ path: `/api/webhooks/${UNKNOWN_ID}` }),
    expect: { ...NO_USER, otherUser: 404, owner: 404 },
  },
  'POST /api/webhooks/:id/enable': {
    call: () => ({ path: `/api/webhooks/${UNKNOWN_ID}/enable` }),
    expect: { ...NO_USER, otherUser: 404, owner: 404 },
  },
  'GET /api/webhooks/:id/deliveries': {
    call: () => ({ path: `/api/webhooks/${UNKNOWN_ID}/deliveries` }),
    expect: { ...NO_USER, otherUser: 404, owner: 404 },
  },

  // AI.
  'GET /api/ai/health': { call: () => ({ path: '/api/ai/health' }), expect: everyone(200) },

  // Instance administration: admins only (see admin/admin-ai.test.ts for the admin's own answers).
  'GET /api/admin/ai': { call: () => ({ path: '/api/admin/ai' }), expect: membersForbidden },
  'PUT /api/admin/ai': {
    call: () => ({ path: '/api/admin/ai', body: { providers: [] } }),
    expect: membersForbidden,
  },
  'POST /api/admin/ai/test': {
    call: () => ({ path: '/api/admin/ai/test', body: { id: 'env-openai' } }),
    expect: membersForbidden,
  },
  'POST /api/admin/ai/detect': {
    call: () => ({ path: '/api/admin/ai/detect', body: {} }),
    expect: membersForbidden,
  },
  'GET /api/ai/usage': { call: () => ({ path: '/api/ai/usage' }), expect: userScoped(200) },
  'POST /api/ai/improve': aiDocumentRoute(() => ({ text: 'A sentence to improve.' }), '/api/ai/improve'),
  'POST /api/ai/complete': aiDocumentRoute(() => ({ text: 'Once upon a time' }), '/api/ai/complete'),
  'POST /api/ai/rewrite': aiDocumentRoute(
    () => ({ text: 'Rewrite me.', style: 'clarity' }),
    '/api/ai/rewrite',
  ),
  'POST /api/ai/tone': aiDocumentRoute(() => ({ text: 'Adjust me.', tone: 'friendly' }), '/api/ai/tone'),
  'POST /api/ai/outline': aiDocumentRoute(() => ({ topic: 'Lighthouses' }), '/api/ai/outline'),
  'POST /api/ai/summarize': aiDocumentRoute(
    () => ({ text: 'One sentence here. Another sentence there. A third one.' }),
    '/api/ai/summarize',
  ),
  'POST /api/ai/alternatives': aiDocumentRoute(
    () => ({ text: 'Say it otherwise.', count: 3 }),
    '/api/ai/alternatives',
  ),
  'POST /api/ai/rephrase': aiDocumentRoute(
    () => ({ text: 'Say it otherwise.', count: 3 }),
    '/api/ai/rephrase',
  ),
  'POST /api/ai/grammar': {
    call: () => ({ path: '/api/ai/grammar', body: { text: 'This are a sentence.' } }),
    expect: userScoped(200),
  },
  'POST /api/ai/analyze': {
    call: () => ({ path: '/api/ai/analyze', body: { text: 'A short text to analyse.' } }),
    expect: userScoped(200),
  },
  'POST /api/ai/suggestions': {
    call: (s) => ({
      path: '/api/ai/suggestions',
      body: { documentId: s.documentId, originalText: 'a', suggestedText: 'b', type: 'improvement' },
    }),
    expect: documentScoped(201),
  },
  'GET /api/ai/suggestions': {
    call: (s) => ({ path: `/api/ai/suggestions?documentId=${s.documentId}` }),
    expect: documentScoped(200),
  },
  'GET /api/ai/commands': { call: () => ({ path: '/api/ai/commands' }), expect: userScoped(200) },
  'POST /api/ai/commands': {
    call: () => ({
      path: '/api/ai/commands',
      body: { name: 'Matrix', instruction: 'Say it like a matrix.', icon: 'wand' },
    }),
    expect: userScoped(201),
  },
  'PUT /api/ai/commands/:id': {
    call: (s) => ({
      path: `/api/ai/commands/${s.commandId}`,
      body: { name: 'Renamed', instruction: 'Say it otherwise.', icon: 'pen' },
    }),
    expect: documentScoped(200),
  },
  'DELETE /api/ai/commands/:id': {
    call: (s) => ({ path: `/api/ai/commands/${s.commandId}` }),
    expect: documentScoped(204),
  },
  'POST /api/ai/commands/:id/run': {
    call: (s) => ({
      path: `/api/ai/commands/${s.commandId}/run`,
      body: { text: 'Run me.', documentId: s.documentId },
    }),
    expect: documentScoped(200),
  },
  // Chat with the document: the owner's conversation; share-link visitors never get one.
  'GET /api/ai/chat/:documentId': {
    call: (s) => ({ path: `/api/ai/chat/${s.documentId}` }),
    expect: documentScoped(200),
  },
  'POST /api/ai/chat/:documentId': {
    call: (s) => ({ path: `/api/ai/chat/${s.documentId}`, body: { message: 'What is this about?' } }),
    expect: documentScoped(200),
  },
  'DELETE /api/ai/chat/:documentId': {
    call: (s) => ({ path: `/api/ai/chat/${s.documentId}` }),
    expect: documentScoped(204),
  },
  'PUT /api/ai/suggestions/:id': {
    call: (s) => ({ path: `/api/ai/suggestions/${s.suggestionId}`, body: { accepted: true } }),
    expect: documentScoped(200),
  },

  // Billing. The owner subscribes already, so a second checkout is refused (409 subscription_exists);
  // the other user has only started a checkout, so theirs opens.
  'GET /api/plans': { call: () => ({ path: '/api/plans' }), expect: everyone(200) },
  'POST /api/stripe/create-checkout': {
    call: () => ({ path: '/api/stripe/create-checkout', body: { priceId: MATRIX_PRICES.creatorMonthly } }),
    expect: CHECKOUT_EXPECTATION,
  },
  'POST /api/stripe/create-checkout-session': {
    call: () => ({
      path: '/api/stripe/create-checkout-session',
      body: { priceId: MATRIX_PRICES.creatorMonthly },
    }),
    expect: CHECKOUT_EXPECTATION,
  },
  // Both signed-in users have a Stripe customer (each started a checkout before the cases).
  'POST /api/stripe/create-portal': {
    call: () => ({ path: '/api/stripe/create-portal' }),
    expect: userScoped(200),
  },
  'GET /api/stripe/subscription-status': {
    call: () => ({ path: '/api/stripe/subscription-status' }),
    expect: userScoped(200),
  },
  // The owner's paid session: another user's confirmation of it answers like a missing session.
  'POST /api/stripe/payment-success': {
    call: (s) => ({ path: '/api/stripe/payment-success', body: { sessionId: s.checkoutSessionId } }),
    expect: documentScoped(200),
  },
  'POST /api/stripe/webhook': {
    // Authorized by Stripe's signature only: an unsigned call is refused whoever sends it, and a bearer
    // token changes nothing.
    call: () => ({ path: '/api/stripe/webhook', body: { type: 'checkout.session.completed' } }),
    expect: everyone(400),
  },
};

/** The collaboration socket is checked below with real providers; its entry here only marks it covered. */
const SOCKET_ROUTE = 'GET /api/collab';

let server: TestServer;
let ipCounter = 0;
let cases = 0;
let shareHash: string;
const clients: CollabClient[] = [];

async function freshSession(user: { id: string; email: string }, ttlSeconds?: number): Promise<string> {
  const [session] = await server.database.db
    .insert(sessions)
    .values({ userId: user.id })
    .returning({ id: sessions.id });
  const { token } = await signAccessToken(
    server.config.JWT_SECRET,
    { userId: user.id, sessionId: session!.id, email: user.email },
    ttlSeconds,
  );
  return token;
}

async function revokedSession(user: { id: string; email: string }): Promise<string> {
  const token = await freshSession(user);
  const res = await request('POST', '/api/auth/logout', { authorization: `Bearer ${token}` });
  expect(res.status).toBe(204);
  return token;
}

function request(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
  rawBody?: string | Uint8Array<ArrayBuffer>,
) {
  ipCounter += 1;
  return server.request(method, path, {
    headers: { 'x-forwarded-for': `10.8.${(ipCounter >> 8) & 255}.${ipCounter & 255}`, ...headers },
    ...(body !== undefined ? { body } : {}),
    ...(rawBody !== undefined ? { rawBody } : {}),
  });
}

/** A multipart upload of one small Markdown file in the field `file`. */
const MULTIPART_BOUNDARY = 'matrix-upload-boundary';
const markdownUpload = (path: string): Call => ({
  path,
  headers: { 'content-type': `multipart/form-data; boundary=${MULTIPART_BOUNDARY}` },
  rawBody:
    `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="matrix.md"\r\n` +
    `Content-Type: text/markdown\r\n\r\n# Matrix import\n\nText.\r\n--${MULTIPART_BOUNDARY}--\r\n`,
});

/** The access level each share-link caller's link grants (every other caller's case shares for viewing). */
const SHARE_ACCESS_OF = { shareViewer: 'view', shareSuggester: 'suggest', shareEditor: 'edit' } as const;

/** The owner's document, shared by link behind a password; the visitor's token from unlocking it. */
async function sharedDocument(owner: TestUser, access: 'view' | 'suggest' | 'edit') {
  const created = await request(
    'POST',
    '/api/documents',
    { authorization: `Bearer ${owner.token}` },
    {
      title: 'Matrix target',
      content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'secret' }] }] },
    },
  );
  expect(created.status).toBe(201);
  const documentId = created.body.id as string;
  const shared = await request(
    'PUT',
    `/api/documents/${documentId}/share`,
    { authorization: `Bearer ${owner.token}` },
    { isPublic: true, allowEditing: access === 'edit', allowSuggesting: access === 'suggest' },
  );
  expect(shared.status).toBe(200);
  // The password is set in the database with a cheap argon2 hash (PUT would spend a full-cost hash per case);
  // tokens are issued afterwards, so they match the final settings.
  await server.database.db
    .update(documents)
    .set({ sharePasswordHash: shareHash })
    .where(eq(documents.id, documentId));
  const unlocked = await request(
    'POST',
    `/api/shared/${documentId}/unlock`,
    {},
    { password: SHARE_PASSWORD },
  );
  expect(unlocked.status).toBe(200);
  return { documentId, shareToken: unlocked.body.shareToken as string };
}

async function prepareCase(
  owner: TestUser,
  other: TestUser,
  actor: Actor,
  options: { trashed?: boolean } = {},
) {
  const access = actor in SHARE_ACCESS_OF ? SHARE_ACCESS_OF[actor as keyof typeof SHARE_ACCESS_OF] : 'view';
  const { documentId, shareToken } = await sharedDocument(owner, access);
  const [suggestion] = await server.database.db
    .insert(aiSuggestions)
    .values({ userId: owner.id, documentId, originalText: 'x', suggestedText: 'y', type: 'improvement' })
    .returning({ id: aiSuggestions.id });
  const version = await server.app.versions.saveNamed(owner.id, documentId, 'Matrix');
  const imageId = await seedImage(server, documentId, owner.id, matrixPng);
  const [thread] = await server.database.db
    .insert(commentThreads)
    .values({ id: randomUUID(), documentId, quote: 'secret', authorUserId: owner.id, authorName: 'Owner' })
    .returning({ id: commentThreads.id });
  const [comment] = await server.database.db
    .insert(comments)
    .values({ threadId: thread!.id, authorUserId: owner.id, authorName: 'Owner', body: 'Look here' })
    .returning({ id: comments.id });
  // One command per case (each case would otherwise add one and reach the per-writer limit).
  await server.database.db.delete(aiCommands).where(eq(aiCommands.userId, owner.id));
  const [command] = await server.database.db
    .insert(aiCommands)
    .values({ userId: owner.id, name: 'Owner command', instruction: 'Make it shine.' })
    .returning({ id: aiCommands.id });
  // One template per case, like the commands above (the per-writer limit).
  await server.database.db.delete(templates).where(eq(templates.userId, owner.id));
  const [template] = await server.database.db
    .insert(templates)
    .values({
      userId: owner.id,
      name: 'Owner template',
      title: 'Matrix {{date}}',
      content: { type: 'doc', content: [] },
    })
    .returning({ id: templates.id });
  const [device] = await server.database.db
    .insert(sessions)
    .values({ userId: owner.id })
    .returning({ id: sessions.id });
  const headers: Record<string, string> = {};
  if (actor === 'owner') headers.authorization = `Bearer ${await freshSession(owner)}`;
  if (actor === 'otherUser') headers.authorization = `Bearer ${await freshSession(other)}`;
  if (actor === 'expiredSession') headers.authorization = `Bearer ${await freshSession(owner, -60)}`;
  if (actor === 'revokedSession') headers.authorization = `Bearer ${await revokedSession(owner)}`;
  if (actor in SHARE_ACCESS_OF) headers['x-share-token'] = shareToken;
  if (options.trashed) {
    const trashed = await request('DELETE', `/api/documents/${documentId}`, {
      authorization: `Bearer ${owner.token}`,
    });
    expect(trashed.status).toBe(204);
  }
  return {
    state: {
      documentId,
      suggestionId: suggestion!.id,
      commandId: command!.id,
      templateId: template!.id,
      versionId: version.id,
      imageId,
      threadId: thread!.id,
      commentId: comment!.id,
      checkoutSessionId: ownerCheckoutSessionId,
      owner,
      other,
      ownerDeviceSessionId: device!.id,
    },
    headers,
    shareToken,
  };
}

function assertStatus(label: string, expected: Expectation, response: ApiResponse) {
  const detail = `${label} → ${response.status} ${response.text.slice(0, 200)}`;
  expect(response.status, detail).toBe(expected);
  // Every refusal is a JSON error the client can branch on.
  if (response.status >= 400) {
    expect(typeof response.body?.message, detail).toBe('string');
    expect(typeof response.body?.code, detail).toBe('string');
  }
}

let owner: TestUser;
let other: TestUser;
let openai: FakeProvider;
let stripe: FakeStripe;
let ownerCheckoutSessionId: string;
let matrixPng: Buffer;

const MATRIX_PRICES = {
  creatorMonthly: 'price_matrix_creator_monthly',
  creatorAnnual: 'price_matrix_creator_annual',
  professionalMonthly: 'price_matrix_professional_monthly',
  professionalAnnual: 'price_matrix_professional_annual',
};

/** Starts a checkout of the professional plan for `user` (which gives them a Stripe customer); returns the session id. */
async function startCheckout(user: TestUser): Promise<string> {
  const res = await server.request('POST', '/api/stripe/create-checkout', {
    token: user.token,
    body: { priceId: MATRIX_PRICES.professionalMonthly },
  });
  expect(res.status, res.text).toBe(200);
  const sessionId = /\/pay\/([^/]+)$/.exec(res.body.url as string)?.[1];
  expect(sessionId).toBeTruthy();
  return sessionId!;
}

beforeAll(async () => {
  matrixPng = await testPng();
  openai = await startFakeOpenAI();
  openai.answerWith((body: { messages?: { content?: unknown }[] }) =>
    /alternative phrasings|Rephrase the text/.test(JSON.stringify(body?.messages ?? []))
      ? ['1. First.\n', '2. Second.\n', '3. Third.']
      : ['The ', 'answer.'],
  );
  stripe = await startFakeStripe({ prices: Object.values(MATRIX_PRICES) });
  server = await startTestServer({
    env: {
      TRUST_PROXY: 'true',
      AI_LOCAL_SERVERS: 'off',
      OUTBOUND_ALLOWED_HOSTS: WEBHOOK_TARGET,
      OPENAI_API_KEY: 'sk-matrix',
      OPENAI_BASE_URL: openai.baseUrl,
      STRIPE_SECRET_KEY: stripe.apiKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.url,
      STRIPE_PRICE_CREATOR_MONTHLY: MATRIX_PRICES.creatorMonthly,
      STRIPE_PRICE_CREATOR_ANNUAL: MATRIX_PRICES.creatorAnnual,
      STRIPE_PRICE_PROFESSIONAL_MONTHLY: MATRIX_PRICES.professionalMonthly,
      STRIPE_PRICE_PROFESSIONAL_ANNUAL: MATRIX_PRICES.professionalAnnual,
    },
  });
  stripe.setWebhookUrl(`${server.url}/api/stripe/webhook`);
  // The instance has an admin; owner and other are members (admin routes: 403).
  await createUser(server, { role: 'admin' });
  [owner, other] = await Promise.all([
    createUser(server, { plan: 'professional' }),
    createUser(server, { plan: 'professional' }),
  ]);
  ownerCheckoutSessionId = await startCheckout(owner);
  await stripe.completeCheckout(ownerCheckoutSessionId);
  await startCheckout(other);
  shareHash = await hash(SHARE_PASSWORD, { memoryCost: 1024, timeCost: 1, parallelism: 1 });
});

afterAll(async () => {
  for (const client of clients.splice(0)) client.destroy();
  console.log(
    `authorization matrix: ${Object.keys(MATRIX).length + 1} routes (incl. socket) × ${ACTORS.length} callers, ${cases} cases`,
  );
  await server?.close();
  await openai?.close();
  await stripe?.close();
});

describe('authorization matrix', () => {
  it('has an entry for every route the app serves (a new route without one fails here)', () => {
    const served = server.app.routeList
      .filter((route) => route.url.startsWith('/api/') || route.url === '/api')
      .map((route) => `${route.method} ${route.url}`);
    const missing = served.filter((key) => !(key in MATRIX) && key !== SOCKET_ROUTE);
    expect(missing, 'routes without an authorization-matrix entry').toEqual([]);
    const stale = Object.keys(MATRIX).filter((key) => !served.includes(key));
    expect(stale, 'matrix entries for routes that no longer exist').toEqual([]);
    expect(served).toContain(SOCKET_ROUTE);
  });

  it('static files outside /api are public and the same for every caller', async () => {
    const files = server.app.routeList.filter(
      (r) => r.method === 'GET' && !r.url.startsWith('/api') && r.url !== MCP_PATH,
    );
    // Without a client build there are none; with one, each answers alike with or without a token.
    for (const route of files.slice(0, 20)) {
      const anonymous = await request('GET', route.url, {});
      const signedIn = await request('GET', route.url, { authorization: `Bearer ${owner.token}` });
      cases += 2;
      expect(anonymous.status, route.url).not.toBeGreaterThanOrEqual(500);
      expect([401, 403]).not.toContain(anonymous.status);
      expect(signedIn.status, route.url).toBe(anonymous.status);
    }
  });

  // The MCP endpoint takes an API token only (mcp/mcp.test.ts and oauth/oauth.test.ts check what a token
  // gets): no session, share token or nothing at all opens it, and the refusal says how to authenticate.
  it('the MCP endpoint (POST, GET, DELETE /mcp) × every caller', async () => {
    const served = server.app.routeList.filter((route) => route.url === MCP_PATH).map((r) => r.method);
    // OPTIONS is the CORS preflight, answered alike to everyone (oauth/cors.test.ts).
    expect(served.sort()).toEqual(['DELETE', 'GET', 'OPTIONS', 'POST']);
    for (const method of ['POST', 'GET', 'DELETE']) {
      for (const actor of ACTORS) {
        const { headers } = await prepareCase(owner, other, actor);
        const body = method === 'POST' ? { jsonrpc: '2.0', id: 1, method: 'tools/list' } : undefined;
        const response = await request(
          method,
          MCP_PATH,
          { ...headers, accept: 'application/json, text/event-stream' },
          body,
        );
        cases++;
        assertStatus(`${method} ${MCP_PATH} as ${actor}`, 401, response);
        expect(response.headers.get('www-authenticate'), `${method} as ${actor}`).toMatch(/^Bearer/);
      }
    }
  });

  for (const [key, entry] of Object.entries(MATRIX)) {
    it(key, async () => {
      const [method, pattern] = key.split(' ') as [string, string];
      for (const actor of ACTORS) {
        const { state, headers } = await prepareCase(owner, other, actor, { trashed: entry.trashed });
        const call = entry.call(state);
        expect(call.path.split('?')[0]!.split('/').length).toBe(pattern.split('/').length);
        const response = await request(
          method,
          call.path,
          { ...headers, ...call.headers },
          call.body,
          call.rawBody,
        );
        cases++;
        assertStatus(`${key} as ${actor}`, entry.expect[actor], response);
        if (response.status < 300) entry.check?.(actor, response, state);
      }
    });
  }

  // A trashed document is missing to every way in but the trash's own routes: its owner is told it does not
  // exist, like another user; its share link answers 410 to every visitor (the visitor's other routes, such
  // as comments, answer 404: the token no longer opens anything).
  const onDocument = Object.entries(MATRIX).filter(
    ([key, entry]) =>
      !entry.trashed &&
      entry.expect.otherUser === 404 &&
      !key.includes('/api/auth/sessions') &&
      !key.includes('/api/shared/'),
  );
  for (const [key, entry] of [
    ...onDocument,
    ['GET /api/shared/:id', MATRIX['GET /api/shared/:id']!] as const,
  ]) {
    it(`${key} of a trashed document`, async () => {
      const [method] = key.split(' ') as [string, string];
      const shared = key.startsWith('GET /api/shared/');
      for (const actor of shared
        ? (['owner', 'shareViewer', 'shareEditor'] as const)
        : (['owner'] as const)) {
        const { state, headers } = await prepareCase(owner, other, actor, { trashed: true });
        const call = entry.call(state);
        const aboutDocument = JSON.stringify(call).includes(state.documentId);
        const response = await request(
          method,
          call.path,
          { ...headers, ...call.headers },
          call.body,
          call.rawBody,
        );
        cases++;
        // Routes of the owner's other things (a command, a checkout) do not concern the document.
        if (!aboutDocument) continue;
        assertStatus(`${key} of a trashed document as ${actor}`, shared ? 410 : 404, response);
        if (shared) expect(response.body.code).toBe('document_trashed');
      }
    });
  }

  it('GET /api/documents/:id of a document that does not exist is 404 for the owner too (same as another user’s)', async () => {
    const res = await request('GET', `/api/documents/${UNKNOWN_ID}`, {
      authorization: `Bearer ${owner.token}`,
    });
    cases++;
    expect(res.status).toBe(404);
  });

  it('the collaboration socket (GET /api/collab) × every caller', async () => {
    const results: Record<string, string> = {};
    for (const actor of ACTORS) {
      const { state, headers, shareToken } = await prepareCase(owner, other, actor);
      const token =
        actor === 'anonymous'
          ? null
          : actor in SHARE_ACCESS_OF
            ? shareToken
            : headers.authorization!.slice('Bearer '.length);
      const client = await connectCollabClient({
        serverUrl: server.url,
        documentId: state.documentId,
        token,
        waitForSync: false,
      });
      clients.push(client);
      await waitFor(() => client.provider.isSynced || client.refusals.length > 0, 10_000, `${actor} socket`);
      cases++;
      if (!client.provider.isSynced) {
        results[actor] = client.refusals[0]!;
        expect(client.paragraphs(), `${actor} got no content`).toEqual([]);
        continue;
      }
      expect(client.paragraphs()).toEqual(['secret']);
      // Does what this caller writes reach the database?
      client.appendParagraph(`written by ${actor}`);
      const written = async () => {
        const [row] = await server.database.db
          .select({ content: documents.content })
          .from(documents)
          .where(eq(documents.id, state.documentId));
        return JSON.stringify(row?.content).includes(`written by ${actor}`);
      };
      if (actor === 'shareSuggester') {
        // Suggestions only: a plain edit is refused (the connection closes) and none of it is stored.
        await waitFor(() => client.refusals.length > 0, 10_000, 'suggester refused');
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        results[actor] = (await written()) ? 'wrote' : client.refusals[0]!;
      } else {
        const deadline = Date.now() + 10_000;
        while (!(await written()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        results[actor] = (await written()) ? 'wrote' : 'read-only';
      }
      client.destroy();
    }
    expect(results).toEqual({
      anonymous: COLLAB_CLOSE.unauthorized.reason,
      otherUser: COLLAB_CLOSE.notFound.reason,
      owner: 'wrote',
      shareViewer: COLLAB_CLOSE.viewOnly.reason,
      shareSuggester: COLLAB_CLOSE.suggestionsOnly.reason,
      shareEditor: 'wrote',
      expiredSession: COLLAB_CLOSE.unauthorized.reason,
      revokedSession: COLLAB_CLOSE.unauthorized.reason,
    });
  }, 60_000);

  it('the socket’s periodic re-check drops every caller that got in once the policy no longer lets them', async () => {
    const inside: { actor: Actor; client: CollabClient; revoke: () => Promise<unknown> }[] = [];
    for (const actor of ['owner', 'shareSuggester', 'shareEditor'] as const) {
      const { state, headers, shareToken } = await prepareCase(owner, other, actor);
      const token = actor === 'owner' ? headers.authorization!.slice('Bearer '.length) : shareToken;
      const client = await connectCollabClient({
        serverUrl: server.url,
        documentId: state.documentId,
        token,
      });
      clients.push(client);
      // Written straight to the database: no route announces it, only the re-check can find it.
      const revoke =
        actor === 'owner'
          ? () =>
              server.database.db
                .update(sessions)
                .set({ revokedAt: new Date() })
                .where(and(eq(sessions.userId, owner.id), ne(sessions.id, owner.sessionId)))
          : () =>
              server.database.db
                .update(documents)
                .set({ isPublic: false })
                .where(eq(documents.id, state.documentId));
      inside.push({ actor, client, revoke });
    }
    for (const { revoke } of inside) await revoke();
    const results: Record<string, string | undefined> = {};
    for (const { actor, client } of inside) {
      await waitFor(() => client.refusals.length > 0, 10_000, `${actor} dropped`);
      cases++;
      results[actor] = client.refusals[0];
    }
    expect(results).toEqual({
      owner: COLLAB_CLOSE.accessRevoked.reason,
      shareSuggester: COLLAB_CLOSE.accessRevoked.reason,
      shareEditor: COLLAB_CLOSE.accessRevoked.reason,
    });
  }, 60_000);

  it('the socket drops and then refuses the owner of a trashed document, and every share-link visitor', async () => {
    const results: Record<string, string | undefined> = {};
    for (const actor of ['owner', 'shareEditor'] as const) {
      const { state, headers, shareToken } = await prepareCase(owner, other, actor);
      const token = actor === 'owner' ? headers.authorization!.slice('Bearer '.length) : shareToken;
      const client = await connectCollabClient({
        serverUrl: server.url,
        documentId: state.documentId,
        token,
      });
      clients.push(client);
      // Written straight to the database: only the re-check, asking the policy, can find it.
      await server.database.db
        .update(documents)
        .set({ trashedAt: new Date() })
        .where(eq(documents.id, state.documentId));
      await waitFor(() => client.refusals.length > 0, 10_000, `${actor} dropped`);
      const again = await connectCollabClient({
        serverUrl: server.url,
        documentId: state.documentId,
        token,
        waitForSync: false,
      });
      clients.push(again);
      await waitFor(() => again.provider.isSynced || again.refusals.length > 0, 10_000, `${actor} refused`);
      cases += 2;
      results[actor] = `${client.refusals[0]} then ${again.refusals[0]}`;
    }
    expect(results).toEqual({
      owner: `${COLLAB_CLOSE.accessRevoked.reason} then ${COLLAB_CLOSE.notFound.reason}`,
      shareEditor: `${COLLAB_CLOSE.accessRevoked.reason} then ${COLLAB_CLOSE.unauthorized.reason}`,
    });
  }, 60_000);

  it('a share token opens only its own document on the socket', async () => {
    const first = await prepareCase(owner, other, 'shareEditor');
    const second = await prepareCase(owner, other, 'shareEditor');
    const client = await connectCollabClient({
      serverUrl: server.url,
      documentId: second.state.documentId,
      token: first.shareToken,
      waitForSync: false,
    });
    clients.push(client);
    await waitFor(() => client.provider.isSynced || client.refusals.length > 0, 10_000, 'refusal');
    cases++;
    expect(client.provider.isSynced).toBe(false);
    expect(client.refusals[0]).toBe(COLLAB_CLOSE.notFound.reason);
  });

  it('a deleted user’s still-unexpired token is refused everywhere', async () => {
    const doomed = await createUser(server);
    await server.database.db.delete(users).where(eq(users.id, doomed.id));
    const res = await request('GET', '/api/auth/user', { authorization: `Bearer ${doomed.token}` });
    cases++;
    expect(res.status).toBe(401);
  });
});
