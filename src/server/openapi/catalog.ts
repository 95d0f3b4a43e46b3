import { bookOutlineSchema, compileBodySchema } from '../../shared/schemas/compile';
import type { z } from 'zod';
import {
  aiAlternativesRequestSchema,
  aiAnalyzeRequestSchema,
  aiCompleteRequestSchema,
  aiOutlineRequestSchema,
  aiRewriteRequestSchema,
  aiStoreSuggestionRequestSchema,
  aiTextRequestSchema,
  aiToneRequestSchema,
  aiUpdateSuggestionRequestSchema,
} from '../../shared/schemas/ai';
import { chatRequestSchema } from '../../shared/schemas/ai-chat';
import { aiCommandInputSchema, aiRunCommandRequestSchema } from '../../shared/schemas/ai-commands';
import { aiProviderTestSchema, aiSettingsUpdateSchema } from '../../shared/schemas/admin-ai';
import {
  apiTokenCreateSchema,
  apiTokenCreatedSchema,
  apiTokenListSchema,
  apiTokenSettingsSchema,
} from '../../shared/schemas/api-tokens';
import {
  logoutQuerySchema,
  passwordGrantBodySchema,
  recoverBodySchema,
  resendBodySchema,
  sessionSchema,
  sessionSummarySchema,
  setupCodeBodySchema,
  signUpBodySchema,
  signUpResponseSchema,
  tokenQuerySchema,
  updateUserBodySchema,
  userSchema,
  verifyBodySchema,
} from '../../shared/schemas/auth';
import { checkoutRequestSchema, paymentSuccessRequestSchema } from '../../shared/schemas/billing';
import {
  connectedAppListSchema,
  oauthAuthorizeQuerySchema,
  oauthConsentSchema,
  oauthDecisionResultSchema,
  oauthDecisionSchema,
} from '../../shared/schemas/oauth';
import { createDocumentBodySchema, updateDocumentBodySchema } from '../../shared/schemas/documents';
import {
  createFolderBodySchema,
  placeDocumentBodySchema,
  updateFolderBodySchema,
} from '../../shared/schemas/folders';
import { documentGoalSchema, goalQuerySchema, setGoalBodySchema } from '../../shared/schemas/goals';
import { imageAccessSchema, uploadedImageSchema } from '../../shared/schemas/images';
import { inviteMemberSchema, updateMemberSchema } from '../../shared/schemas/people';
import {
  createThreadSchema,
  editCommentSchema,
  listThreadsQuerySchema,
  replySchema,
  threadStatusSchema,
} from '../../shared/schemas/comments';
import { listNotificationsQuerySchema, markReadSchema } from '../../shared/schemas/notifications';
import { webhookInputSchema } from '../../shared/schemas/webhooks';
import { libraryQuerySchema, searchQuerySchema } from '../../shared/schemas/search';
import { updateShareSettingsSchema, unlockShareSchema } from '../../shared/schemas/sharing';
import { updateUserSettingsSchema } from '../../shared/schemas/settings';
import { saveTemplateBodySchema, useTemplateBodySchema } from '../../shared/schemas/templates';
import { trashQuerySchema } from '../../shared/schemas/trash';
import { checkpointBodySchema, saveVersionBodySchema } from '../../shared/schemas/versions';

/**
 * Every /api route, described for the OpenAPI document (document.ts): keyed `METHOD /path` as Fastify registers
 * it, with the zod schemas the route itself parses its input with (from src/shared/schemas) and, where the
 * answer has one, the schema of its answer. A test walks the server's route table and requires every route
 * here, so a new route cannot ship undocumented.
 */

type Audience = 'public' | 'session' | 'admin' | 'share';

export interface Operation {
  summary: string;
  tag: string;
  /** Who may call it: anyone, a signed-in user, an instance admin, or a share-link visitor (or anyone). */
  audience: Audience;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Multipart upload instead of JSON (imports). */
  upload?: boolean;
  /** Markdown too: `read` answers it for `Accept: text/markdown`, `write` takes a `text/markdown` body. */
  markdown?: 'read' | 'write';
  /** A cursor-paged list: `?limit=` and `?cursor=`, the next page in a `Link` header (pagination.ts). */
  paged?: boolean;
  /** The success status and, when it has one, the answer's schema. */
  status?: number;
  response?: z.ZodType;
}

