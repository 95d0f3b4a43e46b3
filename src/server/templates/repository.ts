import { and, count, desc, eq } from 'drizzle-orm';
import type { RichTextDoc } from '../../shared/schemas/richText';
import type { Db } from '../db/client';
import { templates } from '../db/schema';

/** The only code that reads and writes templates. */

export type TemplateRow = typeof templates.$inferSelect;

export function listTemplatesOf(db: Db, userId: string): Promise<TemplateRow[]> {
  return db
    .select()
    .from(templates)
    .where(eq(templates.userId, userId))
    .orderBy(desc(templates.createdAt), desc(templates.id));
}

export async function findTemplate(db: Db, userId: string, id: string): Promise<TemplateRow | undefined> {
  const [row] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.id, id), eq(templates.userId, userId)));
  return row;
}

/**
 * Inserts unless the writer already keeps `limit` templates. The count and the insert share a transaction that
 * first locks the writer's rows, so two saves at once cannot both slip under the limit.
 */
export async function insertTemplate(
  db: Db,
  values: { userId: string; name: string; title: string; content: RichTextDoc },
  limit: number,
): Promise<TemplateRow | null> {
  return db.transaction(async (tx) => {
    await tx
      .select({ id: templates.id })
      .from(templates)
      .where(eq(templates.userId, values.userId))
      .for('update');
    const [{ total } = { total: 0 }] = await tx
      .select({ total: count() })
      .from(templates)
      .where(eq(templates.userId, values.userId));
    if (total >= limit) return null;
    const [row] = await tx.insert(templates).values(values).returning();
    return row ?? null;
  });
}

export async function deleteTemplate(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(templates)
    .where(and(eq(templates.id, id), eq(templates.userId, userId)))
    .returning({ id: templates.id });
  return rows.length > 0;
}
