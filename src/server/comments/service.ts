import type { ServerDependencies } from '../dependencies';
import { authorizeDocument, can, userRoles, type DocumentRole } from '../documents';
import type { DocumentActor } from '../documents';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import type {
  Comment,
  CommentThread,
  CommentThreadPage,
  CreateThread,
  Reply,
} from '../../shared/schemas/comments';
import {
  createThreadSchema,
  editCommentSchema,
  listThreadsQuerySchema,
  replySchema,
  threadStatusSchema,
} from '../../shared/schemas/comments';
import type { RichTextDoc } from '../../shared/schemas/richText';
import type { z } from 'zod';
import { mentionedIds, mentionsAsText, replaceMentions, type Mention } from '../../shared/mentions';
import type { MentionablePeople } from '../../shared/schemas/comments';
import { notifyAboutComment, type CommentNotice } from '../notifications';
import { markPassage, remarkThreads, threadOrder, unmarkThreads } from './anchor';
import {
  deleteComment as deleteCommentRow,
  deleteThread as deleteThreadRow,
  findDocumentContent,
  findDocumentPeople,
  findOpenThreadAnchors,
  findThread,
  findThreadDocument,
  findThreads,
  findUserName,
  findUserNames,
  insertComment,
  insertThread,
  updateCommentBody,
  updateThreadStatus,
  type CommentRow,
  type ThreadRow,
} from './repository';

/**
 * Comments on passages (docs/comments.md): threads and their comments in the database, each thread anchored
 * by a `comment` mark the server puts in the document through the document writer. Who may do what is the
 * access policy's `read` (see threads) and `comment` (open a thread, reply) plus two rules of its own: a
 * comment is changed or deleted by its author only; a thread is resolved by its author or anyone who may
 * `write`, and deleted by its author (deleting its first comment) or the document's owner.
 *
 * Every change is announced as `comments.changed`, which the collaboration server turns into a stateless
 * `{ type: 'comments' }` message to the document's open editors.
 */

export type CommentsContext = Pick<
  ServerDependencies,
  'db' | 'database' | 'config' | 'log' | 'documentWriter' | 'documentEvents'
>;

/**
 * Who asks: a signed-in user, or a share-link visitor (their share token). A visitor has no identity that
 * outlives their token, so nothing they write is "theirs" afterwards: they may not edit or delete it (the
 * owner may delete the thread).
 */
export type CommentActor = DocumentActor;

type ListQuery = z.input<typeof listThreadsQuerySchema>;

interface Asker {
  actor: CommentActor;
  role: DocumentRole;
  /** The signed-in user's id; null for a visitor. */
  userId: string | null;
}

async function ask(
  ctx: CommentsContext,
  actor: CommentActor,
  documentId: string,
  ability: 'read' | 'comment',
) {
  const role = await authorizeDocument(ctx, actor, documentId, ability);
  return { actor, role, userId: actor.kind === 'user' ? actor.userId : null } satisfies Asker;
}

async function authorName(ctx: CommentsContext, asker: Asker, given: string | undefined): Promise<string> {
  if (asker.userId) return findUserName(ctx.db, asker.userId);
  if (!given) throw badRequest('authorName: Give your name to comment', 'validation_failed');
  return given;
}

const isMine = (asker: Asker, authorUserId: string | null) =>
  asker.userId !== null && authorUserId === asker.userId;

function presentComment(asker: Asker, row: CommentRow): Comment {
  return {
    id: row.id,
    threadId: row.threadId,
    author: { id: row.authorUserId, name: row.authorName },
    body: row.body,
    createdAt: row.createdAt.toISOString(),
    editedAt: row.editedAt?.toISOString() ?? null,
    mine: isMine(asker, row.authorUserId),
    mentions: row.mentions,
  };
}

function presentThread(asker: Asker, thread: ThreadRow, comments: CommentRow[]): CommentThread {
  return {
    id: thread.id,
    documentId: thread.documentId,
    anchor: { quote: thread.quote, prefix: thread.prefix, suffix: thread.suffix },
    status: thread.status,
    resolvedAt: thread.resolvedAt?.toISOString() ?? null,
    resolvedBy:
      thread.status === 'resolved' && thread.resolvedByName !== null
        ? { id: thread.resolvedByUserId, name: thread.resolvedByName }
        : null,
    createdAt: thread.createdAt.toISOString(),
    comments: comments.map((row) => presentComment(asker, row)),
    canResolve: isMine(asker, thread.authorUserId) || can(asker.role, 'write'),
    canDelete: mayDeleteThread(asker, thread),
  };
}

