import { and, desc, eq, notInArray } from 'drizzle-orm';
import type { ChatEdit, ChatMessage, ChatRole } from '../../shared/schemas/ai-chat';
import type { Db } from '../db/client';
import { aiChatMessages } from '../db/schema';

/** The only code that reads or writes ai_chat_messages. Every query is scoped to (document, writer). */

type Row = typeof aiChatMessages.$inferSelect;

function present(row: Row): ChatMessage {
  return {
    id: row.id,
    role: row.role as ChatRole,
    content: row.content,
    edits: Array.isArray(row.edits) ? (row.edits as ChatEdit[]) : [],
    createdAt: row.createdAt.toISOString(),
  };
}

const conversation = (documentId: string, userId: string) =>
  and(eq(aiChatMessages.documentId, documentId), eq(aiChatMessages.userId, userId));

/** The newest `limit` messages, oldest first. */
export async function listMessages(
  db: Db,
  documentId: string,
  userId: string,
  limit: number,
): Promise<ChatMessage[]> {
  const rows = await db
    .select()
    .from(aiChatMessages)
    .where(conversation(documentId, userId))
    .orderBy(desc(aiChatMessages.createdAt), desc(aiChatMessages.id))
    .limit(limit);
  return rows.reverse().map(present);
}

export interface NewChatMessage {
  role: ChatRole;
  content: string;
  edits?: ChatEdit[];
  createdAt: Date;
}

/** Adds messages and deletes the oldest beyond `keep`, in one transaction. Returns the added ones. */
export async function appendMessages(
  db: Db,
  documentId: string,
  userId: string,
  messages: NewChatMessage[],
  keep: number,
): Promise<ChatMessage[]> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .insert(aiChatMessages)
      .values(
        messages.map((message) => ({
          documentId,
          userId,
          role: message.role,
          content: message.content,
          edits: message.edits && message.edits.length > 0 ? message.edits : null,
          createdAt: message.createdAt,
        })),
      )
      .returning();
    const kept = tx
      .select({ id: aiChatMessages.id })
      .from(aiChatMessages)
      .where(conversation(documentId, userId))
      .orderBy(desc(aiChatMessages.createdAt), desc(aiChatMessages.id))
      .limit(keep);
    await tx
      .delete(aiChatMessages)
      .where(and(conversation(documentId, userId), notInArray(aiChatMessages.id, kept)));
    return rows.map(present);
  });
}

export async function deleteConversation(db: Db, documentId: string, userId: string): Promise<void> {
  await db.delete(aiChatMessages).where(conversation(documentId, userId));
}
