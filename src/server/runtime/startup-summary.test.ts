import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { chooseLogFormat } from './logger';
import { startupSummary } from './startup-summary';

const SECRET = 'sk-live-do-not-print-me-0123456789';

function configWith(env: Record<string, string>) {
  return loadConfig({ JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/qw-summary-test', ...env });
}

describe('startup summary', () => {
  it('says what is off and why on a bare install', () => {
    const { message } = startupSummary(configWith({}), 'http://127.0.0.1:3000');
    expect(message).toContain('Quillwright is running on http://localhost:3000');
    expect(message).toMatch(/database: +embedded in \/tmp\/qw-summary-test\/pglite/);
    expect(message).toContain('OpenAI off (no OPENAI_API_KEY)');
    expect(message).toContain('Anthropic off (no ANTHROPIC_API_KEY)');
    expect(message).toMatch(
      /mail: +off \(no SMTP_URL: mails go to the log and \/tmp\/qw-summary-test\/outbox\)/,
    );
    expect(message).toMatch(/billing: +off \(no STRIPE_SECRET_KEY\)/);
    expect(message).toMatch(/metrics: +off \(no METRICS_TOKEN\)/);
    expect(message).toMatch(/images: +on disk in \/tmp\/qw-summary-test\/images \(no S3_BUCKET\)/);
  });

  it('names the setup code while the instance has no admin, and says nothing of admins once it has one', () => {
    const unclaimed = startupSummary(configWith({}), 'http://127.0.0.1:3000', 'ABCDE-FGHJK-MNPQR');
    expect(unclaimed.message).toMatch(
      /admin: +No admin yet: setup code ABCDE-FGHJK-MNPQR \(sign up, then enter it/,
    );
    expect(unclaimed.fields.admin).toContain('ABCDE-FGHJK-MNPQR');
    const claimed = startupSummary(configWith({}), 'http://127.0.0.1:3000');
    expect(claimed.message).not.toContain('admin:');
    expect(claimed.fields.admin).toBeUndefined();
  });

  it('says what is on without printing a key, a password or a database user', () => {
    const { message, fields } = startupSummary(
      configWith({
        OPENAI_API_KEY: SECRET,
        ANTHROPIC_API_KEY: SECRET,
        STRIPE_SECRET_KEY: SECRET,
        STRIPE_WEBHOOK_SECRET: SECRET,
        DATABASE_URL: 'postgres://writer:hunter2-password@db.internal:5432/quillwright',
        SMTP_URL: 'smtp://mailer:smtp-password@mail.internal:587',
        REDIS_URL: 'redis://:redis-password@cache.internal:6379',
        METRICS_TOKEN: SECRET,
        S3_BUCKET: 'studio-images',
        S3_ENDPOINT: 'https://s3.internal:9000',
        S3_ACCESS_KEY_ID: 'AKIA-not-printed',
        S3_SECRET_ACCESS_KEY: SECRET,
      }),
      'http://0.0.0.0:3000',
    );
    expect(message).toContain('PostgreSQL at db.internal:5432/quillwright');
    expect(message).toContain('OpenAI on');
    expect(message).toMatch(/billing: +on \(Stripe\)/);
    expect(message).toContain('SMTP at mail.internal:587');
    expect(message).toContain('Redis at cache.internal:6379');
    expect(message).toMatch(/metrics: +on at \/metrics/);
    expect(message).toMatch(/images: +S3 bucket studio-images at s3.internal:9000/);
    const everything = message + JSON.stringify(fields);
    for (const secret of [SECRET, 'hunter2', 'writer', 'smtp-password', 'mailer', 'redis-password', 'AKIA']) {
      expect(everything).not.toContain(secret);
    }
  });

  it('warns when billing is on but Stripe payments cannot be confirmed', () => {
    const { message } = startupSummary(configWith({ STRIPE_SECRET_KEY: SECRET }), 'http://127.0.0.1:3000');
    expect(message).toContain('no STRIPE_WEBHOOK_SECRET: payments are not confirmed');
  });
});

describe('log format', () => {
  it('is readable on a terminal and JSON otherwise, unless LOG_FORMAT says', () => {
    expect(chooseLogFormat('auto', true)).toBe('pretty');
    expect(chooseLogFormat('auto', false)).toBe('json');
    expect(chooseLogFormat(undefined, undefined)).toBe('json');
    expect(chooseLogFormat('json', true)).toBe('json');
    expect(chooseLogFormat('pretty', false)).toBe('pretty');
  });
});
