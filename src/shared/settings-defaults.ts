/**
 * Account settings defaults and allowed values, without zod, so the browser's first bundle can use them
 * cheaply. The zod schemas in schemas/settings.ts are built from these.
 */
export const THEME_PREFERENCES = ['light', 'dark', 'system'] as const;
export const EDITOR_FONT_SIZE_PREFERENCES = ['small', 'medium', 'large'] as const;
export const EDITOR_FONT_FAMILY_PREFERENCES = ['inter', 'serif', 'mono'] as const;
/** How an accepted AI answer reaches the text: as tracked changes to review, or written at once. */
export const AI_CHANGES_PREFERENCES = ['suggest', 'apply'] as const;
/** Ghost-text completion: off, or the pause it waits for (GHOST_COMPLETION_DELAY_MS). */
export const GHOST_COMPLETION_PREFERENCES = ['off', 'quick', 'normal', 'relaxed'] as const;
/** The English the grammar check expects: its spellings ("colour", "color") are not flagged. */
export const GRAMMAR_DIALECT_PREFERENCES = ['american', 'british', 'canadian', 'australian'] as const;
export type GrammarDialect = (typeof GRAMMAR_DIALECT_PREFERENCES)[number];

export interface Preferences {
  theme: (typeof THEME_PREFERENCES)[number];
  fontSize: (typeof EDITOR_FONT_SIZE_PREFERENCES)[number];
  fontFamily: (typeof EDITOR_FONT_FAMILY_PREFERENCES)[number];
  autoSave: boolean;
  showWordCount: boolean;
  focusModeDefault: boolean;
  aiChanges: (typeof AI_CHANGES_PREFERENCES)[number];
  ghostCompletion: (typeof GHOST_COMPLETION_PREFERENCES)[number];
  grammarDialect: GrammarDialect;
  /** An admin closed the "Set up AI" notice (kept per user, so it does not return in another browser). */
  aiSetupNoticeDismissed: boolean;
}

export interface NotificationSettings {
  marketing: boolean;
  updates: boolean;
  security: boolean;
  /** Comment notifications (docs/notifications.md), each kind in the app and in the e-mail digest. */
  mentionsInApp: boolean;
  mentionsEmail: boolean;
  repliesInApp: boolean;
  repliesEmail: boolean;
  commentsInApp: boolean;
  commentsEmail: boolean;
}

export interface UserSettings {
  preferences: Preferences;
  notifications: NotificationSettings;
  /** ISO time of the last save; null when the user never saved (defaults). */
  updated_at: string | null;
}

export interface UpdateUserSettings {
  preferences?: Partial<Preferences> | undefined;
  notifications?: Partial<NotificationSettings> | undefined;
}

export const DEFAULT_PREFERENCES: Preferences = {
  theme: 'system',
  fontSize: 'medium',
  fontFamily: 'inter',
  autoSave: true,
  showWordCount: true,
  focusModeDefault: false,
  aiChanges: 'suggest',
  ghostCompletion: 'normal',
  grammarDialect: 'american',
  aiSetupNoticeDismissed: false,
};

export const DEFAULT_NOTIFICATIONS: NotificationSettings = {
  marketing: false,
  updates: true,
  security: true,
  mentionsInApp: true,
  mentionsEmail: true,
  repliesInApp: true,
  repliesEmail: true,
  commentsInApp: true,
  commentsEmail: true,
};

export const DEFAULT_USER_SETTINGS: UserSettings = {
  preferences: DEFAULT_PREFERENCES,
  notifications: DEFAULT_NOTIFICATIONS,
  updated_at: null,
};
