import { z } from 'zod';
import {
  AI_CHANGES_PREFERENCES,
  GHOST_COMPLETION_PREFERENCES,
  GRAMMAR_DIALECT_PREFERENCES,
  EDITOR_FONT_FAMILY_PREFERENCES,
  EDITOR_FONT_SIZE_PREFERENCES,
  THEME_PREFERENCES,
  type NotificationSettings,
  type Preferences,
  type UpdateUserSettings,
} from '../settings-defaults';

/**
 * Account settings: the Profile tab (with its notification switches) and the Preferences tab of the account
 * dialog. Types and defaults live in ../settings-defaults.ts (zod-free, for the browser's first bundle).
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
  grammarDialect: z.enum(GRAMMAR_DIALECT_PREFERENCES),
  aiSetupNoticeDismissed: z.boolean(),
}) satisfies z.ZodType<Preferences>;

export const notificationSettingsSchema = z.object({
  marketing: z.boolean(),
  updates: z.boolean(),
  security: z.boolean(),
  mentionsInApp: z.boolean(),
  mentionsEmail: z.boolean(),
  repliesInApp: z.boolean(),
  repliesEmail: z.boolean(),
  commentsInApp: z.boolean(),
  commentsEmail: z.boolean(),
}) satisfies z.ZodType<NotificationSettings>;

/** PUT /api/me/settings: any subset; fields left out keep their value. Unknown keys are refused. */
export const updateUserSettingsSchema = z
  .object({
    preferences: preferencesSchema.partial().strict().optional(),
    notifications: notificationSettingsSchema.partial().strict().optional(),
  })
  .strict() satisfies z.ZodType<UpdateUserSettings>;
