import { eq } from 'drizzle-orm';
import {
  DEFAULT_NOTIFICATIONS,
  DEFAULT_PREFERENCES,
  notificationSettingsSchema,
  preferencesSchema,
  type UpdateUserSettings,
  type UserSettings,
} from '../../shared/schemas/settings';
import type { Db } from '../db/client';
import { userSettings } from '../db/schema';

type Row = typeof userSettings.$inferSelect;

/**
 * Stored JSON is merged over the defaults and re-validated field by field, so a row written by an older version
 * (a missing key, or a value a later version no longer allows) still reads as a complete, valid object.
 */
function mergeValid<T extends object>(
  defaults: T,
  stored: Record<string, unknown> | undefined,
  isValid: (key: string, value: unknown) => boolean,
): T {
  const result = { ...defaults } as Record<string, unknown>;
  for (const [key, value] of Object.entries(stored ?? {})) {
    if (key in defaults && isValid(key, value)) result[key] = value;
  }
  return result as T;
}

function fieldValidator(schema: typeof preferencesSchema | typeof notificationSettingsSchema) {
  const shape = schema.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
  return (key: string, value: unknown) => shape[key]?.safeParse(value).success === true;
}

const validPreference = fieldValidator(preferencesSchema);
const validNotification = fieldValidator(notificationSettingsSchema);

function present(row: Row | undefined): UserSettings {
  return {
    preferences: mergeValid(DEFAULT_PREFERENCES, row?.preferences, validPreference),
    notifications: mergeValid(DEFAULT_NOTIFICATIONS, row?.notifications, validNotification),
    updated_at: row ? row.updatedAt.toISOString() : null,
  };
}

/** The user's settings, or the defaults when they never saved any. */
export async function getUserSettings(db: Db, userId: string): Promise<UserSettings> {
  const [row] = await db.select().from(userSettings).where(eq(userSettings.userId, userId)).limit(1);
  return present(row);
}

/** Applies a partial update over the current settings and returns the full result. */
export async function updateUserSettings(
  db: Db,
  userId: string,
  update: UpdateUserSettings,
): Promise<UserSettings> {
  return db.transaction(async (tx) => {
    // Make sure the row exists, then lock it: concurrent partial saves of different fields serialize on the lock
    // instead of both merging over the defaults (SELECT ... FOR UPDATE cannot lock a row that is not there yet).
    await tx.insert(userSettings).values({ userId }).onConflictDoNothing({ target: userSettings.userId });
    const [existing] = await tx
      .select()
      .from(userSettings)
      .where(eq(userSettings.userId, userId))
      .for('update')
      .limit(1);
    const current = present(existing);
    const preferences = { ...current.preferences, ...update.preferences };
    const notifications = { ...current.notifications, ...update.notifications };
    const [row] = await tx
      .update(userSettings)
      .set({ preferences, notifications, updatedAt: new Date() })
      .where(eq(userSettings.userId, userId))
      .returning();
    return present(row);
  });
}
