import type { FastifyBaseLogger } from 'fastify';
import { parseChatAnswer } from '../../shared/ai/chat';
import { prompts, type BuiltPrompt } from '../../shared/ai/prompts';
import {
  CHAT_CONTEXT_CHARS,
  CHAT_HISTORY_CHARS,
  CHAT_HISTORY_LIMIT,
  CHAT_PROMPT_MESSAGES,
} from '../../shared/constants';
import type { ChatDoneEvent, ChatMessage } from '../../shared/schemas/ai-chat';
import type { Db } from '../db/client';
import { authorizeDocument, documentForUser } from '../documents';
import { documentBlocks, documentForPrompt } from './context';
import * as repository from './repository';

/**
 * Chat with the document: a writer's conversation about one of their own documents. Only the owner chats
 * (share-link visitors have no session, other writers get 404); the conversation is theirs alone.
 */

const mayUseAi = (db: Db, userId: string, documentId: string) =>
  authorizeDocument({ db }, { kind: 'user', userId }, documentId, 'useAi');

export async function conversationOf(db: Db, userId: string, documentId: string): Promise<ChatMessage[]> {
  await mayUseAi(db, userId, documentId);
  return repository.listMessages(db, documentId, userId, CHAT_HISTORY_LIMIT);
}

export async function clearConversation(db: Db, userId: string, documentId: string): Promise<void> {
  await mayUseAi(db, userId, documentId);
  await repository.deleteConversation(db, documentId, userId);
}

/** The earlier messages as prompt lines, newest kept first within CHAT_HISTORY_CHARS. */
function conversationText(messages: ChatMessage[]): string {
  const lines: string[] = [];
  let used = 0;
  for (const message of [...messages].reverse()) {
    const edits = message.edits.length > 0 ? ` (proposed ${message.edits.length} change(s))` : '';
    const line = `${message.role === 'user' ? 'Writer' : 'Assistant'}: ${message.content}${edits}`;
    if (used + line.length > CHAT_HISTORY_CHARS) break;
    lines.unshift(line);
    used += line.length + 1;
  }
  return lines.join('\n');
}

/**
 * The prompt for a question: the document (its live state when `liveContent` has it, else as stored),
 * trimmed to CHAT_CONTEXT_CHARS around the question, and the last CHAT_PROMPT_MESSAGES messages.
 * 404 unless the writer owns the document.
 */
export async function chatPrompt(
  db: Db,
  userId: string,
  documentId: string,
  question: string,
  liveContent: (documentId: string) => unknown,
): Promise<BuiltPrompt> {
  const document = await documentForUser({ db }, userId, documentId, 'useAi');
  const content = liveContent(documentId) ?? document.content;
  const text = documentForPrompt(document.title, documentBlocks(content), question, CHAT_CONTEXT_CHARS);
  const history = await repository.listMessages(db, documentId, userId, CHAT_PROMPT_MESSAGES);
  return prompts.chat(text, conversationText(history), question);
}

/**
 * Keeps the question and the finished answer (prose as content, the validated edits beside it) and
 * returns both as stored; malformed edits were dropped, never stored.
 */
export async function keepExchange(
  db: Db,
  log: FastifyBaseLogger,
  userId: string,
  documentId: string,
  question: { text: string; askedAt: Date },
  answer: string,
): Promise<ChatDoneEvent> {
  const { prose, edits, dropped } = parseChatAnswer(answer);
  if (dropped > 0) log.info({ documentId, dropped }, 'chat answer: malformed edits dropped');
  const [asked, answered] = await repository.appendMessages(
    db,
    documentId,
    userId,
    [
      { role: 'user', content: question.text, createdAt: question.askedAt },
      // Never before the question, whatever the clocks say.
      {
        role: 'assistant',
        content: prose,
        edits,
        createdAt: new Date(Math.max(Date.now(), question.askedAt.getTime() + 1)),
      },
    ],
    CHAT_HISTORY_LIMIT,
  );
  return { question: asked!, answer: answered! };
}
