import { sql } from 'drizzle-orm';
import { bigserial, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const users = pgTable('users', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  /** Always stored lower-cased and trimmed. */
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  fullName: text('full_name').notNull().default(''),
  emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true, mode: 'date' }),
  /** gratis | creator | professional — changed only by verified billing events or an administrator. */
  plan: text('plan').notNull().default('gratis'),
  /** admin | member (migration 0010); the first admin claims the instance with a setup code or ADMIN_EMAIL. */
  role: text('role').$type<'admin' | 'member'>().notNull().default('member'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** One row per sign-in: the refresh-token family. Revoking it ends its access tokens too. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The sign-in time: re-authentication within a few minutes of it needs no password (service.ts). */
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    /** User-Agent of the sign-in, shown as a device name in the sessions list (migration 0020). */
    userAgent: text('user_agent').notNull().default(''),
    /** Last request seen, updated at most every LAST_SEEN_UPDATE_MS. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** One-time codes that claim an instance without admin (migration 0020). Only the SHA-256 is stored. */
export const setupCodes = pgTable('setup_codes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  codeHash: text('code_hash').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
});

/** Refresh tokens are stored as SHA-256 hashes; a token used twice revokes its whole session. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

/** One-time tokens sent by e-mail (password recovery, sign-up confirmation, e-mail change). Hashed, expiring. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    newEmail: text('new_email'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('email_tokens_user_idx').on(t.userId)],
);

/** Failed password sign-ins within the throttle window (migration 0020; accounts/sign-in-throttle.ts). */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email').notNull(),
    ip: text('ip').notNull(),
    failedAt: timestamp('failed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('sign_in_failures_email_idx').on(t.email, t.failedAt)],
);
