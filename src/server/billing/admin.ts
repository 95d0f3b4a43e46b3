import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { billingAccounts, subscriptions, users } from '../db/schema';
import { countDocumentsByUser } from '../documents';
import { notFound } from '../errors';
import { isPlanId, type PlanId } from '../../shared/plans';
import { planOf } from './plan-limits';
import { recomputeUserPlan } from './subscriptions';

/** Administration (`npm run admin`, scripts/admin.ts): granted plans and the user list. */

export interface AdminUserRow {
  email: string;
  plan: PlanId;
  grantedPlan: PlanId | null;
  subscription: string | null;
  documents: number;
  createdAt: Date;
}

/**
 * Grants a plan without Stripe. 'gratis' removes the grant; the effective plan is still the higher of
 * the grant and any live subscription (an administrator cannot take away what a customer pays for).
 */
export async function setGrantedPlan(
  db: Db,
  email: string,
  plan: PlanId,
): Promise<{ email: string; plan: PlanId; grantedPlan: PlanId | null }> {
  const normalized = email.trim().toLowerCase();
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(eq(users.email, normalized))
      .for('update')
      .limit(1);
    if (!user) throw notFound(`No user with e-mail ${normalized}`, 'user_not_found');
    const grantedPlan = plan === 'gratis' ? null : plan;
    await tx
      .insert(billingAccounts)
      .values({ userId: user.id, grantedPlan })
      .onConflictDoUpdate({ target: billingAccounts.userId, set: { grantedPlan, updatedAt: new Date() } });
    const effective = await recomputeUserPlan(tx, user.id);
    return { email: user.email, plan: effective, grantedPlan };
  });
}

export async function listUsersForAdmin(db: Db): Promise<AdminUserRow[]> {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      plan: users.plan,
      createdAt: users.createdAt,
      grantedPlan: billingAccounts.grantedPlan,
    })
    .from(users)
    .leftJoin(billingAccounts, eq(billingAccounts.userId, users.id))
    .orderBy(users.createdAt);
  const docsBy = await countDocumentsByUser(db);
  const subs = await db
    .select({ userId: subscriptions.userId, status: subscriptions.status, plan: subscriptions.plan })
    .from(subscriptions)
    .orderBy(desc(subscriptions.stateAsOf));
  const subBy = new Map<string, string>();
  for (const s of subs) if (!subBy.has(s.userId)) subBy.set(s.userId, `${s.plan} (${s.status})`);
  return rows.map((r) => ({
    email: r.email,
    plan: planOf(r.plan),
    grantedPlan: r.grantedPlan && isPlanId(r.grantedPlan) ? r.grantedPlan : null,
    subscription: subBy.get(r.id) ?? null,
    documents: Number(docsBy.get(r.id) ?? 0),
    createdAt: r.createdAt,
  }));
}
