import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { secretFromEnvOrDataDir } from './config';

/**
 * Seals secrets the server must read again (AI providers' API keys, webhook signing secrets) at rest with
 * AES-256-GCM. The 256-bit key is derived (HKDF-SHA-256) from ENCRYPTION_KEY, or from a secret generated once
 * into DATA_DIR/encryption-key (like the JWT secret), with one key per purpose. Several instances sharing one
 * PostgreSQL database must share ENCRYPTION_KEY, or each sees the others' secrets as unreadable.
 */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {}

/** What a box seals; each has its own derived key, so one purpose's sealed values never open in another's box. */
export type SecretPurpose = 'ai-provider-keys' | 'webhook-secrets';

export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string, purpose: SecretPurpose) {
    if (secret.length < 32) throw new SecretBoxError('ENCRYPTION_KEY must be at least 32 characters');
    this.key = Buffer.from(hkdfSync('sha256', secret, 'quillwright', purpose, 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  /** Throws SecretBoxError when the value was sealed with another key or was altered. */
  open(sealed: string): string {
    const [version, payload] = sealed.split(':');
    if (version !== VERSION || !payload) throw new SecretBoxError('unknown sealed format');
    const raw = Buffer.from(payload, 'base64');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError('sealed value too short');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new SecretBoxError('the key cannot be decrypted with this instance’s ENCRYPTION_KEY');
    }
  }
}

/** ENCRYPTION_KEY, else the secret kept in DATA_DIR (generated on first use, readable by the owner only). */
export function encryptionSecret(dataDir: string, fromEnv: string | undefined): string {
  return secretFromEnvOrDataDir(dataDir, fromEnv, 'encryption-key', 32);
}
