import type { FastifyInstance } from 'fastify';
import type { ServerDependencies } from '../dependencies';
import { notificationDigestMail } from '../mail';
import {
  NOTIFICATION_DIGEST_CHECK_MS,
  NOTIFICATION_DIGEST_DELAY_MS,
  NOTIFICATION_DIGEST_INTERVAL_MS,
} from '../../shared/notifications';
import {
  claimDigestTurn,
  findConfirmedAddress,
  findDigestRecipients,
  passOverUnmailable,
  takeDigestRows,
  type NotificationRow,
} from './repository';

/**
 * The e-mail digest (docs/notifications.md): notifications still unread NOTIFICATION_DIGEST_DELAY_MS after they
 * were made, not mailed yet, go to the person in one mail, at most one per NOTIFICATION_DIGEST_INTERVAL_MS.
 * Safe with several instances: a person's turn and each row are taken by conditional writes, so only the
 * instance that took them sends them.
 */

export type DigestContext = Pick<ServerDependencies, 'db' | 'config' | 'mailer' | 'log'>;

/** People looked at per run; the rest wait for the next. */
const DIGEST_BATCH = 200;

const ACTIONS: Record<NotificationRow['kind'], string> = {
  mention: 'mentioned you in',
  reply: 'replied in a thread in',
  comment: 'commented on',
};

const lineOf = (row: NotificationRow) =>
  `${row.actorName} ${ACTIONS[row.kind]} “${row.documentTitle}”: “${row.excerpt}”`;

/** One run: returns how many digests this instance sent. `now` is for tests. */
export async function sendDigests(ctx: DigestContext, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - NOTIFICATION_DIGEST_DELAY_MS);
  const notBefore = new Date(now.getTime() - NOTIFICATION_DIGEST_INTERVAL_MS);
  await passOverUnmailable(ctx.db, cutoff);
  let sent = 0;
  for (const userId of await findDigestRecipients(ctx.db, cutoff, DIGEST_BATCH)) {
    if (!(await claimDigestTurn(ctx.db, userId, now, notBefore))) continue;
    const rows = await takeDigestRows(ctx.db, userId, cutoff);
    const to = await findConfirmedAddress(ctx.db, userId);
    if (rows.length === 0 || !to) continue;
    ctx.mailer.send(notificationDigestMail(to, rows.map(lineOf), `${ctx.config.APP_URL}/`));
    sent += 1;
  }
  return sent;
}

/** Runs the digest every NOTIFICATION_DIGEST_CHECK_MS on this instance, and lets a run finish on shutdown. */
export function registerNotificationDigest(app: FastifyInstance): void {
  const log = app.log.child({ module: 'notifications' });
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = sendDigests(app.deps)
      .then((sent) => {
        if (sent > 0) log.info({ sent }, 'sent notification digests');
      })
      .catch((error: unknown) => log.warn({ err: error }, 'notification digest failed'));
  };
  const timer = setInterval(run, NOTIFICATION_DIGEST_CHECK_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
