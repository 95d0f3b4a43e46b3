import { hash, verify } from '@node-rs/argon2';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/client';
import {
  accessOfShare,
  findShareSettings,
  loadSharedDocument,
  signShareToken,
  SHARE_TOKEN_TTL_SECONDS,
  tokenPassedPassword,
  updateShareSettings as updateShareSettingsRow,
  type ShareChanges,
  type ShareRow,
} from '../documents';
import { badRequest, gone, notFound, unauthorized } from '../errors';
import type { RichTextDoc } from '../../shared/schemas/richText';
import type { ShareSettings, UpdateShareSettings } from '../../shared/schemas/sharing';
import { rejectAllSuggestions } from '../../shared/suggestions/resolve';
import { SHARE_LINK_KEY_PARAM, updateShareSettingsSchema } from '../../shared/schemas/sharing';

/**
 * The owner's side of share links (settings, resetting the link) and a visitor's (opening the shared
 * document, giving the password). Whether a link is open and what a visitor's token grants are the documents
 * access policy's rules (documents/share-links.ts), asked here, not restated.
 */

const HOUR_MS = 3_600_000;
/** Random bytes in a reset link's key (base64url in the address). */
const LINK_KEY_BYTES = 16;

/**
 * Expiry dates follow the "anywhere on Earth" convention (UTC−12): a link set to expire on a date works
 * until that date has ended everywhere, so no writer's "today" is already over when they pick it.
 */
function expiryInstant(date: string): Date {
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
    allowCommenting: row.shareAllowCommenting,
    showSuggestions: row.shareShowSuggestions,
    expiresAt: expiryDateOf(row.shareExpiresAt),
    hasPassword: row.sharePasswordHash !== null,
    linkKey: row.shareLinkKey,
  };
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
    shareAllowCommenting: settings.allowCommenting,
    shareShowSuggestions: settings.showSuggestions,
    shareExpiresAt: settings.expiresAt ? expiryInstant(settings.expiresAt) : null,
  };
  if (settings.password === null) changes.sharePasswordHash = null;
  if (typeof settings.password === 'string') changes.sharePasswordHash = await hash(settings.password);
  const row = await updateShareSettingsRow(db, userId, documentId, changes);
  if (!row) throw notFound('Document not found');
  return presentSettings(row);
}

/**
 * Gives the link a new address: the old one answers 410 and every token issued through it stops working
 * (the caller drops live visitors). The other settings stay as they are.
 */
export async function resetShareLink(db: Db, userId: string, documentId: string): Promise<ShareSettings> {
  const row = await updateShareSettingsRow(db, userId, documentId, {
    shareLinkKey: randomBytes(LINK_KEY_BYTES).toString('base64url'),
  });
  if (!row) throw notFound('Document not found');
  return presentSettings(row);
}

/** The key parameter of a visited share address (absent for a link never reset). */
export function linkKeyFromQuery(query: unknown): string | undefined {
  const value = (query as Record<string, unknown> | undefined)?.[SHARE_LINK_KEY_PARAM];
  return typeof value === 'string' && value ? value : undefined;
}

/** Whether the key from a visited address is the link's current one (no key for a link never reset). */
export function isCurrentLinkKey(current: string | null, given: string | undefined): boolean {
  if (current === null) return !given;
  if (!given) return false;
  const a = Buffer.from(current);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * loadSharedDocument for a visited address: an address whose key is not the link's current one (a link reset since)
 * answers 410, like an expired link. Someone holding it knew of the document already; they learn only that
 * this address no longer works.
 */
async function loadSharedThroughLink(db: Db, documentId: string, linkKey: string | undefined) {
  const row = await loadSharedDocument(db, documentId);
  if (!isCurrentLinkKey(row.shareLinkKey, linkKey)) {
    throw gone('This share link has been replaced', 'share_link_reset');
  }
  return row;
}

/**
 * The shared document for a visit, at the access level the share settings hold NOW (the address carries no
 * level). A view-only visitor reads the text without pending suggestions unless the owner chose to show them.
 */
export async function openSharedDocument(
  db: Db,
  secret: string,
  documentId: string,
  shareToken: string | undefined,
  linkKey: string | undefined,
) {
  const row = await loadSharedThroughLink(db, documentId, linkKey);
  if (row.sharePasswordHash && !(await tokenPassedPassword(secret, row, shareToken))) {
    throw unauthorized('This document is protected by a password', 'share_password_required');
  }
  const access = accessOfShare(row);
  // A commenting visitor reads the saved copy like a viewer does.
  const hideSuggestions = (access === 'view' || access === 'comment') && !row.shareShowSuggestions;
  return {
    id: row.id,
    title: row.title,
    content: hideSuggestions ? rejectAllSuggestions(row.content as RichTextDoc) : row.content,
    updated_at: row.updatedAt.toISOString(),
    allowEditing: row.shareAllowEditing,
    access,
    showSuggestions: !hideSuggestions,
    shareToken: await signShareToken(secret, row),
  };
}

/** Whether the password opens the link (no password set: anything does). Throws 404 / 410 as a visit would. */
export async function checkSharePassword(
  db: Db,
  documentId: string,
  linkKey: string | undefined,
  password: string,
): Promise<ShareRow> {
  const row = await loadSharedThroughLink(db, documentId, linkKey);
  if (row.sharePasswordHash && !(await verify(row.sharePasswordHash, password))) {
    throw unauthorized('Incorrect password', 'share_password_invalid');
  }
  return row;
}

export async function issueShareToken(secret: string, row: ShareRow) {
  return { shareToken: await signShareToken(secret, row), expires_in: SHARE_TOKEN_TTL_SECONDS };
}
