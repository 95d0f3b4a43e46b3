import { apiRequest } from '@client/lib/api';
import { ApiError } from '@client/lib/api';
import type {
  Comment,
  CommentThread,
  CommentThreadPage,
  CreateThread,
  MentionablePeople,
  Reply,
} from '@shared/schemas/comments';

/**
 * The threads of one document, as the page that shows it may reach them: a signed-in person (owner or member)
 * under `/api/documents/:id/threads`, a "Can comment" link's visitor under `/api/shared/:id/threads` with the
 * share token. Type-only schema imports keep zod out of the bundle.
 */
export interface CommentsApi {
  documentId: string;
  list: (cursor: string | null) => Promise<CommentThreadPage>;
  create: (thread: CreateThread) => Promise<CommentThread>;
  reply: (threadId: string, reply: Reply) => Promise<Comment>;
  edit: (threadId: string, commentId: string, body: string) => Promise<Comment>;
  remove: (threadId: string, commentId: string) => Promise<void>;
  setStatus: (threadId: string, status: CommentThread['status']) => Promise<CommentThread>;
  removeThread: (threadId: string) => Promise<void>;
  /** The people a comment may mention; absent where no one can be mentioned (a share-link visitor). */
  mentionable?: () => Promise<MentionablePeople>;
}

type Send = <T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) => Promise<T>;

function commentsApi(documentId: string, base: string, send: Send): CommentsApi {
  const thread = (threadId: string) => `${base}/${encodeURIComponent(threadId)}`;
  const comment = (threadId: string, commentId: string) =>
    `${thread(threadId)}/comments/${encodeURIComponent(commentId)}`;
  return {
    documentId,
    list: (cursor) =>
      send('GET', `${base}?${new URLSearchParams({ status: 'all', ...(cursor ? { cursor } : {}) })}`),
    create: (body) => send('POST', base, body),
    reply: (threadId, body) => send('POST', `${thread(threadId)}/comments`, body),
    edit: (threadId, commentId, body) => send('PATCH', comment(threadId, commentId), { body }),
    remove: (threadId, commentId) => send('DELETE', comment(threadId, commentId)),
    setStatus: (threadId, status) => send('PATCH', thread(threadId), { status }),
    removeThread: (threadId) => send('DELETE', thread(threadId)),
  };
}

/** The owner's and a member's calls, with their session. */
export function documentCommentsApi(documentId: string): CommentsApi {
  const base = `/api/documents/${encodeURIComponent(documentId)}`;
  return {
    ...commentsApi(documentId, `${base}/threads`, (method, path, body) => apiRequest(method, path, body)),
    mentionable: () => apiRequest('GET', `${base}/mentions`),
  };
}

/** A share-link visitor's calls: never the visitor's own session, only the share token for this document. */
export function sharedCommentsApi(documentId: string, shareToken: () => string | undefined): CommentsApi {
  const send: Send = async <T>(method: string, path: string, body?: unknown) => {
    const token = shareToken();
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token) headers['x-share-token'] = token;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(path, {
      method,
      headers,
      credentials: 'omit',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    if (!response.ok) throw new ApiError(response.status, text || response.statusText, parsed);
    return parsed as T;
  };
  return commentsApi(documentId, `/api/shared/${encodeURIComponent(documentId)}/threads`, send);
}
