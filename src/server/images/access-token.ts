import { SignJWT, jwtVerify } from 'jose';
import { IMAGE_ACCESS_WINDOW_SECONDS } from '../../shared/constants';

/**
 * The token an <img> carries in its address (`?access=…`), because a browser sends no Authorization header
 * for an image. It names one document and who asked: a signed-in user's session, or a share-link visitor's
 * entry (the share link's fingerprint of what let them in). It grants nothing by itself: every image request
 * checks again that this user's session is signed in and still has a role that may read the document, or
 * that the share link still lets visitors in as it did. Minted once per window with fixed times, so everyone
 * asking in the same window gets the same address and the browser's cache keeps the image.
 */

const IMAGE_AUDIENCE = 'image';

export type ImageViewer =
  { kind: 'user'; userId: string; sessionId: string } | { kind: 'share'; entry: string };

export interface ImageAccess {
  token: string;
  /** When the token stops working (ISO time); the client asks for a new one before. */
  expiresAt: string;
}

const key = (secret: string) => new TextEncoder().encode(`${secret}:image-access`);

export async function signImageAccess(
  secret: string,
  documentId: string,
  viewer: ImageViewer,
  now = Date.now(),
): Promise<ImageAccess> {
  const window = IMAGE_ACCESS_WINDOW_SECONDS;
  const issuedAt = Math.floor(now / 1000 / window) * window;
  const expires = issuedAt + 2 * window;
  const claims =
    viewer.kind === 'user'
      ? { doc: documentId, sub: viewer.userId, sid: viewer.sessionId }
      : { doc: documentId, entry: viewer.entry };
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience(IMAGE_AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expires)
    .sign(key(secret));
  return { token, expiresAt: new Date(expires * 1000).toISOString() };
}

/** The viewer a token names for `documentId`, or null (bad signature, expired, another document's). */
export async function verifyImageAccess(
  secret: string,
  documentId: string,
  token: string,
): Promise<ImageViewer | null> {
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      algorithms: ['HS256'],
      audience: IMAGE_AUDIENCE,
    });
    if (payload.doc !== documentId) return null;
    if (typeof payload.sub === 'string' && typeof payload.sid === 'string') {
      return { kind: 'user', userId: payload.sub, sessionId: payload.sid };
    }
    if (typeof payload.entry === 'string') return { kind: 'share', entry: payload.entry };
    return null;
  } catch {
    return null;
  }
}
