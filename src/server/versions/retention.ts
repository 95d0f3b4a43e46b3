import type { Db } from '../db/client';
import { PLANS } from '../../shared/plans';
import { pruneExpiredVersions } from './repository';

/**
 * Retention by plan (shared/plans.ts `versionRetentionDays`): Gratis 7 days, Creator 90, Professional
 * forever. Named versions and the newest version of each document are always kept; a deleted document's
 * versions go with it (foreign key).
 */
const RETENTION_DAYS = new Map(
  PLANS.flatMap((plan) =>
    plan.limits.versionRetentionDays === null ? [] : [[plan.id, plan.limits.versionRetentionDays] as const],
  ),
);

/** How often every document's expired versions are swept (each new version also prunes its document). */
export const RETENTION_SWEEP_INTERVAL_MS = 60 * 60_000;

/** Deletes expired versions of one document, or of all documents. Returns how many. */
export function pruneVersions(db: Db, now: Date, documentId?: string): Promise<number> {
  return pruneExpiredVersions(db, RETENTION_DAYS, now, documentId);
}
