import { eq } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { countDocumentsOf, type DocumentCreationCheck } from '../documents';
import { AppError } from '../errors';
import { isPlanId, planById, type PlanDefinition, type PlanId } from '../../shared/plans';

/**
 * The plan rules every area shares. users.plan is the effective plan (kept up to date by the billing
 * service from verified Stripe events and administrator grants); limits apply only when this server
 * sells plans (STRIPE_SECRET_KEY) or the operator asks for them (ENFORCE_PLAN_LIMITS=true). A
 * self-hosted instance without billing has nothing to sell, so by default it caps no one.
 */

/** A Drizzle database or transaction: both have the query builder the checks use. */
export type Queryable = Pick<Db, 'select' | 'execute'>;

export function limitsEnforced(config: Pick<Config, 'STRIPE_SECRET_KEY' | 'ENFORCE_PLAN_LIMITS'>): boolean {
  return Boolean(config.STRIPE_SECRET_KEY) || config.ENFORCE_PLAN_LIMITS;
}

export function planOf(value: string | null | undefined): PlanId {
  return value && isPlanId(value) ? value : 'gratis';
}

/** The user's effective plan (gratis for an unknown user or value). */
export async function getUserPlan(db: Queryable, userId: string): Promise<PlanId> {
  const [row] = await db.select({ plan: users.plan }).from(users).where(eq(users.id, userId)).limit(1);
  return planOf(row?.plan);
}

/**
 * Monthly AI token allowance of a plan (or of a user row with a `plan`). The AI service compares its
 * usage against this when `limitsEnforced(config)`; otherwise nobody is capped.
 */
export function aiTokenQuotaFor(subject: PlanId | { plan: string }): number {
  const plan = typeof subject === 'string' ? subject : planOf(subject.plan);
  return planById(plan).limits.aiTokensPerMonth;
}

/** The user's monthly AI token quota on this server: null when limits are not enforced (unlimited). */
export async function aiTokenQuotaForUser(
  deps: { config: Config; db: Queryable },
  userId: string,
): Promise<number | null> {
  if (!limitsEnforced(deps.config)) return null;
  return aiTokenQuotaFor(await getUserPlan(deps.db, userId));
}

function planLimitMessage(plan: PlanDefinition): string {
  return (
    `You've reached the limit of ${plan.limits.documents} documents on the ${plan.name} plan. ` +
    'Upgrade your plan to create more documents.'
  );
}

/**
 * Refuses a new document (or `adding` of them, a restored folder's) beyond the plan's count with 403 `plan_limit` (extra: plan, limit, upgradeUrl).
 * Existing documents are never touched: after a downgrade, documents over the limit stay readable and
 * editable, only new ones are refused. Documents runs it on every create (planLimitCheck); when called
 * inside the creating transaction, the row lock on the user serializes concurrent creates.
 */
export async function assertCanCreateDocument(
  deps: { config: Pick<Config, 'STRIPE_SECRET_KEY' | 'ENFORCE_PLAN_LIMITS'>; db: Queryable },
  userId: string,
  adding = 1,
): Promise<void> {
  if (!limitsEnforced(deps.config)) return;
  const [user] = await deps.db
    .select({ plan: users.plan })
    .from(users)
    .where(eq(users.id, userId))
    .for('update')
    .limit(1);
  const plan = planById(planOf(user?.plan));
  const limit = plan.limits.documents;
  if (limit === null) return;
  const owned = Number(await countDocumentsOf(deps.db, userId));
  if (owned + adding > limit) {
    throw new AppError(403, 'plan_limit', planLimitMessage(plan), {
      plan: plan.id,
      limit,
      upgradeUrl: '/#pricing',
    });
  }
}

/** The plan limits as documents' creation check (app.ts hands it to documents through ServerDependencies). */
export function planLimitCheck(
  config: Pick<Config, 'STRIPE_SECRET_KEY' | 'ENFORCE_PLAN_LIMITS'>,
): DocumentCreationCheck {
  return {
    applies: limitsEnforced(config),
    assertMayCreate: (db, userId, adding) => assertCanCreateDocument({ config, db }, userId, adding),
  };
}
