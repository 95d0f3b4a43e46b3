import { hash, verify } from '@node-rs/argon2';
import { createHash } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Db } from '../db/client';
import {
  findShareSettings,
  findSharedDocument,
  updateShareSettings as updateShareSettingsRow,
  type ShareChanges,
  type ShareRow,
} from '../documents/repository';
import { badRequest, gone, notFound, unauthorized } from '../errors';
import type { ShareSettings, UpdateShareSettings } from '../../shared/schemas/sharing';
import { shareAccessOf, updateShareSettingsSchema, type ShareAccess } from '../../shared/schemas/sharing';

/** How long a visitor's share token lasts before the shared page asks the server again. */
export const SHARE_TOKEN_TTL_SECONDS = 60 * 60;
const SHARE_AUDIENCE = 'share';
const HOUR_MS = 3_600_000;

/**
 * Expiry dates follow the "anywhere on Earth" convention (UTC−12): a link set to expire on a date works
 * until that date has ended everywhere, so no writer's "today" is already over when they pick it.
 */
export function expiryInstant(date: string): Date {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 36 * HOUR_MS);
}

function todayAnywhereOnEarth(now = new Date()): string {
  return new Date(now.getTime() - 12 * HOUR_MS).toISOString().slice(0, 10);
}

function expiryDateOf(instant: Date | null): string | null {
  return instant ? new Date(instant.getTime() - 36 * HOUR_MS).toISOString().slice(0, 10) : null;
}

function presentSettings(row: ShareRow): ShareSettings {
  return {
    isPublic: row.isPublic,
    allowEditing: row.shareAllowEditing,
    allowSuggesting: row.shareAllowSuggesting,
    expiresAt: expiryDateOf(row.shareExpiresAt),
    hasPassword: row.sharePasswordHash !== null,
  };
}

/** Changes whenever any share setting changes, so tokens issued under old settings stop working. */
function shareFingerprint(row: ShareRow): string {
  return createHash('sha256')
    .update(
      [
        row.isPublic,
        row.shareAllowEditing,
        row.shareAllowSuggesting,
        row.shareExpiresAt?.toISOString() ?? '',
        row.sharePasswordHash ?? '',
      ].join('|'),
    )
    .digest('base64url')
    .slice(0, 22);
}

export async function getShareSettings(db: Db, userId: string, documentId: string): Promise<ShareSettings> {
  const row = await findShareSettings(db, userId, documentId);
  if (!row) throw notFound('Document not found');
  return presentSettings(row);
}

export async function updateShareSettings(
  db: Db,
  userId: string,
  documentId: string,
  input: UpdateShareSettings,
): Promise<ShareSettings> {
  const settings = updateShareSettingsSchema.parse(input);
  if (settings.expiresAt && settings.expiresAt < todayAnywhereOnEarth()) {
    throw badRequest('Share expiry date cannot be earlier than today', 'invalid_expiry');
  }
  const changes: ShareChanges = {
    isPublic: settings.isPublic,
    shareAllowEditing: settings.allowEditing,
    shareAllowSuggesting: settings.allowSuggesting,
    shareExpiresAt: settings.expiresAt ? expiryInstant(settings.expiresAt) : null,
  };
  if (settings.password === null) changes.sharePasswordHash = null;
  if (typeof settings.password === 'string') changes.sharePasswordHash = await hash(settings.password);
  const row = await updateShareSettingsRow(db, userId, documentId, changes);
  if (!row) throw notFound('Document not found');
  return presentSettings(row);
}

/** The document as a visitor with the link may see it, or the reason they may not (404 / 410). */
async function loadShared(db: Db, documentId: string) {
  const row = await findSharedDocument(db, documentId);
  // A private document and a missing one look the same to a visitor.
  if (!row || !row.isPublic) throw notFound('This document is not shared', 'not_found');
  if (row.shareExpiresAt && row.shareExpiresAt.getTime() <= Date.now()) {
    throw gone('This share link has expired', 'share_expired');
  }
  return row;
}

async function signShareToken(secret: string, row: ShareRow): Promise<string> {
  return new SignJWT({ doc: row.id, access: accessOfRow(row), fp: shareFingerprint(row) })
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience(SHARE_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${SHARE_TOKEN_TTL_SECONDS}s`)
    .sign(new TextEncoder().encode(secret));
}

export interface ShareGrant {
  documentId: string;
  access: ShareAccess;
}

const accessOfRow = (row: ShareRow): ShareAccess =>
  shareAccessOf({ allowEditing: row.shareAllowEditing, allowSuggesting: row.shareAllowSuggesting });

/**
 * Checks a visitor's share token against the document's current settings: a document turned private,
 * expired, re-passworded or with its access level changed invalidates every token issued before.
 */
export async function verifyShareToken(db: Db, secret: string, token: string): Promise<ShareGrant | null> {
  let claims: Record<string, unknown>;
  try {
    const verified = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
      audience: SHARE_AUDIENCE,
    });
    claims = verified.payload;
  } catch {
    return null;
  }
  if (typeof claims.doc !== 'string' || typeof claims.fp !== 'string') return null;
  try {
    const row = await loadShared(db, claims.doc);
    if (shareFingerprint(row) !== claims.fp) return null;
    return { documentId: row.id, access: accessOfRow(row) };
  } catch {
    return null;
  }
}

export async function openSharedDocument(
  db: Db,
  secret: string,
  documentId: string,
  shareToken: string | undefined,
) {
  const row = await loadShared(db, documentId);
  if (row.sharePasswordHash) {
    const grant = shareToken ? await verifyShareToken(db, secret, shareToken) : null;
    if (!grant || grant.documentId !== documentId) {
      throw unauthorized('This document is protected by a password', 'share_password_required');
    }
  }
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    updated_at: row.updatedAt.toISOString(),
    allowEditing: row.shareAllowEditing,
    access: accessOfRow(row),
    shareToken: await signShareToken(secret, row),
  };
}

export async function unlockSharedDocument(db: Db, secret: string, documentId: string, password: string) {
  const row = await loadShared(db, documentId);
  if (row.sharePasswordHash && !(await verify(row.sharePasswordHash, password))) {
    throw unauthorized('Incorrect password', 'share_password_invalid');
  }
  return { shareToken: await signShareToken(secret, row), expires_in: SHARE_TOKEN_TTL_SECONDS };
}
