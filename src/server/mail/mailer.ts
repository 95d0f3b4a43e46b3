import type { FastifyBaseLogger } from 'fastify';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';

type MailType =
  'recovery' | 'signup' | 'email_change' | 'email_change_notice' | 'invitation' | 'notification_digest';

export interface MailMessage {
  type: MailType;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link the mail is about (reset or confirmation); logged when there is no SMTP server. */
  link: string;
}

export interface Mailer {
  /** True when mail really leaves the machine (SMTP_URL set): sign-up then requires confirmation. */
  readonly delivers: boolean;
  /**
   * Queues the mail and returns at once: callers never wait for (or reveal timing of) delivery.
   * Failures are logged.
   */
  send(message: MailMessage): void;
  /** Resolves when every queued mail has been handed over (tests, shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
  log: FastifyBaseLogger;
}

/** `<timestamp>-<type>-<to>.json` in DATA_DIR/outbox: the self-hoster's mailbox when no SMTP server is set. */
export function outboxDir(dataDir: string): string {
  return path.join(dataDir, 'outbox');
}

function outboxFileName(message: MailMessage, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const to = message.to.toLowerCase().replace(/[^a-z0-9@._+-]/g, '_');
  return `${stamp}-${message.type}-${to}.json`;
}

export function createMailer({ smtpUrl, from, dataDir, log }: MailerOptions): Mailer {
  // nodemailer is loaded with the first mail (about 20 MiB once loaded): most servers send a few a day.
  let transport: Promise<Transporter> | undefined;
  const smtpTransport = (url: string) =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(url)));
  const pending = new Set<Promise<void>>();

  async function deliver(message: MailMessage): Promise<void> {
    if (smtpUrl) {
      const smtp = await smtpTransport(smtpUrl);
      await smtp.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      log.info({ mail: { type: message.type, to: message.to } }, 'mail sent');
      return;
    }
    const now = new Date();
    const dir = outboxDir(dataDir);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, outboxFileName(message, now));
    const record = {
      type: message.type,
      from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      link: message.link,
      created_at: now.toISOString(),
    };
    // Write-then-visible: readers of the outbox never see a half-written file.
    await writeFile(`${file}.tmp`, JSON.stringify(record, null, 2) + '\n', { mode: 0o600 });
    await rename(`${file}.tmp`, file);
    log.info(
      { mail: { type: message.type, to: message.to, subject: message.subject, link: message.link, file } },
      `mail not sent (SMTP_URL is not set); open this link: ${message.link}`,
    );
  }

  return {
    delivers: Boolean(smtpUrl),
    send(message) {
      const job = deliver(message)
        .catch((error: unknown) => {
          log.error({ err: error, mail: { type: message.type, to: message.to } }, 'mail delivery failed');
        })
        .finally(() => pending.delete(job));
      pending.add(job);
    },
    async flush() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    async close() {
      await this.flush();
      (await transport?.catch(() => undefined))?.close();
    },
  };
}
