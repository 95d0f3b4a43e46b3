import { hash } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';
import { sessions, users } from '../db/schema';
import { signAccessToken } from '../plugins';
import type { TestServer } from './server';

export interface TestUser {
  id: string;
  email: string;
  password: string;
  /** Bearer access token of a fresh session. */
  token: string;
  sessionId: string;
}

// Cheap argon2 parameters: factories create many users and the cost is irrelevant to what tests check.
const FAST_ARGON2 = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

/**
 * A confirmed user with a signed-in session, created straight in the database so that tests of other
 * areas don't depend on the sign-up flow. Tests of accounts use the HTTP routes instead.
 */
export async function createUser(
  server: TestServer,
  overrides: {
    email?: string;
    password?: string;
    fullName?: string;
    plan?: string;
    /** Sign-up only makes members; an instance admin is made here (or with the setup code). */
    role?: 'admin' | 'member';
  } = {},
): Promise<TestUser> {
  const email = (overrides.email ?? `user-${randomBytes(5).toString('hex')}@example.com`).toLowerCase();
  const password = overrides.password ?? `pw-${randomBytes(8).toString('hex')}`;
  const { db } = server.database;
  const [user] = await db
    .insert(users)
    .values({
      email,
      passwordHash: await hash(password, FAST_ARGON2),
      fullName: overrides.fullName ?? 'Test Writer',
      emailConfirmedAt: new Date(),
      plan: overrides.plan ?? 'gratis',
      role: overrides.role ?? 'member',
    })
    .returning({ id: users.id });
  if (!user) throw new Error('user insert returned nothing');
  const [session] = await db.insert(sessions).values({ userId: user.id }).returning({ id: sessions.id });
  if (!session) throw new Error('session insert returned nothing');
  const { token } = await signAccessToken(server.config.JWT_SECRET, {
    userId: user.id,
    sessionId: session.id,
    email,
  });
  return { id: user.id, email, password, token, sessionId: session.id };
}
