import { createHmac, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import {
  WEBHOOK_DISABLE_AFTER_FAILURES,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOKS_PER_USER,
  WEBHOOK_TIMEOUT_MS,
  WEBHOOK_UPDATE_DEBOUNCE_MS,
} from '../../shared/constants';
import type { Webhook, WebhookDelivery, WebhookEvent, WebhookInput } from '../../shared/schemas/webhooks';
import type { SqlRunner } from '../db/migrate';
import type { DocumentEvents } from '../documents';
import { badRequest, conflict, notFound } from '../errors';
import { pageOf, type PageRequest } from '../pagination';
import { outboundFailureMessage, refusalOf, type OutboundClient } from '../outbound';
import type { SecretBox } from '../secret-box';
import {
  claimDueDeliveries,
  countWebhooks,
  deleteWebhook,
  enableWebhook,
  insertWebhook,
  isWebhookOf,
  listDeliveries,
  listWebhooks,
  markAttemptFailed,
  markDelivered,
  queueEvent,
  type DueDelivery,
} from './repository';

const WEBHOOK_SIGNATURE_HEADER = 'quillwright-signature';

/** `t=<unix seconds>,v1=<hex HMAC-SHA-256 of "<t>.<body>">`, as docs/webhooks.md tells a receiver to check. */
function signatureHeader(secret: string, body: string, timestampSeconds: number): string {
  const digest = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${digest}`;
}

export interface WebhookContext {
  exec: SqlRunner;
  box: SecretBox;
  outbound: OutboundClient;
  /** WEBHOOK_RETRY_DELAYS_MS unless given (tests retry at once). */
  retryDelaysMs?: readonly number[];
}

/**
 * The address must be one the server may send to: an IP literal, or a host that resolves, outside the
 * private, loopback and link-local ranges unless the operator opened them (OUTBOUND_ALLOWED_HOSTS). Checked
 * again at every delivery, since a host's addresses can change.
 */
async function assertDeliverable(context: WebhookContext, url: string): Promise<void> {
  const parsed = new URL(url);
  const hostname = parsed.hostname.replace(/^\[|\]$/g, '');
  const port = Number(parsed.port) || (parsed.protocol === 'https:' ? 443 : 80);
  let addresses: string[];
  if (isIP(hostname)) addresses = [hostname];
  else {
    try {
      addresses = (await context.outbound.policy.resolve(hostname)).map((found) => found.address);
    } catch {
      // Not resolvable now: deliveries will be tried, and fail, until it is.
      return;
    }
  }
  if (addresses.some((address) => !refusalOf(context.outbound.policy, hostname, address, port))) return;
  throw badRequest(
    'This address is not allowed: private, loopback and link-local addresses are refused unless listed in ' +
      'OUTBOUND_ALLOWED_HOSTS.',
    'webhook_url_refused',
  );
}

export async function webhooksOf(context: WebhookContext, userId: string): Promise<Webhook[]> {
  return listWebhooks(context.exec, userId);
}

/** Creates the webhook; its signing secret is returned here once and never again. */
export async function createWebhook(
  context: WebhookContext,
  userId: string,
  input: WebhookInput,
): Promise<{ webhook: Webhook; secret: string }> {
  if ((await countWebhooks(context.exec, userId)) >= WEBHOOKS_PER_USER) {
    throw conflict(`You can have at most ${WEBHOOKS_PER_USER} webhooks.`, 'webhook_limit');
  }
  await assertDeliverable(context, input.url);
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  const webhook = await insertWebhook(
    context.exec,
    userId,
    input.url,
    context.box.seal(secret),
    input.events,
  );
  return { webhook, secret };
}

export async function removeWebhook(context: WebhookContext, userId: string, id: string): Promise<void> {
  if (!(await deleteWebhook(context.exec, userId, id))) throw webhookNotFound();
}

export async function reenableWebhook(context: WebhookContext, userId: string, id: string): Promise<Webhook> {
  const webhook = await enableWebhook(context.exec, userId, id);
  if (!webhook) throw webhookNotFound();
  return webhook;
}

/** A page of the webhook's deliveries, newest first, and the cursor of the next page. */
export async function deliveriesOf(
  context: WebhookContext,
  userId: string,
  id: string,
  page: PageRequest,
): Promise<{ deliveries: WebhookDelivery[]; next: string | undefined }> {
  if (!(await isWebhookOf(context.exec, userId, id))) throw webhookNotFound();
  const rows = await listDeliveries(context.exec, id, { limit: page.limit + 1, after: page.after });
  const { rows: pageRows, next } = pageOf(rows, page.limit, (row) => row.place);
  return { deliveries: pageRows.map(({ place: _place, ...delivery }) => delivery), next };
}

function webhookNotFound() {
  return notFound('Webhook not found', 'webhook_not_found');
}

/**
 * Turns the document events into queued deliveries for the owner's webhooks (one statement per event, which
 * queues nothing for a user without webhooks). Changes to content and title are announced once per burst
 * (`document.updated`, after WEBHOOK_UPDATE_DEBOUNCE_MS).
 */
export function queueDocumentEvents(
  exec: SqlRunner,
  events: DocumentEvents,
  onError: (error: unknown) => void,
  updateDebounceMs = WEBHOOK_UPDATE_DEBOUNCE_MS,
): () => void {
  const queue = (userId: string | null, event: WebhookEvent, documentId: string, delayMs = 0) => {
    queueEvent(exec, userId, event, documentId, delayMs).catch(onError);
  };
  const unsubscribe = [
    events.on('created', (event) => queue(event.userId, 'document.created', event.documentId)),
    events.on('content.changed', (event) =>
      queue(null, 'document.updated', event.documentId, updateDebounceMs),
    ),
    events.on('title.changed', (event) =>
      queue(event.userId, 'document.updated', event.documentId, updateDebounceMs),
    ),
    events.on('trashed', (event) => queue(event.userId, 'document.trashed', event.documentId)),
    events.on('restored', (event) => queue(event.userId, 'document.restored', event.documentId)),
    events.on('deleted', (event) => queue(event.userId, 'document.deleted', event.documentId)),
    events.on('comments.changed', (event) => {
      if (event.created) queue(null, 'comment.created', event.documentId);
    }),
  ];
  return () => unsubscribe.forEach((stop) => stop());
}

/** What a receiver gets: which event, when, and which document (its content is read through the API). */
function payloadOf(delivery: DueDelivery): string {
  return JSON.stringify({
    id: delivery.id,
    type: delivery.event,
    createdAt: delivery.createdAt.toISOString(),
    data: { documentId: delivery.documentId },
  });
}

async function attempt(
  context: WebhookContext,
  delivery: DueDelivery,
): Promise<{ ok: true; status: number } | { ok: false; status: number | null; error: string }> {
  const body = payloadOf(delivery);
  let secret: string;
  try {
    secret = context.box.open(delivery.secretSealed);
  } catch {
    return { ok: false, status: null, error: 'The signing secret cannot be read with this ENCRYPTION_KEY.' };
  }
  try {
    const response = await context.outbound.fetch(delivery.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Quillwright-Webhooks',
        'quillwright-event': delivery.event,
        'quillwright-delivery': delivery.id,
        [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(secret, body, Math.floor(Date.now() / 1000)),
      },
      body,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
    });
    // The receiver's words are not kept: only its status.
    await response.body?.cancel().catch(() => {});
    if (response.ok) return { ok: true, status: response.status };
    return { ok: false, status: response.status, error: `The receiver answered ${response.status}.` };
  } catch (error) {
    return { ok: false, status: null, error: outboundFailureMessage(error) };
  }
}

/** Sends what is due, once; returns how many deliveries were attempted. */
export async function sendDueDeliveries(context: WebhookContext, batch = 20): Promise<number> {
  const due = await claimDueDeliveries(context.exec, batch, WEBHOOK_TIMEOUT_MS * 3);
  await Promise.all(
    due.map(async (delivery) => {
      const result = await attempt(context, delivery);
      if (result.ok) return markDelivered(context.exec, delivery, result.status);
      const retryInMs = (context.retryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS)[delivery.attempts] ?? null;
      await markAttemptFailed(
        context.exec,
        delivery,
        { status: result.status, error: result.error },
        retryInMs,
        WEBHOOK_DISABLE_AFTER_FAILURES,
      );
    }),
  );
  return due.length;
}
