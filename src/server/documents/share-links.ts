import { createHash } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Db } from '../db/client';
import { gone, notFound } from '../errors';
import { shareAccessOf, type ShareAccess } from '../../shared/share-links';
import { findSharedDocument, type ShareRow } from './repository';

// The share settings' rows, for the sharing feature's owner routes (statements on the owner's condition).
export {
  findShareSettings,
  findSharedPageMeta,
  updateShareSettings,
  type ShareChanges,
  type ShareRow,
} from './repository';

/**
 * A share link as the access policy sees it: whether it lets visitors in now, and the tokens that carry a
 * visitor's grant (their role follows the share settings as they are when the token is checked). The owner's
 * side (settings, the password, the shared page's answers) is the sharing feature's; it asks these rules
 * rather than restating them, so the dependency goes one way: sharing uses documents.
 */

/** How long a visitor's share token lasts before the shared page asks the server again. */
export const SHARE_TOKEN_TTL_SECONDS = 60 * 60;
const SHARE_AUDIENCE = 'share';

/**
 * Whether a document's share link lets visitors in now ("open"), the one rule for it: the document is public,
 * not in the trash, and its expiry (if any) has not passed. A trashed document's link works again once it is
 * restored. The password and the link's key are checked apart (a visit, a token, the shared page's head each
 * have their own way of proving them).
 */
export function shareLinkState(
  share: { isPublic: boolean; expiresAt: Date | null; trashedAt: Date | null },
  now = Date.now(),
): 'open' | 'private' | 'trashed' | 'expired' {
  if (!share.isPublic) return 'private';
  if (share.trashedAt) return 'trashed';
  return share.expiresAt && share.expiresAt.getTime() <= now ? 'expired' : 'open';
}

/**
 * The document as a visitor with the link may see it, or the reason they may not (404; 410 for a trashed
 * document or an expired link). The link's key
 * is not checked here: tokens carry it in their fingerprints (visited addresses check it themselves).
 */
export async function loadSharedDocument(db: Db, documentId: string) {
  const row = await findSharedDocument(db, documentId);
  const state = row
    ? shareLinkState({ isPublic: row.isPublic, expiresAt: row.shareExpiresAt, trashedAt: row.trashedAt })
    : 'private';
  // A private document and a missing one look the same to a visitor.
  if (state === 'private') throw notFound('This document is not shared', 'not_found');
  if (state === 'trashed') throw gone('This document is in the trash', 'document_trashed');
  if (state === 'expired') throw gone('This share link has expired', 'share_expired');
  return row!;
}

/** The access level the share settings grant now. */
export const accessOfShare = (row: ShareRow): ShareAccess =>
  shareAccessOf({
    allowEditing: row.shareAllowEditing,
    allowSuggesting: row.shareAllowSuggesting,
    allowCommenting: row.shareAllowCommenting,
  });

const fingerprint = (parts: unknown[]) =>
  createHash('sha256').update(parts.join('|')).digest('base64url').slice(0, 22);

/**
 * What let the visitor in: the link (its key), and the password they gave. Changes when the document turns
 * private, its expiry or password changes or its link is reset; a token issued before then no longer opens
 * the document.
 */
export function entryFingerprint(row: ShareRow): string {
  return fingerprint([
    row.isPublic,
    row.shareExpiresAt?.toISOString() ?? '',
    row.sharePasswordHash ?? '',
    row.shareLinkKey ?? '',
  ]);
}

/**
 * Changes whenever any share setting changes, so live grants (the collaboration socket) made under old
 * settings end and the visitor's page asks again; the page's own request needs only the entry fingerprint,
 * so a visitor who gave the password is not asked again because the owner changed the access level.
 */
function shareFingerprint(row: ShareRow): string {
  return fingerprint([
    entryFingerprint(row),
    row.shareAllowEditing,
    row.shareAllowSuggesting,
    row.shareAllowCommenting,
    row.shareShowSuggestions,
  ]);
}

/** A visitor's token for the document as its share settings stand now. */
export async function signShareToken(secret: string, row: ShareRow): Promise<string> {
  return new SignJWT({
    doc: row.id,
    access: accessOfShare(row),
    fp: shareFingerprint(row),
    entry: entryFingerprint(row),
  })
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

async function shareTokenClaims(secret: string, token: string): Promise<Record<string, unknown> | null> {
  try {
    const verified = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
      audience: SHARE_AUDIENCE,
    });
    return verified.payload;
  } catch {
    return null;
  }
}

/**
 * Checks a visitor's share token against the document's current settings: a document turned private,
 * expired, re-passworded, with its link reset or its access level changed invalidates every token issued
 * before.
 */
export async function verifyShareToken(db: Db, secret: string, token: string): Promise<ShareGrant | null> {
  const claims = await shareTokenClaims(secret, token);
  if (!claims || typeof claims.doc !== 'string' || typeof claims.fp !== 'string') return null;
  try {
    const row = await loadSharedDocument(db, claims.doc);
    if (shareFingerprint(row) !== claims.fp) return null;
    return { documentId: row.id, access: accessOfShare(row) };
  } catch {
    return null;
  }
}

/** Whether a token shows its holder passed this link's password (its access level may have changed since). */
export async function tokenPassedPassword(
  secret: string,
  row: ShareRow,
  token: string | undefined,
): Promise<boolean> {
  const claims = token ? await shareTokenClaims(secret, token) : null;
  return claims?.doc === row.id && claims.entry === entryFingerprint(row);
}
