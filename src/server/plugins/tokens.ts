import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../shared/constants';
import { unauthorized } from '../errors';

export interface AccessClaims {
  userId: string;
  sessionId: string;
  email: string;
}

const ISSUER = 'quillwright';
const AUDIENCE = 'authenticated';

const encodedKeys = new Map<string, Uint8Array>();
function keyFor(secret: string): Uint8Array {
  let key = encodedKeys.get(secret);
  if (!key) {
    key = new TextEncoder().encode(secret);
    encodedKeys.set(secret, key);
  }
  return key;
}

export async function signAccessToken(
  secret: string,
  claims: AccessClaims,
  ttlSeconds = ACCESS_TOKEN_TTL_SECONDS,
): Promise<{ token: string; expiresAt: number }> {
  const issuedAt = Math.floor(Date.now() / 1000);
  const expiresAt = issuedAt + ttlSeconds;
  const token = await new SignJWT({ email: claims.email, sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(keyFor(secret));
  return { token, expiresAt };
}

/**
 * Tokens that verified, with their expiry. Checking an HS256 signature through WebCrypto costs CPU and an
 * async hop on every request (bench:api); a token that verified once under a secret always will, so only
 * its expiry is checked again. Revocation is not a token property: requireUser checks the session each time.
 */
const VERIFIED_CACHE_MAX = 10_000;
const verifiedTokens = new Map<string, { secret: string; claims: AccessClaims; exp: number }>();

/**
 * Verifies signature (HS256 only: `alg: none` and other algorithms are refused), issuer, audience and expiry;
 * `exp`, `iat`, `sub`, `sid` and `email` must all be present.
 */
export async function verifyAccessToken(secret: string, token: string): Promise<AccessClaims> {
  const cached = verifiedTokens.get(token);
  if (cached && cached.secret === secret) {
    if (cached.exp > Math.floor(Date.now() / 1000)) return cached.claims;
    verifiedTokens.delete(token);
    throw unauthorized('Token has expired', 'bad_jwt');
  }
  try {
    const { payload } = await jwtVerify(token, keyFor(secret), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      // A token without an expiry would be valid forever: whoever once copied it would keep the account.
      requiredClaims: ['exp', 'iat', 'sub'],
    });
    if (
      typeof payload.exp !== 'number' ||
      typeof payload.sub !== 'string' ||
      typeof payload.sid !== 'string' ||
      typeof payload.email !== 'string'
    ) {
      throw unauthorized('Invalid token', 'bad_jwt');
    }
    const claims = { userId: payload.sub, sessionId: payload.sid, email: payload.email };
    if (verifiedTokens.size >= VERIFIED_CACHE_MAX) {
      verifiedTokens.delete(verifiedTokens.keys().next().value!); // the oldest
    }
    verifiedTokens.set(token, { secret, claims, exp: payload.exp });
    return claims;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw unauthorized('Token has expired', 'bad_jwt');
    throw unauthorized('Invalid token', 'bad_jwt');
  }
}

/** Opaque random token for refresh tokens and e-mailed links; only its hash is stored. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
