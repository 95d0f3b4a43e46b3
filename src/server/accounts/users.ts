import type { User } from '../../shared/schemas/auth';
import type { users } from '../db/schema';

export type UserRow = typeof users.$inferSelect;

/**
 * The public shape of a user (docs/accounts.md "API"); never includes the password hash or plan internals.
 */
export function presentUser(user: UserRow): User {
  return {
    id: user.id,
    email: user.email,
    user_metadata: { full_name: user.fullName },
    created_at: user.createdAt.toISOString(),
    email_confirmed_at: user.emailConfirmedAt ? user.emailConfirmedAt.toISOString() : null,
    role: user.role,
  };
}
