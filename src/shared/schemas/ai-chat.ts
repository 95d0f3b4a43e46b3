import { z } from 'zod';
import { CHAT_EDIT_MAX_CHARS, CHAT_MESSAGE_MAX_CHARS } from '../constants';

/** What the writer sends to POST /api/ai/chat/:documentId. */
export const chatRequestSchema = z.object({
  message: z
    .string({ error: 'message is required' })
    .trim()
    .min(1, { error: 'Write a message first' })
    .max(CHAT_MESSAGE_MAX_CHARS, {
      error: `Messages are at most ${CHAT_MESSAGE_MAX_CHARS.toLocaleString('en-US')} characters`,
    }),
});

/** One proposed change: an exact passage of the document and its replacement (empty to delete it). */
export const chatEditSchema = z.object({
  find: z.string().min(1).max(CHAT_EDIT_MAX_CHARS),
  replace: z.string().max(CHAT_EDIT_MAX_CHARS),
});
export type ChatEdit = z.infer<typeof chatEditSchema>;

export type ChatRole = 'user' | 'assistant';

/** A stored message of a writer's conversation about one document. */
export interface ChatMessage {
  id: string;
  role: ChatRole;
  /** Markdown from the model (untrusted: render sanitized) or the writer's own text. */
  content: string;
  /** The changes an assistant answer proposed (already validated); empty otherwise. */
  edits: ChatEdit[];
  createdAt: string;
}

/** GET /api/ai/chat/:documentId */
export interface ChatConversation {
  messages: ChatMessage[];
}

/** Extra fields of the final `done` event of POST /api/ai/chat/:documentId. */
export interface ChatDoneEvent {
  /** The writer's question as stored. */
  question: ChatMessage;
  /** The answer as stored: prose in `content`, the parsed edits in `edits`. */
  answer: ChatMessage;
}
