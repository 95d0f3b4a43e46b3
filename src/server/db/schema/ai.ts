import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { documents } from './documents';

/** One row per successful generative AI call; summed per user per calendar month for quotas. */
export const aiUsage = pgTable(
  'ai_usage',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id').references(() => documents.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('ai_usage_user_created_idx').on(t.userId, t.createdAt)],
);

/** Suggestions shown on the suggestion card; `accepted` is null until the writer decides. */
export const aiSuggestions = pgTable(
  'ai_suggestions',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    originalText: text('original_text').notNull(),
    suggestedText: text('suggested_text').notNull(),
    type: text('type').notNull().default('improvement'),
    accepted: boolean('accepted'),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('ai_suggestions_document_idx').on(t.documentId, t.createdAt.desc())],
);

/** A writer's own AI command (Settings → AI commands). Mirrors migrations/0018_ai_commands.sql. */
export const aiCommands = pgTable(
  'ai_commands',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    instruction: text('instruction').notNull(),
    icon: text('icon').notNull().default('sparkles'),
    showInSlash: boolean('show_in_slash').notNull().default(true),
    showInSelection: boolean('show_in_selection').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('ai_commands_user_idx').on(t.userId, t.createdAt)],
);

/** Marks that a writer's example commands were added, so deleted examples stay deleted. */
export const aiCommandPresets = pgTable('ai_command_presets', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  seededAt: timestamp('seeded_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * A writer's conversation with a document (the editor's chat panel), one row per message. Mirrors
 * migrations/0019_ai_chat.sql. Kept per (document, writer), at most CHAT_HISTORY_LIMIT messages; gone with
 * the document or the writer.
 */
export const aiChatMessages = pgTable(
  'ai_chat_messages',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'user' or 'assistant'. */
    role: text('role').notNull(),
    content: text('content').notNull(),
    /** An assistant answer's proposed changes, `[{ find, replace }]`, validated before they are stored. */
    edits: jsonb('edits'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('ai_chat_messages_conversation_idx').on(t.documentId, t.userId, t.createdAt)],
);