function mayDeleteThread(asker: Asker, thread: ThreadRow): boolean {
  return asker.role === 'owner' || (can(asker.role, 'comment') && isMine(asker, thread.authorUserId));
}

/**
 * The body's mentions checked: a person who may read the document stays mentioned (named as they comment);
 * any other token (someone without access, an unknown id, anything from a share-link visitor) becomes the plain
 * text "@someone". Nothing is refused, so the answer never tells who has access.
 */
async function checkMentions(
  ctx: CommentsContext,
  asker: Asker,
  documentId: string,
  body: string,
): Promise<{ body: string; mentions: Mention[] }> {
  const ids = mentionedIds(body);
  if (ids.length === 0) return { body, mentions: [] };
  let readers = new Set<string>();
  if (asker.userId !== null) {
    const roleOf = await userRoles(
      ctx.database,
      ids.map((userId) => ({ userId, documentId })),
    );
    readers = new Set(ids.filter((userId) => can(roleOf({ userId, documentId }), 'read')));
  }
  const names = await findUserNames(ctx.db, [...readers]);
  const mentions = [...names].map(([id, name]) => ({ id, name }));
  const kept = new Set(names.keys());
  return {
    body: replaceMentions(body, (id) => (kept.has(id) ? `<@${id}>` : '@someone')),
    mentions,
  };
}

/** Tells the people a new comment concerns (notifications never fail the comment). */
async function notify(
  ctx: CommentsContext,
  asker: Asker,
  notice: Omit<CommentNotice, 'actorUserId' | 'text' | 'mentioned'>,
  row: { body: string; mentions: Mention[] },
  mentioned: string[] = row.mentions.map((mention) => mention.id),
) {
  await notifyAboutComment(ctx, {
    ...notice,
    actorUserId: asker.userId,
    text: mentionsAsText(row.body, row.mentions),
    mentioned,
  });
}

/**
 * The people a comment may mention (owner and members), for the composer's suggestions: only to signed-in
 * people who may comment, so it shows no one to anybody who could not already see them in the Share menu's
 * reach.
 */
export async function mentionablePeople(
  ctx: CommentsContext,
  actor: CommentActor,
  documentId: string,
): Promise<MentionablePeople> {
  await ask(ctx, actor, documentId, 'comment');
  const people = await findDocumentPeople(ctx.db, documentId);
  people.sort((a, b) => a.name.localeCompare(b.name) || a.email.localeCompare(b.email));
  return { people };
}

/** The cursor is the number of threads already given, opaque to the client. */
function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const offset = Number(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!Number.isSafeInteger(offset) || offset < 0) throw badRequest('cursor: not a cursor from this list');
  return offset;
}

const encodeCursor = (offset: number) => Buffer.from(String(offset), 'utf8').toString('base64url');

/**
 * The document's threads in the order of their passages in the text; threads whose passage is gone (its
 * text deleted) come last, oldest first.
 */
export async function listThreads(
  ctx: CommentsContext,
  actor: CommentActor,
  documentId: string,
  query: ListQuery,
): Promise<CommentThreadPage> {
  const asker = await ask(ctx, actor, documentId, 'read');
  const { status, cursor, limit } = listThreadsQuerySchema.parse(query);
  const offset = decodeCursor(cursor);
  const [{ threads, comments }, content] = await Promise.all([
    findThreads(ctx.db, documentId, status),
    findDocumentContent(ctx.db, documentId),
  ]);
  const order = threadOrder(content);
  const placed = threads
    .map((thread, index) => ({ thread, place: order.get(thread.id) ?? order.size + index }))
    .sort((a, b) => a.place - b.place);
  const byThread = new Map<string, CommentRow[]>();
  for (const row of comments) {
    const list = byThread.get(row.threadId) ?? [];
    list.push(row);
    byThread.set(row.threadId, list);
  }
  const page = placed.slice(offset, offset + limit);
  return {
    threads: page.map(({ thread }) => presentThread(asker, thread, byThread.get(thread.id) ?? [])),
    nextCursor: offset + limit < placed.length ? encodeCursor(offset + limit) : null,
  };
}

/**
 * For a version restore: `content` (the version's) with the marks of the document's open threads that it lacks
 * put back where each thread's quote is found, so they keep their highlights; null when none was put back. The
 * caller writes the result through the document writer.
 */
