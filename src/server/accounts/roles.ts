import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { forbidden, notFound, unprocessable } from '../errors';
import { requireUser, type Principal } from '../plugins';

export type Role = 'admin' | 'member';
export const ROLES: readonly Role[] = ['admin', 'member'];

/** The role is read from the database on each call, so a demotion takes effect on the next request. */
export async function roleOf(db: Db, userId: string): Promise<Role> {
  const [row] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId));
  return row?.role ?? 'member';
}

/** The signed-in admin, or 401 (not signed in) / 403 forbidden (a member). */
export async function requireAdmin(request: FastifyRequest): Promise<Principal> {
  const principal = await requireUser(request);
  if ((await roleOf(request.server.database.db, principal.userId)) !== 'admin')
    throw forbidden('Only an administrator of this instance can do this.', 'forbidden');
  return principal;
}

/** `npm run admin -- set-role`: refuses to demote the last admin, which would lock the settings away. */
export async function setRole(db: Db, email: string, role: Role): Promise<{ email: string; role: Role }> {
  const address = email.trim().toLowerCase();
  return db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.email, address));
    if (!user) throw notFound(`No account with the e-mail ${address}`, 'user_not_found');
    if (role === 'member' && user.role === 'admin') {
      const [others] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(users)
        .where(and(eq(users.role, 'admin'), ne(users.id, user.id)));
      if ((others?.n ?? 0) === 0)
        throw unprocessable(`${address} is the only admin; make another account admin first.`, 'last_admin');
    }
    await tx.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, user.id));
    return { email: address, role };
  });
}
