import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AiUsageSummary } from '../../shared/schemas/ai';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { aiUsage } from '../db/schema';
import { paymentRequired } from '../errors';
// Quotas follow the same rule as the document limits: enforced with billing or ENFORCE_PLAN_LIMITS=true.
import { aiTokenQuotaFor, getUserPlan, limitsEnforced } from '../billing';

/**
 * The AI usage ledger and monthly quotas. A row is recorded only after a call succeeded, so failed and
 * cancelled calls cost nothing. Usage is summed per user per calendar month (UTC).
 */

function monthBounds(now = new Date()): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

export async function tokensUsedThisMonth(db: Db, userId: string, now = new Date()): Promise<number> {
  const { start, end } = monthBounds(now);
  return usageLedger(db).measure(
    async () => {
      const [row] = await db
        .select({ total: sql<string>`coalesce(sum(${aiUsage.inputTokens} + ${aiUsage.outputTokens}), 0)` })
        .from(aiUsage)
        .where(and(eq(aiUsage.userId, userId), gte(aiUsage.createdAt, start), lt(aiUsage.createdAt, end)));
      return Number(row?.total ?? 0);
    },
    userId,
    start,
    end,
  );
}

/**
 * The instance's AI allowance when no billing applies (AI settings; admins unlimited by default). Without
 * it, `usageSummary` falls back to the plan quota, enforced only with billing or ENFORCE_PLAN_LIMITS.
 */
export interface InstanceAllowance {
  monthlyTokensPerUser: number;
  adminsUnlimited: boolean;
  /** Whether the user asking is an admin. */
  isAdmin: boolean;
}

export async function usageSummary(
  db: Db,
  config: Config,
  userId: string,
  allowance?: InstanceAllowance,
): Promise<AiUsageSummary> {
  const [plan, used] = await Promise.all([getUserPlan(db, userId), tokensUsedThisMonth(db, userId)]);
  const { start, end } = monthBounds();
  const billing = limitsEnforced(config);
  const unlimited = !billing && allowance !== undefined && allowance.isAdmin && allowance.adminsUnlimited;
  const limit = billing || !allowance ? aiTokenQuotaFor(plan) : allowance.monthlyTokensPerUser;
  return {
    plan,
    used,
    limit,
    remaining: Math.max(0, limit - used),
    enforced: billing || (allowance !== undefined && !unlimited),
    unlimited,
    periodStart: start.toISOString(),
    periodEnd: end.toISOString(),
  };
}

const RESET_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** Throws 402 quota_exceeded, naming the reset date, when this month's tokens are used up. */
export async function assertWithinQuota(
  db: Db,
  config: Config,
  userId: string,
  allowance?: InstanceAllowance,
): Promise<void> {
  const summary = await usageSummary(db, config, userId, allowance);
  if (!summary.enforced || summary.used < summary.limit) return;
  const resets = RESET_DATE.format(new Date(summary.periodEnd));
  const limit = summary.limit.toLocaleString('en-US');
  throw paymentRequired(
    limitsEnforced(config)
      ? `You have used this month's ${limit} AI tokens of your plan. Upgrade your plan for more, or wait until it resets on ${resets}.`
      : `You have used this month's ${limit} AI tokens. Your allowance resets on ${resets}.`,
    'quota_exceeded',
    { resets_at: summary.periodEnd, upgradable: limitsEnforced(config) },
  );
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

/**
 * Ledger rows wait up to this long and are then written together in one statement: with many writers
 * streaming at once, one insert per answer was a noticeable share of the server's CPU per answer
 * (bench:ai). Pending rows count towards quotas and the usage summary as if written; a crash loses at
 * most this window of metering, never a writer's text.
 */
const USAGE_FLUSH_DELAY_MS = 250;

type LedgerRow = typeof aiUsage.$inferInsert;

/**
 * Reads of the ledger and writes of its batches exclude each other, so a read sees every row exactly once:
 * either stored (read from the database) or still pending (counted from memory). Without it a batch
 * being written was in neither place for the length of its INSERT, and a quota check in that window let
 * a writer past the allowance. Writes wait for running reads; reads that arrive while a write waits
 * queue behind it, so a steady stream of reads cannot hold metering back.
 */
class UsageLedger {
  private pending: (LedgerRow & { createdAt: Date })[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** The last queued write (each waits for the one before). */
  private writes: Promise<void> = Promise.resolve();
  private writesQueued = 0;
  private readers = 0;
  private whenNoReaders: (() => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly log: Pick<FastifyBaseLogger, 'error'>,
  ) {}

  record(entry: UsageEntry): void {
    this.pending.push({
      userId: entry.userId,
      documentId: entry.documentId ?? null,
      action: entry.action,
      provider: entry.provider,
      model: entry.model,
      inputTokens: Math.max(0, Math.round(entry.inputTokens)),
      outputTokens: Math.max(0, Math.round(entry.outputTokens)),
      createdAt: new Date(),
    });
    this.timer ??= setTimeout(() => void this.flush(), USAGE_FLUSH_DELAY_MS);
  }

  /** `stored` (a database read) plus the user's rows not yet written, with no write in between. */
  async measure(stored: () => Promise<number>, userId: string, start: Date, end: Date): Promise<number> {
    while (this.writesQueued > 0) await this.writes;
    this.readers++;
    try {
      const total = await stored();
      return total + this.pendingTokens(userId, start, end);
    } finally {
      this.readers--;
      if (this.readers === 0) for (const wake of this.whenNoReaders.splice(0)) wake();
    }
  }

  private pendingTokens(userId: string, start: Date, end: Date): number {
    let total = 0;
    for (const row of this.pending) {
      if (row.userId === userId && row.createdAt >= start && row.createdAt < end)
        total += (row.inputTokens ?? 0) + (row.outputTokens ?? 0);
    }
    return total;
  }

  /** Writes what is pending; resolves once every row recorded before the call is stored (or reported). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.writesQueued++;
    this.writes = this.writes.then(async () => {
      try {
        if (this.readers > 0) await new Promise<void>((wake) => this.whenNoReaders.push(wake));
        // Taken only now, so rows stay counted from memory until the moment their INSERT starts.
        const batch = this.pending;
        this.pending = [];
        if (batch.length > 0) await this.write(batch);
      } finally {
        this.writesQueued--;
      }
    });
    return this.writes;
  }

  private async write(batch: LedgerRow[]): Promise<void> {
    try {
      await this.db.insert(aiUsage).values(batch);
    } catch {
      // One bad row (its document deleted meanwhile) must not cost the others their record.
      for (const row of batch) {
        try {
          await this.db.insert(aiUsage).values(row);
        } catch (error) {
          this.log.error({ err: error, action: row.action }, 'failed to record AI usage');
        }
      }
    }
  }
}

const ledgers = new WeakMap<Db, UsageLedger>();

/** The ledger of one database (one per server process and database). */
export function usageLedger(db: Db, log: Pick<FastifyBaseLogger, 'error'> = console): UsageLedger {
  let ledger = ledgers.get(db);
  if (!ledger) {
    ledger = new UsageLedger(db, log);
    ledgers.set(db, ledger);
  }
  return ledger;
}
