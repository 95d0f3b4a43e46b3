import { z } from 'zod';
import type { Mention } from '../mentions';
import { UUID_PATTERN } from '../uuid';

/**
 * Comments on passages (`/api/documents/:id/threads`, and for "Can comment" share-link visitors
 * `/api/shared/:documentId/threads` with the share token): docs/comments.md.
 *
 * A thread belongs to the server: its comments live in the database, never in the Y.Doc. The document holds
 * only a `comment` mark with the thread's id over the passage, which the server applies through the document
 * writer when the thread is created, so a person who may comment but not edit can still anchor a thread.
 * The thread also keeps the quoted passage with some text before and after it: when the marked text is
 * deleted the thread stays, shown "on deleted text" with its quote.
 */

/** The longest comment body, in characters. */
export const MAX_COMMENT_LENGTH = 5_000;
/** The longest quoted passage a thread keeps, and the context kept before and after it. */
export const MAX_COMMENT_QUOTE_LENGTH = 2_000;
export const COMMENT_QUOTE_CONTEXT_LENGTH = 64;
/** Threads per page of `GET .../threads`. */
const COMMENT_THREADS_PAGE_SIZE = 100;

export const threadIdSchema = z.string().regex(UUID_PATTERN, 'must be a thread id (a UUID)');

const commentBodySchema = z
  .string({ message: 'Write a comment' })
  .trim()
  .min(1, 'Write a comment')
  .max(MAX_COMMENT_LENGTH, `Comments are at most ${MAX_COMMENT_LENGTH.toLocaleString('en-US')} characters`);

/** Where the thread sits: the passage's text, the text around it, and its place in the editor when known. */
const commentAnchorSchema = z.object({
  quote: z.string().min(1, 'Select the text to comment on').max(MAX_COMMENT_QUOTE_LENGTH),
  prefix: z.string().max(COMMENT_QUOTE_CONTEXT_LENGTH).default(''),
  suffix: z.string().max(COMMENT_QUOTE_CONTEXT_LENGTH).default(''),
  /**
   * The passage's ProseMirror positions in the sender's editor: a hint the server tries first (the document may
   * have moved on since); the quote with its context decides.
   */
  from: z.number().int().min(0).optional(),
  to: z.number().int().min(0).optional(),
});
export type CommentAnchor = z.infer<typeof commentAnchorSchema>;

/** POST .../threads: a new thread with its first comment. `id` is made by the client (crypto.randomUUID()). */
export const createThreadSchema = z.object({
  id: threadIdSchema,
  anchor: commentAnchorSchema,
  body: commentBodySchema,
  /** A share-link visitor's display name (ignored for signed-in people, who comment under their account's name). */
  authorName: z.string().trim().min(1).max(80).optional(),
});
export type CreateThread = z.input<typeof createThreadSchema>;

/** POST .../threads/:threadId/comments: a reply. */
export const replySchema = z.object({
  body: commentBodySchema,
  authorName: z.string().trim().min(1).max(80).optional(),
});
export type Reply = z.input<typeof replySchema>;

/** PATCH .../threads/:threadId/comments/:commentId: edit your own comment. */
export const editCommentSchema = z.object({ body: commentBodySchema });

/** PATCH .../threads/:threadId: resolve or reopen. */
export const threadStatusSchema = z.object({ status: z.enum(['open', 'resolved']) });

/** GET .../threads query. */
export const listThreadsQuerySchema = z.object({
  status: z.enum(['open', 'resolved', 'all']).default('all'),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(COMMENT_THREADS_PAGE_SIZE).default(COMMENT_THREADS_PAGE_SIZE),
});

interface CommentAuthor {
  /** The account's id; null for a share-link visitor. */
  id: string | null;
  name: string;
}

export interface Comment {
  id: string;
  threadId: string;
  author: CommentAuthor;
  body: string;
  createdAt: string;
  /** When the author last changed the body; null if never. */
  editedAt: string | null;
  /** Whether the asker may edit and delete it (their own). */
  mine: boolean;
  /**
   * The people the body mentions, named as they were when it was written: the body holds `<@id>` where each
   * is mentioned (shared/mentions.ts).
   */
  mentions: Mention[];
}

export interface CommentThread {
  id: string;
  documentId: string;
  anchor: { quote: string; prefix: string; suffix: string };
  status: 'open' | 'resolved';
  resolvedAt: string | null;
  resolvedBy: CommentAuthor | null;
  createdAt: string;
  /** Oldest first; the first is the thread's opening comment. */
  comments: Comment[];
  /** Whether the asker may resolve and reopen it (its author, or anyone who may edit the document). */
  canResolve: boolean;
  /** Whether the asker may delete the whole thread (the document's owner, or its author who may comment). */
  canDelete: boolean;
}

/** GET /api/documents/:id/mentions: the people on the document, whom a comment may mention. */
export interface MentionablePeople {
  people: { id: string; name: string; email: string }[];
}

export interface CommentThreadPage {
  threads: CommentThread[];
  /** Pass as `cursor` for the next page; null on the last. */
  nextCursor: string | null;
}
