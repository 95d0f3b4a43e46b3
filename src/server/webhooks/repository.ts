import type { SqlRunner } from '../db/migrate';
import type { PageAfter } from '../pagination';
import type { Webhook, WebhookDelivery, WebhookEvent } from '../../shared/schemas/webhooks';

/** The only code that reads or writes webhooks and webhook_deliveries. */

interface WebhookRow {
  id: string;
  url: string;
  events: WebhookEvent[];
  created_at: Date | string;
  disabled_at: Date | string | null;
  consecutive_failures: number;
}

const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

function presentWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    createdAt: iso(row.created_at),
    disabledAt: isoOrNull(row.disabled_at),
    consecutiveFailures: Number(row.consecutive_failures),
  };
}

const WEBHOOK_COLUMNS = 'id, url, events, created_at, disabled_at, consecutive_failures';

export async function listWebhooks(exec: SqlRunner, userId: string): Promise<Webhook[]> {
  const rows = (await exec(
    `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE user_id = $1 ORDER BY created_at, id`,
    [userId],
  )) as WebhookRow[];
  return rows.map(presentWebhook);
}

export async function countWebhooks(exec: SqlRunner, userId: string): Promise<number> {
  const [row] = (await exec('SELECT count(*)::int AS n FROM webhooks WHERE user_id = $1', [userId])) as {
    n: number;
  }[];
  return Number(row?.n ?? 0);
}

export async function insertWebhook(
  exec: SqlRunner,
  userId: string,
  url: string,
  secretSealed: string,
  events: WebhookEvent[],
): Promise<Webhook> {
  const [row] = (await exec(
    `INSERT INTO webhooks (user_id, url, secret_sealed, events) VALUES ($1, $2, $3, $4::text[])
     RETURNING ${WEBHOOK_COLUMNS}`,
    [userId, url, secretSealed, events],
  )) as WebhookRow[];
  return presentWebhook(row!);
}

export async function deleteWebhook(exec: SqlRunner, userId: string, id: string): Promise<boolean> {
  const rows = await exec('DELETE FROM webhooks WHERE id = $1 AND user_id = $2 RETURNING id', [id, userId]);
  return rows.length > 0;
}

export async function enableWebhook(exec: SqlRunner, userId: string, id: string): Promise<Webhook | null> {
  const [row] = (await exec(
    `UPDATE webhooks SET disabled_at = NULL, consecutive_failures = 0 WHERE id = $1 AND user_id = $2
     RETURNING ${WEBHOOK_COLUMNS}`,
    [id, userId],
  )) as WebhookRow[];
  return row ? presentWebhook(row) : null;
}

export async function isWebhookOf(exec: SqlRunner, userId: string, id: string): Promise<boolean> {
  const rows = await exec('SELECT 1 FROM webhooks WHERE id = $1 AND user_id = $2', [id, userId]);
  return rows.length > 0;
}

interface DeliveryRow {
  id: string;
  event: WebhookEvent;
  document_id: string | null;
  status: WebhookDelivery['status'];
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  created_at: Date | string;
  delivered_at: Date | string | null;
  next_attempt_at: Date | string;
}

/**
 * `limit` deliveries of the webhook after `after`, newest first (ties by id), each with its place for the next
 * page's cursor (pagination.ts).
 */
export async function listDeliveries(
  exec: SqlRunner,
  webhookId: string,
  page: { limit: number; after: PageAfter | undefined },
): Promise<(WebhookDelivery & { place: PageAfter })[]> {
  const after = page.after
    ? `AND ((extract(epoch from created_at) * 1000000)::bigint, id) < ($3::bigint, $4::uuid)`
    : '';
  const rows = (await exec(
    `SELECT id, event, document_id, status, attempts, last_status, last_error, created_at, delivered_at,
            next_attempt_at, (extract(epoch from created_at) * 1000000)::bigint::text AS place
     FROM webhook_deliveries WHERE webhook_id = $1 ${after} ORDER BY created_at DESC, id DESC LIMIT $2`,
    page.after ? [webhookId, page.limit, page.after.at, page.after.key] : [webhookId, page.limit],
  )) as (DeliveryRow & { place: string })[];
  return rows.map((row) => ({
    place: { at: row.place, key: row.id },
    id: row.id,
    event: row.event,
    documentId: row.document_id,
    status: row.status,
    attempts: Number(row.attempts),
    lastStatus: row.last_status,
    lastError: row.last_error,
    createdAt: iso(row.created_at),
    deliveredAt: isoOrNull(row.delivered_at),
    nextAttemptAt: row.status === 'pending' ? iso(row.next_attempt_at) : null,
  }));
}

/**
 * Queues `event` for each enabled webhook of `userId` that listens to it, due after `delayMs`. A
 * `document.updated` for a webhook that already has one waiting, not yet tried, for this document adds nothing
 * (a unique index decides, so two instances reporting at once still queue one): that delivery announces every
 * change made meanwhile.
 */