export async function remarkOpenThreads(
  ctx: Pick<CommentsContext, 'db'>,
  documentId: string,
  content: RichTextDoc,
): Promise<RichTextDoc | null> {
  const threads = await findOpenThreadAnchors(ctx.db, documentId);
  if (threads.length === 0) return null;
  return remarkThreads(
    content,
    threads.map(({ id, quote, prefix, suffix }) => ({ id, anchor: { quote, prefix, suffix } })),
  );
}

async function announce(
  ctx: CommentsContext,
  documentId: string,
  created?: 'thread' | 'reply',
): Promise<void> {
  await ctx.documentEvents.publish({ type: 'comments.changed', documentId, created });
}

async function threadOf(ctx: CommentsContext, asker: Asker, documentId: string, threadId: string) {
  const found = await findThread(ctx.db, documentId, threadId);
  if (!found) throw notFound('Thread not found', 'thread_not_found');
  return found;
}

/**
 * Opens a thread on the passage `anchor` names, with its first comment: the server finds the passage in the
 * current text and marks it through the document writer (409 `anchor_not_found` when it is not there). The
 * client makes the id; sending the same thread again answers the thread as it is (`created: false`).
 */
export async function createThread(
  ctx: CommentsContext,
  actor: CommentActor,
  documentId: string,
  input: CreateThread,
): Promise<{ thread: CommentThread; created: boolean }> {
  const asker = await ask(ctx, actor, documentId, 'comment');
  const { id, anchor, body: givenBody, authorName: given } = createThreadSchema.parse(input);
  const existing = await findThreadDocument(ctx.db, id);
  if (existing !== undefined && existing !== documentId) {
    throw conflict('This thread id is already taken', 'thread_id_taken');
  }
  if (existing === undefined) {
    const name = await authorName(ctx, asker, given);
    const outcome = { missing: false };
    await ctx.documentWriter.changeContent({
      documentId,
      userId: asker.userId ?? undefined,
      source: 'comment',
      change: (content) => {
        const marked = markPassage(content, id, anchor);
        outcome.missing = marked === null;
        return marked === 'unchanged' ? null : marked;
      },
    });
    if (outcome.missing) {
      throw conflict(
        'The passage is no longer in the document. Select the text again to comment on it.',
        'anchor_not_found',
      );
    }
    const checked = await checkMentions(ctx, asker, documentId, givenBody);
    const inserted = await insertThread(
      ctx.db,
      {
        id,
        documentId,
        quote: anchor.quote,
        prefix: anchor.prefix,
        suffix: anchor.suffix,
        authorUserId: asker.userId,
        authorName: name,
      },
      { authorUserId: asker.userId, authorName: name, ...checked },
    );
    const found = await threadOf(ctx, asker, documentId, id);
    if (inserted) {
      await announce(ctx, documentId, 'thread');
      const first = found.comments[0];
      if (first) {
        await notify(
          ctx,
          asker,
          { documentId, threadId: id, commentId: first.id, kind: 'thread', actorName: name },
          checked,
        );
      }
    }
    return { thread: presentThread(asker, found.thread, found.comments), created: inserted };
  }
  const found = await threadOf(ctx, asker, documentId, id);
  return { thread: presentThread(asker, found.thread, found.comments), created: false };
}

export async function reply(
  ctx: CommentsContext,
  actor: CommentActor,
  documentId: string,
  threadId: string,
  input: Reply,
): Promise<Comment> {
  const asker = await ask(ctx, actor, documentId, 'comment');
  const { body, authorName: given } = replySchema.parse(input);
  await threadOf(ctx, asker, documentId, threadId);
  const name = await authorName(ctx, asker, given);
  const checked = await checkMentions(ctx, asker, documentId, body);
  const row = await insertComment(ctx.db, {
    threadId,
    authorUserId: asker.userId,
    authorName: name,
    ...checked,
  });
  await announce(ctx, documentId, 'reply');
  await notify(ctx, asker, { documentId, threadId, commentId: row.id, kind: 'reply', actorName: name }, row);
  return presentComment(asker, row);
}

