import { z } from 'zod';
import {
  AI_CHANGES_PREFERENCES,
  GHOST_COMPLETION_PREFERENCES,
  EDITOR_FONT_FAMILY_PREFERENCES,
  EDITOR_FONT_SIZE_PREFERENCES,
  THEME_PREFERENCES,
  type NotificationSettings,
  type Preferences,
  type UpdateUserSettings,
  type UserSettings,
} from '../settings-defaults';

/**
 * Account settings (SPEC §2 Account settings dialog, §3 Preferences and Profile form notifications).
 * Types and defaults live in ../settings-defaults.ts (zod-free, for the browser's first bundle).
 */
export * from '../settings-defaults';

export const preferencesSchema = z.object({
  theme: z.enum(THEME_PREFERENCES),
  fontSize: z.enum(EDITOR_FONT_SIZE_PREFERENCES),
  fontFamily: z.enum(EDITOR_FONT_FAMILY_PREFERENCES),
  autoSave: z.boolean(),
  showWordCount: z.boolean(),
  focusModeDefault: z.boolean(),
  aiChanges: z.enum(AI_CHANGES_PREFERENCES),
  ghostCompletion: z.enum(GHOST_COMPLETION_PREFERENCES),
}) satisfies z.ZodType<Preferences>;

export const notificationSettingsSchema = z.object({
  marketing: z.boolean(),
  updates: z.boolean(),
  security: z.boolean(),
}) satisfies z.ZodType<NotificationSettings>;

/** GET /api/me/settings and the answer of PUT. */
export const userSettingsSchema = z.object({
  preferences: preferencesSchema,
  notifications: notificationSettingsSchema,
  updated_at: z.string().nullable(),
}) satisfies z.ZodType<UserSettings>;

/** PUT /api/me/settings: any subset; fields left out keep their value. Unknown keys are refused. */
export const updateUserSettingsSchema = z
  .object({
    preferences: preferencesSchema.partial().strict().optional(),
    notifications: notificationSettingsSchema.partial().strict().optional(),
  })
  .strict() satisfies z.ZodType<UpdateUserSettings>;
