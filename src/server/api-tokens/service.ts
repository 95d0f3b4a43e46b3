import type { ServerDependencies } from '../dependencies';
import { conflict, notFound } from '../errors';
import { hashToken, randomToken } from '../plugins';
import { isUuid } from '../../shared/uuid';
import { API_TOKEN_PREFIX, API_TOKENS_PER_USER } from '../../shared/constants';
import type { ApiToken, ApiTokenCreate, ApiTokenCreated } from '../../shared/schemas/api-tokens';
import { pageOf, type PageRequest } from '../pagination';
import { countTokensOf, deleteToken, insertToken, listTokensOf, type ApiTokenRecord } from './repository';

/**
 * Personal API tokens: made, listed and revoked by their user from a signed-in session (never with a token).
 * The secret is `qw_pat_` and 32 random bytes; only its SHA-256 is stored, and it is shown once, when made.
 */

type Ctx = Pick<ServerDependencies, 'db'>;
const DAY_MS = 86_400_000;
/** Characters of the secret kept in clear to tell tokens apart: too few to help anyone guess the rest. */
const HINT_LENGTH = 4;

function presentToken(row: ApiTokenRecord): ApiToken {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    hint: row.hint,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
  };
}

/** A page of the user's personal tokens, newest first, and the cursor of the next page. */
export async function listTokens(
  ctx: Ctx,
  userId: string,
  page: PageRequest,
): Promise<{ tokens: ApiToken[]; next: string | undefined }> {
  const rows = await listTokensOf(ctx.db, userId, { limit: page.limit + 1, after: page.after });
  const { rows: pageRows, next } = pageOf(rows, page.limit, (row) => row.place);
  return { tokens: pageRows.map(presentToken), next };
}

export async function createToken(ctx: Ctx, userId: string, input: ApiTokenCreate): Promise<ApiTokenCreated> {
  if ((await countTokensOf(ctx.db, userId)) >= API_TOKENS_PER_USER) {
    throw conflict(
      `You have ${API_TOKENS_PER_USER} API tokens, the most an account may hold. Revoke one you no longer use.`,
      'api_token_limit',
    );
  }
  const secret = `${API_TOKEN_PREFIX}${randomToken(32)}`;
  const row = await insertToken(ctx.db, {
    userId,
    name: input.name,
    scopes: input.scopes,
    tokenHash: hashToken(secret),
    hint: secret.slice(-HINT_LENGTH),
    expiresAt: input.expires_in_days ? new Date(Date.now() + input.expires_in_days * DAY_MS) : null,
  });
  return { ...presentToken(row), token: secret };
}

/** Revokes at once: the row goes, so the token's next request finds nothing (no cache holds it). */
export async function revokeToken(ctx: Ctx, userId: string, tokenId: string): Promise<void> {
  if (!isUuid(tokenId) || !(await deleteToken(ctx.db, userId, tokenId))) {
    throw notFound('API token not found', 'api_token_not_found');
  }
}
