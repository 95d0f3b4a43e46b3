import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { TRASH_RETENTION_DAYS_DEFAULT } from '../shared/constants';

/**
 * Every environment variable the server reads, parsed once at start with zod.
 * A bad value stops the server with a message naming the variable. Keep README's table and
 * `.env.example` in step with this list.
 */
const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.url().optional());

const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/** Settings that mean nothing without S3_BUCKET (S3_REGION has a default, S3_FORCE_PATH_STYLE is a flag). */
const S3_SETTINGS = ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_PREFIX'] as const;

const envSchema = z
  .object({
    /** TCP port for API, web app and collaboration socket. */
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /** Interface to listen on. */
    HOST: z.string().default('0.0.0.0'),
    /** Embedded database files, generated secrets and the mail outbox live here. */
    DATA_DIR: z.string().default('./data'),
    /** postgres://… to use PostgreSQL instead of the embedded PGlite database. */
    DATABASE_URL: optionalUrl,
    /** Public origin of the app, used in e-mailed links and payment redirects. */
    APP_URL: optionalUrl,
    /** Secret for signing access tokens. Generated once into DATA_DIR when absent; set it for several instances. */
    JWT_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    /** smtp://user:pass@host:port or smtps://… ; without it mails go to the log and DATA_DIR/outbox. */
    SMTP_URL: optionalUrl,
    /** Sender address of e-mails. */
    MAIL_FROM: z.string().default('Quillwright <no-reply@localhost>'),
    /** The account with this e-mail becomes an instance admin once its address is confirmed (docs/accounts.md). */
    ADMIN_EMAIL: optionalString.pipe(z.string().trim().toLowerCase().pipe(z.email()).optional()),
    /** Largest accepted request body in bytes. */
    MAX_BODY_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(5 * 1024 * 1024),
    /** Days a deleted document stays in the trash (restorable) before it is deleted for good. */
    TRASH_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(TRASH_RETENTION_DAYS_DEFAULT),
    /** pino log level. */
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** `json` lines, or `pretty` lines for people; by default pretty on a terminal and JSON otherwise. */
    LOG_FORMAT: z.enum(['auto', 'json', 'pretty', '']).default('auto'),
    /**
     * On SIGTERM/SIGINT, seconds during which /api/health answers 503 while requests are still served, so a load
     * balancer stops sending before the server closes. 0 (one instance, no balancer) closes at once.
     */
    SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(8).default(0),
    /**
     * The hard deadline of a stop, drain included: past it the server logs what was still pending and exits with
     * code 1. Keep it below the supervisor's own (Docker waits 10 s before SIGKILL, systemd 90 s).
     */
    SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(1).max(600).default(10),
    /** Set when behind a reverse proxy so client IPs (rate limits) come from X-Forwarded-For. */
    TRUST_PROXY: booleanFlag.default(false),
    /**
     * Comma-separated origins (https://write.example.com) besides the server's own and APP_URL's whose pages may
     * open the collaboration socket. A browser sends its page's origin with every WebSocket; others are refused.
     */
    ALLOWED_ORIGINS: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.url().transform((url) => new URL(url).origin))),
    /** Adds includeSubDomains to Strict-Transport-Security (sent over HTTPS only): every subdomain must be HTTPS. */
    HSTS_INCLUDE_SUBDOMAINS: booleanFlag.default(false),
    /** redis://… to share live documents between several server instances. */
    REDIS_URL: optionalUrl,
    /** Prefix for every Redis key this instance writes. */
    REDIS_PREFIX: z.string().default('quillwright'),
    /**
     * Turns on GET /metrics (Prometheus text format, docs/metrics.md) for requests sending
     * `Authorization: Bearer <METRICS_TOKEN>`. Unset: the path does not exist.
     */
    METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),

    // Image storage (docs/images.md): S3-compatible object storage instead of DATA_DIR/images when S3_BUCKET is set.
    S3_BUCKET: optionalString,
    /** https://… of an S3-compatible service (MinIO, Cloudflare R2, …); unset for AWS S3. */
    S3_ENDPOINT: optionalUrl,
    S3_REGION: z.string().trim().min(1).default('us-east-1'),
    /** Both keys, or neither (then the AWS SDK's own chain: instance role, AWS_* variables, profile). */
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    /** bucket in the path (http://host/bucket/key) rather than the host name: most self-hosted services want it. */
    S3_FORCE_PATH_STYLE: booleanFlag.default(false),
    /** Put before every key, to share a bucket: `quillwright/` stores images under `quillwright/images/…`. */
    S3_PREFIX: optionalString.pipe(
      z
        .string()
        .regex(
          /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/$/,
          'must be folder names ending with "/", e.g. quillwright/',
        )
        .refine((v) => !v.split('/').some((part) => part === '.' || part === '..'), 'must not hold . or ..')
        .optional(),
    ),

    // AI providers
    OPENAI_API_KEY: optionalString,
    OPENAI_BASE_URL: optionalUrl,
    OPENAI_MODEL: z.string().default('gpt-4o-mini'),
    ANTHROPIC_API_KEY: optionalString,
    ANTHROPIC_BASE_URL: optionalUrl,
    ANTHROPIC_MODEL: z.string().default('claude-3-5-haiku-latest'),
    /** Comma-separated order in which AI providers are tried. */
    AI_PROVIDER_ORDER: z
      .string()
      .default('openai,anthropic')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.enum(['openai', 'anthropic'])).min(1)),

    /** Seals API keys entered in the AI settings (at least 32 characters). Generated into DATA_DIR when absent;
     *  set the same value on every instance that shares a database. */
    ENCRYPTION_KEY: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    /** Comma-separated loopback base URLs probed for local OpenAI-compatible servers (default: the usual
     *  Ollama, LM Studio, llama.cpp and vLLM addresses); "off" disables detection. Never another host. */
    AI_LOCAL_SERVERS: optionalString,
    /** Comma-separated hosts, addresses (`127.0.0.1:11434`, `[::1]`) or ranges (`10.0.0.0/8`) that outbound
     *  requests (AI providers) may reach although they are loopback or private. Link-local and cloud metadata
     *  addresses stay refused. The AI base URLs and AI_LOCAL_SERVERS of the environment are allowed anyway. */
    OUTBOUND_ALLOWED_HOSTS: optionalString,
    /** Monthly AI tokens per member when no billing is configured (editable in the AI settings). */
    AI_MONTHLY_TOKENS_PER_USER: z.coerce.number().int().min(0).default(50_000),

    // Billing
    STRIPE_SECRET_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    /** Points the Stripe SDK at another API host (tests use a local stand-in), e.g. http://127.0.0.1:12111 */
    STRIPE_API_BASE: optionalUrl,
    STRIPE_PRICE_CREATOR_MONTHLY: optionalString,
    STRIPE_PRICE_CREATOR_ANNUAL: optionalString,
    STRIPE_PRICE_PROFESSIONAL_MONTHLY: optionalString,
    STRIPE_PRICE_PROFESSIONAL_ANNUAL: optionalString,
    STRIPE_PRODUCT_CREATOR: optionalString,
    STRIPE_PRODUCT_PROFESSIONAL: optionalString,
    /** Cap documents and AI tokens per plan even when billing is not configured. */
    ENFORCE_PLAN_LIMITS: booleanFlag.default(false),
  })
  .superRefine((env, ctx) => {
    if (!env.S3_BUCKET) {
      for (const name of S3_SETTINGS) {
        if (env[name] !== undefined) {
          ctx.addIssue({ code: 'custom', path: [name], message: 'is set but S3_BUCKET is not' });
        }
      }
      return;
    }
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(env.S3_BUCKET)) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: 'must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens',
      });
    }
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      // Never the values: only which one is missing.
      const missing = env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID';
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: 'is needed with the other S3 key (set both, or neither to use the AWS credential chain)',
      });
    }
  });