export async function queueEvent(
  exec: SqlRunner,
  /** The document's owner, or null to read it from the document's row (one statement either way). */
  userId: string | null,
  event: WebhookEvent,
  documentId: string,
  delayMs = 0,
): Promise<number> {
  const rows = await exec(
    `INSERT INTO webhook_deliveries (webhook_id, event, document_id, next_attempt_at)
     SELECT w.id, $2, $3, now() + ($4::int * interval '1 millisecond')
     FROM webhooks w
     WHERE w.user_id = coalesce($1::uuid, (SELECT user_id FROM documents WHERE id = $3))
       AND w.disabled_at IS NULL AND $2 = ANY (w.events)
     ON CONFLICT DO NOTHING
     RETURNING id`,
    [userId, event, documentId, delayMs],
  );
  return rows.length;
}

export interface DueDelivery {
  id: string;
  webhookId: string;
  userId: string;
  url: string;
  secretSealed: string;
  event: WebhookEvent;
  documentId: string | null;
  attempts: number;
  createdAt: Date;
}

/**
 * Takes up to `limit` due deliveries and leases them for `leaseMs` (their next attempt moves past the lease), so
 * another instance's sender does not take them meanwhile; a sender that dies leaves them to be retried then.
 */
export async function claimDueDeliveries(
  exec: SqlRunner,
  limit: number,
  leaseMs: number,
): Promise<DueDelivery[]> {
  const rows = (await exec(
    `UPDATE webhook_deliveries d SET next_attempt_at = now() + ($2::int * interval '1 millisecond')
     FROM webhooks w
     WHERE d.id IN (
         SELECT id FROM webhook_deliveries
         WHERE status = 'pending' AND next_attempt_at <= now()
         ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       AND w.id = d.webhook_id
     RETURNING d.id, d.webhook_id, w.user_id, w.url, w.secret_sealed, w.disabled_at, d.event, d.document_id,
               d.attempts, d.created_at`,
    [limit, leaseMs],
  )) as {
    id: string;
    webhook_id: string;
    user_id: string;
    url: string;
    secret_sealed: string;
    disabled_at: Date | string | null;
    event: WebhookEvent;
    document_id: string | null;
    attempts: number;
    created_at: Date | string;
  }[];
  return rows
    .filter((row) => row.disabled_at === null)
    .map((row) => ({
      id: row.id,
      webhookId: row.webhook_id,
      userId: row.user_id,
      url: row.url,
      secretSealed: row.secret_sealed,
      event: row.event,
      documentId: row.document_id,
      attempts: Number(row.attempts),
      createdAt: new Date(row.created_at),
    }));
}

export async function markDelivered(exec: SqlRunner, delivery: DueDelivery, status: number): Promise<void> {
  await exec(
    `UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, last_status = $2,
       last_error = NULL, delivered_at = now() WHERE id = $1`,
    [delivery.id, status],
  );
  await exec('UPDATE webhooks SET consecutive_failures = 0 WHERE id = $1', [delivery.webhookId]);
}

/**
 * Records a failed attempt: retried after `retryInMs`, or, with none, failed for good, which counts against the
 * webhook; at `disableAfter` failures in a row the webhook is disabled and its waiting deliveries fail too.
 */
export async function markAttemptFailed(
  exec: SqlRunner,
  delivery: DueDelivery,
  failure: { status: number | null; error: string },
  retryInMs: number | null,
  disableAfter: number,
): Promise<{ disabled: boolean }> {
  if (retryInMs !== null) {
    await exec(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, last_status = $2, last_error = $3,
         next_attempt_at = now() + ($4::int * interval '1 millisecond') WHERE id = $1`,
      [delivery.id, failure.status, failure.error, retryInMs],
    );
    return { disabled: false };
  }
  await exec(
    `UPDATE webhook_deliveries SET status = 'failed', attempts = attempts + 1, last_status = $2, last_error = $3
     WHERE id = $1`,
    [delivery.id, failure.status, failure.error],
  );
  const [webhook] = (await exec(
    `UPDATE webhooks SET consecutive_failures = consecutive_failures + 1,
       disabled_at = CASE WHEN consecutive_failures + 1 >= $2 THEN now() ELSE disabled_at END
     WHERE id = $1 RETURNING disabled_at`,
    [delivery.webhookId, disableAfter],
  )) as { disabled_at: Date | string | null }[];
  const disabled = Boolean(webhook?.disabled_at);
  if (disabled) {
    await exec(
      `UPDATE webhook_deliveries SET status = 'failed', last_error = 'The webhook was disabled.'
       WHERE webhook_id = $1 AND status = 'pending'`,
      [delivery.webhookId],
    );
  }
  return { disabled };
}
