import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { AiUsageSummary } from '../../shared/schemas/ai';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { aiUsage } from '../db/schema';
import { paymentRequired } from '../errors';
// Quotas follow the same rule as the document limits: enforced with billing or ENFORCE_PLAN_LIMITS=true.
import { aiTokenQuotaFor, getUserPlan, limitsEnforced } from './plan-limits';

/**
 * The AI usage ledger and monthly quotas. A row is written only after a call succeeded, so failed and
 * cancelled calls cost nothing. Usage is summed per user per calendar month (UTC).
 */

export function monthBounds(now = new Date()): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

export async function tokensUsedThisMonth(db: Db, userId: string, now = new Date()): Promise<number> {
  const { start, end } = monthBounds(now);
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${aiUsage.inputTokens} + ${aiUsage.outputTokens}), 0)` })
    .from(aiUsage)
    .where(and(eq(aiUsage.userId, userId), gte(aiUsage.createdAt, start), lt(aiUsage.createdAt, end)));
  return Number(row?.total ?? 0);
}

export async function usageSummary(db: Db, config: Config, userId: string): Promise<AiUsageSummary> {
  const [plan, used] = await Promise.all([getUserPlan(db, userId), tokensUsedThisMonth(db, userId)]);
  const limit = aiTokenQuotaFor(plan);
  const { start, end } = monthBounds();
  return {
    plan,
    used,
    limit,
    remaining: Math.max(0, limit - used),
    enforced: limitsEnforced(config),
    periodStart: start.toISOString(),
    periodEnd: end.toISOString(),
  };
}

/** Throws 402 quota_exceeded when limits are enforced and this month's allowance is used up. */
export async function assertWithinQuota(db: Db, config: Config, userId: string): Promise<void> {
  if (!limitsEnforced(config)) return;
  const summary = await usageSummary(db, config, userId);
  if (summary.used >= summary.limit) {
    throw paymentRequired(
      `You have used this month's ${summary.limit.toLocaleString('en-US')} AI tokens of your plan. Upgrade your plan for more.`,
      'quota_exceeded',
    );
  }
}

export interface UsageEntry {
  userId: string;
  documentId?: string | undefined;
  action: string;
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
}

export async function recordUsage(db: Db, entry: UsageEntry): Promise<void> {
  await db.insert(aiUsage).values({
    userId: entry.userId,
    documentId: entry.documentId ?? null,
    action: entry.action,
    provider: entry.provider,
    model: entry.model,
    inputTokens: Math.max(0, Math.round(entry.inputTokens)),
    outputTokens: Math.max(0, Math.round(entry.outputTokens)),
  });
}
