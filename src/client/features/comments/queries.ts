import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { CommentThread, CreateThread, Reply } from '@shared/schemas/comments';
import type { CommentsApi } from './api';
import { MAX_THREAD_PAGES } from './constants';

/** Every thread of a document, open and resolved, in document order. */
const threadsQueryKey = (documentId: string) => ['comment-threads', documentId] as const;

async function allThreads(api: CommentsApi): Promise<CommentThread[]> {
  const threads: CommentThread[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_THREAD_PAGES; page += 1) {
    const result = await api.list(cursor);
    threads.push(...result.threads);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return threads;
}

/** `pollMs`: on a page without the document's socket, which would tell when threads change. */
export function useThreads(api: CommentsApi | null, pollMs?: number) {
  return useQuery({
    queryKey: threadsQueryKey(api?.documentId ?? ''),
    queryFn: () => allThreads(api!),
    enabled: api !== null,
    refetchInterval: pollMs,
  });
}

/** Someone changed the threads (this page, or another one told through the document's socket). */
export function refreshThreads(queryClient: QueryClient, documentId: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: threadsQueryKey(documentId) });
}

function replaceThread(queryClient: QueryClient, documentId: string, thread: CommentThread) {
  queryClient.setQueryData<CommentThread[]>(threadsQueryKey(documentId), (threads) =>
    threads?.map((each) => (each.id === thread.id ? thread : each)),
  );
}

/** The thread changes of one document; each refreshes the list when done. */
export function useThreadActions(api: CommentsApi) {
  const queryClient = useQueryClient();
  const { documentId } = api;
  const refresh = () => refreshThreads(queryClient, documentId);
  return {
    create: useMutation({ mutationFn: (thread: CreateThread) => api.create(thread), onSettled: refresh }),
    reply: useMutation({
      mutationFn: ({ threadId, reply }: { threadId: string; reply: Reply }) => api.reply(threadId, reply),
      onSettled: refresh,
    }),
    edit: useMutation({
      mutationFn: ({ threadId, commentId, body }: { threadId: string; commentId: string; body: string }) =>
        api.edit(threadId, commentId, body),
      onSettled: refresh,
    }),
    remove: useMutation({
      mutationFn: ({ threadId, commentId }: { threadId: string; commentId: string }) =>
        api.remove(threadId, commentId),
      onSettled: refresh,
    }),
    removeThread: useMutation({
      mutationFn: (threadId: string) => api.removeThread(threadId),
      onSettled: refresh,
    }),
    setStatus: useMutation({
      mutationFn: ({ threadId, status }: { threadId: string; status: CommentThread['status'] }) =>
        api.setStatus(threadId, status),
      onSuccess: (thread) => replaceThread(queryClient, documentId, thread),
      onSettled: refresh,
    }),
  };
}
