import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { documentPins } from '../db/schema';

/** The only code that writes document_pins. Callers check access first (access.ts). */

export async function insertPin(db: Db, userId: string, documentId: string): Promise<void> {
  await db.insert(documentPins).values({ userId, documentId }).onConflictDoNothing();
}

export async function deletePin(db: Db, userId: string, documentId: string): Promise<void> {
  await db
    .delete(documentPins)
    .where(and(eq(documentPins.userId, userId), eq(documentPins.documentId, documentId)));
}

export async function isPinned(db: Db, userId: string, documentId: string): Promise<boolean> {
  const [row] = await db
    .select({ documentId: documentPins.documentId })
    .from(documentPins)
    .where(and(eq(documentPins.userId, userId), eq(documentPins.documentId, documentId)));
  return row !== undefined;
}