const op = (
  tag: string,
  audience: Audience,
  summary: string,
  extra: Omit<Operation, 'tag' | 'audience' | 'summary'> = {},
): Operation => ({ tag, audience, summary, ...extra });

/** The comment routes, the same for signed-in people (`/documents`) and share-link visitors (`/shared`). */
function commentOperations(prefix: string, audience: Audience): Record<string, Operation> {
  return {
    [`GET ${prefix}/:id/threads`]: op('Comments', audience, "The document's comment threads, in text order", {
      query: listThreadsQuerySchema,
    }),
    [`POST ${prefix}/:id/threads`]: op('Comments', audience, 'Comment on a passage (a new thread)', {
      body: createThreadSchema,
      status: 201,
    }),
    [`PATCH ${prefix}/:id/threads/:threadId`]: op('Comments', audience, 'Resolve or reopen a thread', {
      body: threadStatusSchema,
    }),
    [`DELETE ${prefix}/:id/threads/:threadId`]: op('Comments', audience, 'Delete a thread', { status: 204 }),
    [`POST ${prefix}/:id/threads/:threadId/comments`]: op('Comments', audience, 'Reply in a thread', {
      body: replySchema,
      status: 201,
    }),
    [`PATCH ${prefix}/:id/threads/:threadId/comments/:commentId`]: op(
      'Comments',
      audience,
      'Edit your comment',
      {
        body: editCommentSchema,
      },
    ),
    [`DELETE ${prefix}/:id/threads/:threadId/comments/:commentId`]: op(
      'Comments',
      audience,
      'Delete your comment (the first one deletes the thread)',
      { status: 204 },
    ),
  };
}

