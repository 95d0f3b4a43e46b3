import type { FastifyInstance } from 'fastify';
import { WEBHOOK_POLL_INTERVAL_MS } from '../../shared/constants';
import { OutboundClient, outboundPolicyFromConfig } from '../outbound';
import { SecretBox, encryptionSecret } from '../secret-box';
import { webhookRoutes } from './routes';
import { queueDocumentEvents, sendDueDeliveries, type WebhookContext } from './service';

/** What other folders may use from webhooks (registerWebhooks, its options); the rest is its own business. */
export interface WebhookOptions {
  /** Tests: retry at once, announce updates without waiting, look for due deliveries more often. */
  retryDelaysMs?: readonly number[];
  updateDebounceMs?: number;
  pollIntervalMs?: number;
}

/**
 * Webhooks: the routes under /api/webhooks, the queue fed by the document events, and the sender, which looks
 * for due deliveries every second on every instance (a delivery is taken by one of them).
 */
export async function registerWebhooks(app: FastifyInstance, options: WebhookOptions = {}): Promise<void> {
  const { config, database, documentEvents } = app.deps;
  const log = app.log.child({ module: 'webhooks' });
  const context: WebhookContext = {
    exec: database.exec,
    box: new SecretBox(encryptionSecret(config.DATA_DIR, config.ENCRYPTION_KEY), 'webhook-secrets'),
    outbound: new OutboundClient(outboundPolicyFromConfig(config)),
    ...(options.retryDelaysMs && { retryDelaysMs: options.retryDelaysMs }),
  };
  await app.register(webhookRoutes, { prefix: '/api/webhooks', context });

  const stopQueueing = queueDocumentEvents(
    context.exec,
    documentEvents,
    (error) => log.warn({ err: error }, 'could not queue a webhook delivery'),
    options.updateDebounceMs,
  );
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  const send = () => {
    if (busy) return;
    busy = true;
    running = sendDueDeliveries(context)
      .catch((error: unknown) => log.warn({ err: error }, 'webhook sending failed'))
      .finally(() => (busy = false));
  };
  const timer = setInterval(send, options.pollIntervalMs ?? WEBHOOK_POLL_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    stopQueueing();
    // The database closes after this hook: let a round under way finish first.
    await running;
    await context.outbound.close();
  });
}