/** The comment when the asker wrote it; 404 when it is not in the thread, 403 `not_your_comment` otherwise. */
async function ownComment(
  ctx: CommentsContext,
  asker: Asker,
  documentId: string,
  threadId: string,
  commentId: string,
) {
  const found = await threadOf(ctx, asker, documentId, threadId);
  const comment = found.comments.find((row) => row.id === commentId);
  if (!comment) throw notFound('Comment not found', 'comment_not_found');
  if (!isMine(asker, comment.authorUserId)) {
    throw forbidden('Only its author can change or delete a comment', 'not_your_comment');
  }
  return { ...found, comment };
}

export async function editComment(
  ctx: CommentsContext,
  actor: CommentActor,
  documentId: string,
  threadId: string,
  commentId: string,
  input: z.input<typeof editCommentSchema>,
): Promise<Comment> {
  const asker = await ask(ctx, actor, documentId, 'comment');
  const { body } = editCommentSchema.parse(input);
  const { comment } = await ownComment(ctx, asker, documentId, threadId, commentId);
  const checked = await checkMentions(ctx, asker, documentId, body);
  const row = await updateCommentBody(ctx.db, threadId, commentId, checked.body, checked.mentions);
  if (!row) throw notFound('Comment not found', 'comment_not_found');
  await announce(ctx, documentId);
  // Only the people the edit newly mentions are told (as mentioned).
  const before = new Set(comment.mentions.map((mention) => mention.id));
  const added = row.mentions.map((mention) => mention.id).filter((id) => !before.has(id));
  if (added.length > 0) {
    await notify(
      ctx,
      asker,
      { documentId, threadId, commentId, kind: 'edit', actorName: comment.authorName },
      row,
      added,
    );
  }
  return presentComment(asker, row);
}

/** Deletes the asker's comment; their thread's first comment takes the whole thread (and its mark) with it. */
export async function deleteComment(
  ctx: CommentsContext,
  actor: CommentActor,
  documentId: string,
  threadId: string,
  commentId: string,
): Promise<void> {
  const asker = await ask(ctx, actor, documentId, 'comment');
  const found = await ownComment(ctx, asker, documentId, threadId, commentId);
  if (found.comments[0]?.id === commentId) {
    await removeThread(ctx, asker, documentId, threadId);
    return;
  }
  await deleteCommentRow(ctx.db, threadId, commentId);
  await announce(ctx, documentId);
}

/** Deletes a thread with its comments and its mark: the document's owner, or the thread's author. */
export async function deleteThread(
  ctx: CommentsContext,
  actor: CommentActor,
  documentId: string,
  threadId: string,
): Promise<void> {
  const asker = await ask(ctx, actor, documentId, 'read');
  const found = await threadOf(ctx, asker, documentId, threadId);
  if (!mayDeleteThread(asker, found.thread)) {
    throw forbidden(
      "Only the document's owner or the thread's author can delete a thread",
      'not_your_thread',
    );
  }
  await removeThread(ctx, asker, documentId, threadId);
}

async function removeThread(ctx: CommentsContext, asker: Asker, documentId: string, threadId: string) {
  // The mark goes first: a thread without its mark shows "on deleted text", a mark without its thread nothing.
  await ctx.documentWriter.changeContent({
    documentId,
    userId: asker.userId ?? undefined,
    source: 'comment',
    change: (content) => unmarkThreads(content, [threadId]),
  });
  await deleteThreadRow(ctx.db, documentId, threadId);
  await announce(ctx, documentId);
}

/** Resolves or reopens a thread: its author, or anyone who may edit the document. */
export async function setThreadStatus(
  ctx: CommentsContext,
  actor: CommentActor,
  documentId: string,
  threadId: string,
  input: z.input<typeof threadStatusSchema>,
): Promise<CommentThread> {
  const asker = await ask(ctx, actor, documentId, 'read');
  const { status } = threadStatusSchema.parse(input);
  const found = await threadOf(ctx, asker, documentId, threadId);
  const allowed =
    can(asker.role, 'write') || (can(asker.role, 'comment') && isMine(asker, found.thread.authorUserId));
  if (!allowed) {
    throw forbidden("Only the thread's author or someone who can edit may resolve it", 'not_your_thread');
  }
  if (found.thread.status !== status) {
    const name = asker.userId ? await findUserName(ctx.db, asker.userId) : 'A visitor';
    await updateThreadStatus(ctx.db, documentId, threadId, status, { userId: asker.userId, name });
    await announce(ctx, documentId);
  }
  const updated = await threadOf(ctx, asker, documentId, threadId);
  return presentThread(asker, updated.thread, updated.comments);
}
