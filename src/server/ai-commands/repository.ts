import { and, asc, count, eq } from 'drizzle-orm';
import type { AiCommand, AiCommandInput, AiCommandIcon } from '../../shared/schemas/ai-commands';
import type { Db } from '../db/client';
import { aiCommandPresets, aiCommands } from '../db/schema';

/** The only code that writes ai_commands and ai_command_presets. */

type Row = typeof aiCommands.$inferSelect;

function present(row: Row): AiCommand {
  return {
    id: row.id,
    name: row.name,
    instruction: row.instruction,
    icon: row.icon as AiCommandIcon,
    showInSlash: row.showInSlash,
    showInSelection: row.showInSelection,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listCommands(db: Db, userId: string): Promise<AiCommand[]> {
  const rows = await db
    .select()
    .from(aiCommands)
    .where(eq(aiCommands.userId, userId))
    .orderBy(asc(aiCommands.createdAt), asc(aiCommands.id));
  return rows.map(present);
}

export async function findCommand(db: Db, userId: string, id: string): Promise<AiCommand | null> {
  const [row] = await db
    .select()
    .from(aiCommands)
    .where(and(eq(aiCommands.id, id), eq(aiCommands.userId, userId)));
  return row ? present(row) : null;
}

/**
 * Adds the examples once per writer. The marker row is claimed in the same transaction, so two first
 * visits at once seed once, and examples the writer deleted never return.
 */
export async function seedPresetsOnce(db: Db, userId: string, presets: readonly AiCommandInput[]) {
  await db.transaction(async (tx) => {
    const claimed = await tx
      .insert(aiCommandPresets)
      .values({ userId })
      .onConflictDoNothing()
      .returning({ userId: aiCommandPresets.userId });
    if (claimed.length === 0 || presets.length === 0) return;
    // Distinct creation times keep the examples in their written order.
    const start = Date.now();
    await tx
      .insert(aiCommands)
      .values(presets.map((preset, i) => ({ ...preset, userId, createdAt: new Date(start + i) })));
  });
}

/** Inserts unless the writer already keeps `limit` commands (checked in the same transaction). */
export async function insertCommand(
  db: Db,
  userId: string,
  input: AiCommandInput,
  limit: number,
): Promise<AiCommand | null> {
  return db.transaction(async (tx) => {
    const [{ total } = { total: 0 }] = await tx
      .select({ total: count() })
      .from(aiCommands)
      .where(eq(aiCommands.userId, userId));
    if (total >= limit) return null;
    const [row] = await tx
      .insert(aiCommands)
      .values({ ...input, userId })
      .returning();
    return row ? present(row) : null;
  });
}

export async function updateCommand(
  db: Db,
  userId: string,
  id: string,
  input: AiCommandInput,
): Promise<AiCommand | null> {
  const [row] = await db
    .update(aiCommands)
    .set({ ...input, updatedAt: new Date() })
    .where(and(eq(aiCommands.id, id), eq(aiCommands.userId, userId)))
    .returning();
  return row ? present(row) : null;
}

export async function deleteCommand(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(aiCommands)
    .where(and(eq(aiCommands.id, id), eq(aiCommands.userId, userId)))
    .returning({ id: aiCommands.id });
  return rows.length > 0;
}
