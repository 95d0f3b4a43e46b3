import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createMailer, outboxDir } from './mailer';
import { recoveryMail } from './templates';

describe('mailer without SMTP_URL', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('logs the mail with its link and writes it to DATA_DIR/outbox as JSON', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'qw-mail-'));
    dirs.push(dataDir);
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const mailer = createMailer({ smtpUrl: undefined, from: 'Q <q@localhost>', dataDir, log });
    expect(mailer.delivers).toBe(false);

    const link = 'http://localhost:3000/reset-password?token=abc123';
    mailer.send(recoveryMail('Reader@Example.com', link, 60));
    await mailer.flush();

    const files = readdirSync(outboxDir(dataDir));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}T[\d-]+Z-recovery-reader@example\.com\.json$/);
    const record = JSON.parse(readFileSync(path.join(outboxDir(dataDir), files[0]!), 'utf8'));
    expect(record).toMatchObject({
      type: 'recovery',
      from: 'Q <q@localhost>',
      to: 'Reader@Example.com',
      subject: 'Reset your Quillwright password',
      link,
    });
    expect(record.text).toContain(link);

    const logged = lines.map((line) => JSON.parse(line));
    expect(logged.some((entry) => entry.mail?.link === link && String(entry.msg).includes(link))).toBe(true);
    await mailer.close();
  });

  it('logs a delivery failure instead of throwing', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    // Port 1 on loopback refuses connections.
    const mailer = createMailer({
      smtpUrl: 'smtp://127.0.0.1:1',
      from: 'q@localhost',
      dataDir: tmpdir(),
      log,
    });
    expect(mailer.delivers).toBe(true);
    mailer.send(recoveryMail('a@example.com', 'http://x/reset-password?token=t', 60));
    await mailer.flush();
    const errors = lines.map((line) => JSON.parse(line)).filter((entry) => entry.level >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0].msg).toBe('mail delivery failed');
    await mailer.close();
  });
});
