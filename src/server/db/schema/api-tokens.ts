import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ApiTokenScope } from '../../../shared/schemas/api-tokens';
import { users } from './accounts';
import { oauthGrants } from './oauth';

/** Personal API tokens (migration 0025). Only the secret's SHA-256 is stored. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scopes: text('scopes').array().$type<ApiTokenScope[]>().notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    hint: text('hint').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    /** 'personal' (made by hand) or 'oauth' (an OAuth grant's access token, migration 0034). */
    kind: text('kind').$type<'personal' | 'oauth'>().notNull().default('personal'),
    grantId: uuid('grant_id').references(() => oauthGrants.id, { onDelete: 'cascade' }),
  },
  (table) => [index('api_tokens_user_idx').on(table.userId, table.createdAt.desc())],
);

/** The instance's switch for API tokens (one row, id 1). */
export const apiTokenSettings = pgTable('api_token_settings', {
  id: integer('id').primaryKey().default(1),
  enabled: boolean('enabled').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
