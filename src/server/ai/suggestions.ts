import { and, desc, eq } from 'drizzle-orm';
import type { AiSuggestion } from '../../shared/schemas/ai';
import type { Db } from '../db/client';
import { aiSuggestions } from '../db/schema';
import { authorizeDocument } from '../documents';
import { notFound } from '../errors';

/** Suggestions stored per document and user; only the document's owner sees or decides them. */

type Row = typeof aiSuggestions.$inferSelect;

function present(row: Row): AiSuggestion {
  return {
    id: row.id,
    documentId: row.documentId,
    originalText: row.originalText,
    suggestedText: row.suggestedText,
    type: row.type,
    accepted: row.accepted,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * 404 unless the user may use AI on the document (the documents access policy: its owner); another user's
 * document is not revealed.
 */
export async function assertOwnsDocument(db: Db, userId: string, documentId: string): Promise<void> {
  await authorizeDocument({ db }, { kind: 'user', userId }, documentId, 'useAi', 'document_not_found');
}

export async function createSuggestion(
  db: Db,
  userId: string,
  input: { documentId: string; originalText: string; suggestedText: string; type: string },
): Promise<AiSuggestion> {
  await assertOwnsDocument(db, userId, input.documentId);
  const [row] = await db
    .insert(aiSuggestions)
    .values({ ...input, userId })
    .returning();
  if (!row) throw new Error('suggestion insert returned nothing');
  return present(row);
}

export async function decideSuggestion(
  db: Db,
  userId: string,
  id: string,
  accepted: boolean,
): Promise<AiSuggestion> {
  const [row] = await db
    .update(aiSuggestions)
    .set({ accepted, decidedAt: new Date() })
    .where(and(eq(aiSuggestions.id, id), eq(aiSuggestions.userId, userId)))
    .returning();
  if (!row) throw notFound('Suggestion not found', 'suggestion_not_found');
  return present(row);
}

export async function listSuggestions(db: Db, userId: string, documentId: string): Promise<AiSuggestion[]> {
  await assertOwnsDocument(db, userId, documentId);
  const rows = await db
    .select()
    .from(aiSuggestions)
    .where(and(eq(aiSuggestions.documentId, documentId), eq(aiSuggestions.userId, userId)))
    .orderBy(desc(aiSuggestions.createdAt));
  return rows.map(present);
}