export const OPERATIONS: Readonly<Record<string, Operation>> = {
  'GET /api/health': op('Health', 'public', 'Whether the server and its database answer'),
  'GET /api/openapi.json': op('Health', 'public', 'This OpenAPI document'),
  'GET /api/collab': op(
    'Documents',
    'share',
    'Live collaboration: a WebSocket (Yjs over Hocuspocus), not a REST call',
  ),

  'POST /api/auth/signup': op('Accounts', 'public', 'Create an account', {
    body: signUpBodySchema,
    response: signUpResponseSchema,
  }),
  'POST /api/auth/token': op('Accounts', 'public', 'Sign in (password) or refresh a session', {
    query: tokenQuerySchema,
    body: passwordGrantBodySchema,
    response: sessionSchema,
  }),
  'POST /api/auth/logout': op('Accounts', 'session', 'Sign out this session, every session or the others', {
    query: logoutQuerySchema,
    status: 204,
  }),
  'POST /api/auth/recover': op('Accounts', 'public', 'Mail a password-reset link', {
    body: recoverBodySchema,
  }),
  'POST /api/auth/resend': op('Accounts', 'public', 'Mail a new confirmation link', {
    body: resendBodySchema,
  }),
  'POST /api/auth/verify': op('Accounts', 'public', 'Redeem a link from a mail', {
    body: verifyBodySchema,
    response: sessionSchema,
  }),
  'GET /api/auth/user': op('Accounts', 'session', 'The signed-in user', { response: userSchema }),
  'PUT /api/auth/user': op('Accounts', 'session', 'Change the name, e-mail or password', {
    body: updateUserBodySchema,
    response: userSchema,
  }),
  'GET /api/auth/sessions': op('Accounts', 'session', 'Where the account is signed in', {
    response: sessionSummarySchema.array(),
  }),
  'DELETE /api/auth/sessions/:id': op('Accounts', 'session', 'Sign one session out', { status: 204 }),
  'GET /api/auth/setup': op('Accounts', 'session', 'Whether the instance has an admin'),
  'POST /api/auth/setup': op('Accounts', 'session', 'Claim the instance with its setup code', {
    body: setupCodeBodySchema,
    response: userSchema,
  }),

  'GET /api/me/settings': op('Settings', 'session', "The user's preferences and notifications"),
  'GET /api/documents/:id/mentions': op(
    'Comments',
    'session',
    'The people on the document a comment may mention (for those who may comment)',
  ),
  'GET /api/notifications': op('Notifications', 'session', "The user's notifications, newest first", {
    query: listNotificationsQuerySchema,
  }),
  'GET /api/notifications/unread-count': op('Notifications', 'session', 'How many notifications are unread'),
  'POST /api/notifications/read': op('Notifications', 'session', 'Mark notifications read (some, or all)', {
    body: markReadSchema,
  }),
  'PUT /api/me/settings': op('Settings', 'session', 'Change preferences or notifications', {
    body: updateUserSettingsSchema,
  }),
  'GET /api/me/api-tokens': op('API tokens', 'session', "The user's API tokens, newest first", {
    paged: true,
    response: apiTokenListSchema,
  }),
  'POST /api/me/api-tokens': op(
    'API tokens',
    'session',
    'Make an API token (its secret is in this answer only)',
    {
      body: apiTokenCreateSchema,
      status: 201,
      response: apiTokenCreatedSchema,
    },
  ),
  'DELETE /api/me/api-tokens/:id': op('API tokens', 'session', 'Revoke an API token', { status: 204 }),
  'GET /api/admin/api-tokens': op('API tokens', 'admin', 'Whether the instance accepts API tokens', {
    response: apiTokenSettingsSchema,
  }),
  'PUT /api/admin/api-tokens': op('API tokens', 'admin', 'Turn API tokens on or off for the instance', {
    body: apiTokenSettingsSchema,
    response: apiTokenSettingsSchema,
  }),
  'GET /api/oauth/authorize': op(
    'API tokens',
    'session',
    "The consent page's view of an OAuth authorization request: the app, where it is answered, the scopes",
    { query: oauthAuthorizeQuerySchema, response: oauthConsentSchema },
  ),
  'POST /api/oauth/authorize': op(
    'API tokens',
    'session',
    "Allow or deny an app's OAuth authorization request; answers where the browser goes next",
    { body: oauthDecisionSchema, response: oauthDecisionResultSchema },
  ),
  'GET /api/me/connected-apps': op('API tokens', 'session', 'The apps the user let in by OAuth', {
    response: connectedAppListSchema,
  }),
  'DELETE /api/me/connected-apps/:id': op(
    'API tokens',
    'session',
    'Disconnect an app: its grant and every token of it stop working at once',
    { status: 204 },
  ),

  'GET /api/documents': op('Documents', 'session', "The user's documents, most recently updated first", {
    paged: true,
  }),
  'POST /api/documents': op('Documents', 'session', 'Create a document (JSON, or Markdown)', {
    body: createDocumentBodySchema,
    markdown: 'write',
    status: 201,
  }),
  'GET /api/documents/:id': op(
    'Documents',
    'session',
    'A document with its content (ETag: its version), as JSON or Markdown',
    { markdown: 'read' },
  ),
  'PATCH /api/documents/:id': op('Documents', 'session', 'Change the title or content (If-Match honoured)', {
    body: updateDocumentBodySchema,
    markdown: 'write',
  }),
  'DELETE /api/documents/:id': op('Documents', 'session', 'Move a document to the trash', { status: 204 }),
  'GET /api/documents/:id/state': op('Documents', 'session', "The document's Yjs state (binary)"),
  'GET /api/documents/:id/pin': op('Documents', 'session', 'Whether the user pinned the document'),
  'PUT /api/documents/:id/pin': op('Documents', 'session', 'Pin a document (for this user)', { status: 204 }),
  'DELETE /api/documents/:id/pin': op('Documents', 'session', 'Unpin a document', { status: 204 }),
  'GET /api/documents/:id/goal': op('Goals', 'session', "The writer's goal, today's words and streak", {
    query: goalQuerySchema,
    response: documentGoalSchema,
  }),
  'PUT /api/documents/:id/goal': op('Goals', 'session', 'Set the word target and deadline', {
    body: setGoalBodySchema,
    response: documentGoalSchema,
  }),
  'DELETE /api/documents/:id/goal': op('Goals', 'session', 'Clear the word target', { status: 204 }),
  'GET /api/folders/:id/goal': op('Goals', 'session', "A folder's goal, over its documents and sub-folders", {
    query: goalQuerySchema,
    response: documentGoalSchema,
  }),
  'PUT /api/folders/:id/goal': op('Goals', 'session', "Set a folder's word target and deadline", {
    body: setGoalBodySchema,
    response: documentGoalSchema,
  }),
  'DELETE /api/folders/:id/goal': op('Goals', 'session', "Clear a folder's word target", { status: 204 }),
  'GET /api/templates': op('Templates', 'session', "The built-in templates and the user's own"),
  'POST /api/templates': op('Templates', 'session', 'Save a document as a template', {
    body: saveTemplateBodySchema,
    status: 201,
  }),
  'DELETE /api/templates/:id': op('Templates', 'session', "Delete one of the user's templates", {
    status: 204,
  }),
  'POST /api/templates/:id/documents': op('Templates', 'session', 'Create a document from a template', {
    body: useTemplateBodySchema,
    status: 201,
  }),
  'POST /api/documents/import': op('Import', 'session', 'Import files as new documents', { upload: true }),
  'POST /api/documents/import/convert': op('Import', 'session', 'Convert files without saving them', {
    upload: true,
  }),
  'GET /api/documents/:id/export': op(
    'Documents',
    'session',
    'Download the document as md, html, txt, docx, or as a book: epub or pdf',
  ),
  'GET /api/documents/:id/compile': op(
    'Books',
    'session',
    'The book a document makes: its chapters (level-1 headings)',
    {
      response: bookOutlineSchema,
    },
  ),
  'POST /api/documents/:id/compile': op(
    'Books',
    'session',
    'Compile the document as a book (EPUB, Word or PDF)',
    {
      body: compileBodySchema,
    },
  ),
  'GET /api/folders/:id/compile': op(
    'Books',
    'session',
    'The book a folder makes: its documents as chapters',
    {
      response: bookOutlineSchema,
    },
  ),
  'POST /api/folders/:id/compile': op(
    'Books',
    'session',
    "Compile the folder's documents as a book (EPUB, Word or PDF)",
    {
      body: compileBodySchema,
    },
  ),

  'POST /api/documents/:id/images': op(
    'Images',
    'share',
    'Upload an image into the document (its editors; PNG, JPEG, WebP, GIF or AVIF, re-encoded)',
    { upload: true, status: 201, response: uploadedImageSchema },
  ),
  'GET /api/documents/:id/images/:imageId': op(
    'Images',
    'share',
    "One of the document's images, for whoever may read it (bearer, X-Share-Token or ?access=)",
  ),
  'GET /api/documents/:id/image-access': op(
    'Images',
    'share',
    "The access token the document's <img> addresses carry",
    { response: imageAccessSchema },
  ),

  'GET /api/documents/:id/share': op('Sharing', 'session', "The document's share settings"),
  'PUT /api/documents/:id/share': op('Sharing', 'session', 'Change the share settings', {
    body: updateShareSettingsSchema,
  }),
  'POST /api/documents/:id/share/reset': op('Sharing', 'session', 'Give the document a new share link'),
  'GET /api/shared/:id': op('Sharing', 'share', 'A shared document, as its visitors see it'),
  'POST /api/shared/:id/unlock': op('Sharing', 'public', "Enter a shared document's password", {
    body: unlockShareSchema,
  }),

  'GET /api/documents/:id/members': op('Sharing', 'session', 'The people on the document (owner only)'),
  'POST /api/documents/:id/members': op('Sharing', 'session', 'Invite someone by e-mail with a role', {
    body: inviteMemberSchema,
    status: 201,
  }),
  'PATCH /api/documents/:id/members/:memberId': op('Sharing', 'session', "Change a person's role", {
    body: updateMemberSchema,
  }),
  'DELETE /api/documents/:id/members/:memberId': op('Sharing', 'session', 'Remove a person', {
    status: 204,
  }),
  'GET /api/folders/:id/members': op('Sharing', 'session', 'The people on the folder (owner only)'),
  'POST /api/folders/:id/members': op(
    'Sharing',
    'session',
    'Invite someone to a folder: their role holds on every document in it and its sub-folders',
    { body: inviteMemberSchema, status: 201 },
  ),
  'PATCH /api/folders/:id/members/:memberId': op(
    'Sharing',
    'session',
    "Change a person's role on the folder",
    {
      body: updateMemberSchema,
    },
  ),
  'DELETE /api/folders/:id/members/:memberId': op('Sharing', 'session', 'Remove a person from the folder', {
    status: 204,
  }),
  'GET /api/shared-with-me': op(
    'Sharing',
    'session',
    'The documents others shared with me, on their own or through a shared folder',
  ),

  ...commentOperations('/api/documents', 'session'),
  ...commentOperations('/api/shared', 'share'),
  'GET /api/shared-with-me/:id': op('Sharing', 'session', 'One document shared with me, with my role'),

  'GET /api/documents/:id/versions': op('Versions', 'session', "The document's versions, newest first", {
    paged: true,
  }),
  'POST /api/documents/:id/versions': op('Versions', 'session', 'Save a named version', {
    body: saveVersionBodySchema,
    status: 201,
  }),
  'POST /api/documents/:id/versions/checkpoint': op(
    'Versions',
    'session',
    'Save a version before an AI or import change',
    {
      body: checkpointBodySchema,
    },
  ),
  'GET /api/documents/:id/versions/:versionId': op('Versions', 'session', 'One version with its content'),
  'DELETE /api/documents/:id/versions/:versionId': op('Versions', 'session', 'Delete a version', {
    status: 204,
  }),
  'POST /api/documents/:id/versions/:versionId/restore': op('Versions', 'session', 'Restore a version'),

  'GET /api/folders': op('Folders', 'session', "The user's folders"),
  'POST /api/folders': op('Folders', 'session', 'Make a folder', {
    body: createFolderBodySchema,
    status: 201,
  }),
  'PATCH /api/folders/:id': op('Folders', 'session', 'Rename or move a folder', {
    body: updateFolderBodySchema,
  }),
  'DELETE /api/folders/:id': op('Folders', 'session', 'Move a folder and what it holds to the trash', {
    status: 204,
  }),
  'GET /api/folders/:id/export': op(
    'Folders',
    'session',
    'Download the folder and its sub-folders as a .zip of md, html, txt or docx files',
  ),
  'GET /api/documents/:id/folder': op('Folders', 'session', 'The folder a document is in'),
  'PUT /api/documents/:id/folder': op('Folders', 'session', 'Place a document in a folder', {
    body: placeDocumentBodySchema,
  }),
  'GET /api/trash/folders': op('Trash', 'session', "The user's trashed folders"),
  'POST /api/trash/folders/:id/restore': op('Trash', 'session', 'Restore a folder with what it held', {
    status: 204,
  }),
  'DELETE /api/trash/folders/:id': op('Trash', 'session', 'Delete a trashed folder for good', {
    status: 204,
  }),
  'DELETE /api/trash/folders': op('Trash', 'session', "Delete the trash's folders for good", { status: 204 }),
  'GET /api/trash': op('Trash', 'session', "The user's trashed documents", { query: trashQuerySchema }),
  'DELETE /api/trash': op('Trash', 'session', 'Empty the trash', { status: 204 }),
  'DELETE /api/trash/:id': op('Trash', 'session', 'Delete a trashed document for good', { status: 204 }),
  'POST /api/trash/:id/restore': op('Trash', 'session', 'Restore a trashed document'),

  'GET /api/webhooks': op('Webhooks', 'session', "The user's webhooks"),
  'POST /api/webhooks': op(
    'Webhooks',
    'session',
    'Add a webhook (its signing secret is in this answer only)',
    {
      body: webhookInputSchema,
      status: 201,
    },
  ),
  'DELETE /api/webhooks/:id': op('Webhooks', 'session', 'Remove a webhook', { status: 204 }),
  'POST /api/webhooks/:id/enable': op(
    'Webhooks',
    'session',
    'Enable a webhook that was disabled after failures',
  ),
  'GET /api/webhooks/:id/deliveries': op(
    'Webhooks',
    'session',
    "A webhook's deliveries and their answers, newest first",
    { paged: true },
  ),

  'GET /api/search': op('Search', 'session', "Search the user's documents", { query: searchQuerySchema }),
  'GET /api/search/documents': op('Search', 'session', "The dashboard's sorted, paged list", {
    query: libraryQuerySchema,
  }),

  'GET /api/ai/health': op('AI', 'public', 'Whether AI is set up and answering'),
  'GET /api/ai/usage': op('AI', 'session', "The user's AI use this month"),
  'POST /api/ai/improve': op('AI', 'session', 'Improve a passage', { body: aiTextRequestSchema }),
  'POST /api/ai/complete': op('AI', 'session', 'Continue the text', { body: aiCompleteRequestSchema }),
  'POST /api/ai/rewrite': op('AI', 'session', 'Rewrite a passage', { body: aiRewriteRequestSchema }),
  'POST /api/ai/rephrase': op('AI', 'session', 'Rephrase a passage', { body: aiTextRequestSchema }),
  'POST /api/ai/tone': op('AI', 'session', "Change a passage's tone", { body: aiToneRequestSchema }),
  'POST /api/ai/outline': op('AI', 'session', 'Outline a topic or text', { body: aiOutlineRequestSchema }),
  'POST /api/ai/summarize': op('AI', 'session', 'Summarize a passage', { body: aiTextRequestSchema }),
  'POST /api/ai/alternatives': op('AI', 'session', 'Alternatives for a phrase', {
    body: aiAlternativesRequestSchema,
  }),
  'POST /api/ai/analyze': op('AI', 'session', 'Analyze a text', { body: aiAnalyzeRequestSchema }),
  'POST /api/ai/grammar': op('AI', 'session', 'Check grammar and spelling', { body: aiTextRequestSchema }),
  'POST /api/ai/suggestions': op('AI', 'session', 'Keep an AI suggestion', {
    body: aiStoreSuggestionRequestSchema,
  }),
  'GET /api/ai/suggestions': op('AI', 'session', "A document's kept AI suggestions"),
  'PUT /api/ai/suggestions/:id': op('AI', 'session', 'Accept or reject an AI suggestion', {
    body: aiUpdateSuggestionRequestSchema,
  }),
  'GET /api/ai/commands': op('AI', 'session', "The user's custom AI commands"),
  'POST /api/ai/commands': op('AI', 'session', 'Make a custom AI command', {
    body: aiCommandInputSchema,
    status: 201,
  }),
  'PUT /api/ai/commands/:id': op('AI', 'session', 'Change a custom AI command', {
    body: aiCommandInputSchema,
  }),
  'DELETE /api/ai/commands/:id': op('AI', 'session', 'Delete a custom AI command', { status: 204 }),
  'POST /api/ai/commands/:id/run': op('AI', 'session', 'Run a custom AI command', {
    body: aiRunCommandRequestSchema,
  }),
  'POST /api/ai/chat/:documentId': op('AI', 'session', 'Chat about a document (server-sent events)', {
    body: chatRequestSchema,
  }),
  'GET /api/ai/chat/:documentId': op('AI', 'session', "The document's chat"),
  'DELETE /api/ai/chat/:documentId': op('AI', 'session', "Clear the document's chat", { status: 204 }),

  'GET /api/admin/ai': op('Administration', 'admin', "The instance's AI providers and allowance"),
  'PUT /api/admin/ai': op('Administration', 'admin', "Change the instance's AI settings", {
    body: aiSettingsUpdateSchema,
  }),
  'POST /api/admin/ai/test': op('Administration', 'admin', 'Test an AI provider', {
    body: aiProviderTestSchema,
  }),
  'POST /api/admin/ai/detect': op('Administration', 'admin', 'Look for local model servers'),

  'GET /api/plans': op('Billing', 'public', 'The plans on offer'),
  'POST /api/stripe/create-checkout': op('Billing', 'session', 'Start a checkout', {
    body: checkoutRequestSchema,
  }),
  'POST /api/stripe/create-checkout-session': op('Billing', 'session', 'Start a checkout', {
    body: checkoutRequestSchema,
  }),
  'POST /api/stripe/create-portal': op('Billing', 'session', "Open Stripe's billing portal"),
  'GET /api/stripe/subscription-status': op('Billing', 'session', "The user's plan and subscription"),
  'POST /api/stripe/payment-success': op('Billing', 'session', 'Confirm a finished checkout', {
    body: paymentSuccessRequestSchema,
  }),
  'POST /api/stripe/webhook': op('Billing', 'public', "Stripe's events (signed by Stripe)"),
};
