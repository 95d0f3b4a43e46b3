import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** AI providers configured in the app (migration 0011). The API key is stored sealed, never in clear. */
export const aiProviderSettings = pgTable('ai_provider_settings', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  kind: text('kind').$type<'openai-compatible' | 'anthropic'>().notNull(),
  baseUrl: text('base_url'),
  model: text('model').notNull(),
  apiKeySealed: text('api_key_sealed'),
  enabled: boolean('enabled').notNull().default(true),
  position: integer('position').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** The instance's AI allowance (one row, id 1). */
export const aiSettings = pgTable('ai_settings', {
  id: integer('id').primaryKey().default(1),
  monthlyTokensPerUser: integer('monthly_tokens_per_user'),
  adminsUnlimited: boolean('admins_unlimited').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