type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  DATA_DIR: string;
  JWT_SECRET: string;
  APP_URL: string;
  databaseKind: 'pglite' | 'postgres';
}

export class ConfigError extends Error {}

/** Parses the environment; throws ConfigError naming every bad variable. */
function parseEnv(env: NodeJS.ProcessEnv | Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/**
 * A secret from the environment, or generated once into DATA_DIR/`fileName` (readable by the owner only) so it
 * survives restarts: the JWT secret, the key that seals AI provider keys.
 */
export function secretFromEnvOrDataDir(
  dataDir: string,
  fromEnv: string | undefined,
  fileName: string,
  bytes: number,
): string {
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, fileName);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(bytes).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

/** JWT secret from the environment, or generated once and kept in DATA_DIR so sessions survive restarts. */
function resolveJwtSecret(dataDir: string, fromEnv: string | undefined): string {
  return secretFromEnvOrDataDir(dataDir, fromEnv, 'jwt-secret', 48);
}

export function loadConfig(
  env: NodeJS.ProcessEnv | Record<string, string | undefined> = process.env,
  overrides: Partial<Config> = {},
): Config {
  const parsed = { ...parseEnv(env), ...overrides };
  const dataDir = path.resolve(parsed.DATA_DIR);
  return {
    ...parsed,
    DATA_DIR: dataDir,
    JWT_SECRET: resolveJwtSecret(dataDir, parsed.JWT_SECRET),
    APP_URL: (parsed.APP_URL ?? `http://localhost:${parsed.PORT || 3000}`).replace(/\/$/, ''),
    databaseKind: parsed.DATABASE_URL ? 'postgres' : 'pglite',
  };
}
