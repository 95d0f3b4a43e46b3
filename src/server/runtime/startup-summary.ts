import path from 'node:path';
import type { Config } from '../config';
import { providerHealth } from '../ai';
import { outboxDir } from '../mail';

export interface StartupSummary {
  /** One line for a person reading the terminal or the journal. */
  message: string;
  /** The same facts as fields, for JSON logs. */
  fields: Record<string, string>;
}

/** host:port/database of a connection URL: never its user name or password. */
function describeServerUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}

function relativeToCwd(dir: string): string {
  const relative = path.relative(process.cwd(), dir);
  return relative && !relative.startsWith('..') ? relative : dir;
}

/**
 * What the server runs with, each part on or off with the reason, so a self-hoster sees at a glance why mail
 * or AI does nothing. Secrets are never part of it: only whether they are set.
 */
export function startupSummary(
  config: Config,
  listeningUrl: string,
  /** The one-time setup code printed at start while the instance has no admin (accounts/instance-claim.ts). */
  setupCode?: string,
): StartupSummary {
  const database = config.DATABASE_URL
    ? `PostgreSQL at ${describeServerUrl(config.DATABASE_URL)}`
    : `embedded in ${relativeToCwd(path.join(config.DATA_DIR, 'pglite'))}`;

  const health = providerHealth(config);
  const ai = [
    health.openai
      ? `OpenAI on (${config.OPENAI_API_KEY ? 'OPENAI_API_KEY' : `OPENAI_BASE_URL ${config.OPENAI_BASE_URL}`})`
      : 'OpenAI off (no OPENAI_API_KEY)',
    health.anthropic ? 'Anthropic on (ANTHROPIC_API_KEY)' : 'Anthropic off (no ANTHROPIC_API_KEY)',
  ].join(', ');

  const mail = config.SMTP_URL
    ? `on (SMTP at ${describeServerUrl(config.SMTP_URL)})`
    : `off (no SMTP_URL: mails go to the log and ${relativeToCwd(outboxDir(config.DATA_DIR))})`;

  const billing = !config.STRIPE_SECRET_KEY
    ? `off (no STRIPE_SECRET_KEY)${config.ENFORCE_PLAN_LIMITS ? ', plan limits enforced' : ''}`
    : config.STRIPE_WEBHOOK_SECRET
      ? 'on (Stripe)'
      : 'on (Stripe) but no STRIPE_WEBHOOK_SECRET: payments are not confirmed';

  const collaboration = config.REDIS_URL
    ? `several instances through Redis at ${describeServerUrl(config.REDIS_URL)}`
    : 'this instance only (no REDIS_URL)';

  const images = config.S3_BUCKET
    ? `S3 bucket ${config.S3_BUCKET}${config.S3_ENDPOINT ? ` at ${describeServerUrl(config.S3_ENDPOINT)}` : ` (${config.S3_REGION})`}`
    : `on disk in ${relativeToCwd(path.join(config.DATA_DIR, 'images'))} (no S3_BUCKET)`;

  const metrics = config.METRICS_TOKEN
    ? 'on at /metrics (Prometheus, bearer METRICS_TOKEN)'
    : 'off (no METRICS_TOKEN)';

  const admin = setupCode
    ? `No admin yet: setup code ${setupCode} (sign up, then enter it in Account Settings → Profile)`
    : undefined;

  const fields: Record<string, string> = {
    url: config.APP_URL,
    listening: listeningUrl,
    database,
    ai,
    mail,
    billing,
    collaboration,
    images,
    metrics,
    ...(admin ? { admin } : {}),
  };
  const message =
    `Quillwright is running on ${config.APP_URL}\n` +
    `  database:      ${database}\n` +
    `  AI:            ${ai}\n` +
    `  mail:          ${mail}\n` +
    `  billing:       ${billing}\n` +
    `  collaboration: ${collaboration}\n` +
    `  images:        ${images}\n` +
    `  metrics:       ${metrics}` +
    (admin ? `\n  admin:         ${admin}` : '');
  return { message, fields };
}
