import type { ChatConversation, ChatDoneEvent } from '@shared/schemas/ai-chat';
import { apiRequest } from '@client/lib/api';
import { streamAi, type StreamResult } from '@client/features/ai';

/** Fetchers for /api/ai/chat/:documentId (docs/ai.md "Chat with the document"). */

export const chatQueryKey = (documentId: string) => ['ai-chat', documentId] as const;

export const chatApi = {
  conversation: (documentId: string) => apiRequest<ChatConversation>('GET', `/api/ai/chat/${documentId}`),
  clear: (documentId: string) => apiRequest<null>('DELETE', `/api/ai/chat/${documentId}`),
};

/** Asks about the document; `onText` receives the answer so far as it streams. */
export async function askChat(
  documentId: string,
  message: string,
  options: { signal: AbortSignal; onText: (textSoFar: string) => void },
): Promise<StreamResult & ChatDoneEvent> {
  const result = await streamAi(
    `chat/${documentId}`,
    { message },
    { signal: options.signal, onDelta: (_delta, text) => options.onText(text) },
  );
  return result as StreamResult & ChatDoneEvent;
}
