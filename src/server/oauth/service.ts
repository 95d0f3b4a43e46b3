import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { ServerDependencies } from '../dependencies';
import { tokensEnabled } from '../api-tokens';
import { AppError, badRequest, forbidden, notFound } from '../errors';
import { hashToken, randomToken } from '../plugins';
import { isUuid } from '../../shared/uuid';
import {
  MCP_PATH,
  OAUTH_ACCESS_TOKEN_PREFIX,
  OAUTH_ACCESS_TOKEN_TTL_SECONDS,
  OAUTH_CLIENT_NAME_MAX_LENGTH,
  OAUTH_CODE_TTL_SECONDS,
  OAUTH_REDIRECT_URI_MAX_LENGTH,
  OAUTH_REDIRECT_URIS_MAX,
  OAUTH_REFRESH_TOKEN_PREFIX,
  OAUTH_REFRESH_TOKEN_TTL_DAYS,
} from '../../shared/constants';
import { API_TOKEN_SCOPES, type ApiTokenScope } from '../../shared/schemas/api-tokens';
import type {
  ConnectedApp,
  OAuthAuthorizeQuery,
  OAuthConsent,
  OAuthDecision,
} from '../../shared/schemas/oauth';
import {
  deleteAccessTokenOfClient,
  deleteExpiredAccessTokens,
  deleteGrant,
  deleteGrantOf,
  deleteStaleCodes,
  findClient,
  findCode,
  findGrant,
  findRefreshToken,
  insertAccessToken,
  insertClient,
  insertCode,
  insertGrant,
  insertRefreshToken,
  listGrantsOf,
  setCodeGrant,
  useCode,
  useRefreshToken,
  type OAuthClient,
} from './repository';

/**
 * OAuth 2.1 for the MCP endpoint: public clients register themselves, a signed-in user allows one on the
 * consent page, and the client trades the code (with its PKCE verifier) for an access token, which is an API
 * token of kind 'oauth' (the same check, scopes, rate limit and switch as a personal token), and a refresh
 * token that rotates on each use. Every secret is 32 random bytes and only its SHA-256 is stored.
 */

type Ctx = Pick<ServerDependencies, 'db'>;
const DAY_MS = 86_400_000;
/** Characters of an access token kept in clear, as for personal tokens. */
const HINT_LENGTH = 4;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** RFC 7636: a verifier (and so an S256 challenge) is 43 to 128 unreserved characters. */
const PKCE_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;

/** An error in OAuth's own shape (`error`, `error_description`), with the app's `message` and `code` too. */
function oauthError(status: number, error: string, description: string): AppError {
  return new AppError(status, error, description, { error, error_description: description });
}

/** The resource the MCP endpoint is, as clients name it (RFC 8707): this origin's /mcp. */
function mcpResource(origin: string): string {
  return `${origin}${MCP_PATH}`;
}

function sameResource(given: string, origin: string): boolean {
  return given.replace(/\/$/, '') === mcpResource(origin);
}

/** Why the redirect URI may not be used, or undefined: https, or http to this machine only (RFC 8252). */
function redirectUriProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${value.slice(0, 100)} is not a URL`;
  }
  if (url.hash) return 'a redirect URI may not have a fragment (#…)';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return 'a redirect URI must use https, or http to 127.0.0.1, localhost or [::1] only';
}

const registrationSchema = z.object({
  redirect_uris: z.array(z.string().max(OAUTH_REDIRECT_URI_MAX_LENGTH)).min(1).max(OAUTH_REDIRECT_URIS_MAX),
  client_name: z.string().trim().max(OAUTH_CLIENT_NAME_MAX_LENGTH).optional(),
  grant_types: z.array(z.string().max(100)).max(10).optional(),
  response_types: z.array(z.string().max(100)).max(10).optional(),
});

const GRANT_TYPES = ['authorization_code', 'refresh_token'];

/** RFC 7591 dynamic client registration: public clients only (no secret; PKCE stands in for it). */
export async function registerClient(ctx: Ctx, body: unknown) {
  const parsed = registrationSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'body';
    const redirect = field.startsWith('redirect_uris');
    throw oauthError(
      400,
      redirect ? 'invalid_redirect_uri' : 'invalid_client_metadata',
      `${field}: ${issue?.message ?? 'invalid'}`,
    );
  }
  const input = parsed.data;
  for (const uri of input.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw oauthError(400, 'invalid_redirect_uri', problem);
  }
  if (input.grant_types?.some((type) => !GRANT_TYPES.includes(type))) {
    throw oauthError(
      400,
      'invalid_client_metadata',
      'grant_types may be authorization_code and refresh_token',
    );
  }
  if (input.response_types?.some((type) => type !== 'code')) {
    throw oauthError(400, 'invalid_client_metadata', 'response_types may only be code');
  }
  const client = await insertClient(ctx.db, {
    id: randomToken(24),
    name: input.client_name || 'An unnamed app',
    redirectUris: [...new Set(input.redirect_uris)],
  });
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
    client_name: client.name,
    redirect_uris: client.redirectUris,
    grant_types: GRANT_TYPES,
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}

interface AuthorizeRequest {
  client: OAuthClient;
  redirectUri: string;
  scopes: ApiTokenScope[];
  state: string | undefined;
  codeChallenge: string;
  resource: string | null;
}

function parseScopes(scope: string | undefined): ApiTokenScope[] {
  const words = (scope ?? '').split(' ').filter(Boolean);
  // No scope asked: the least, reading.
  if (words.length === 0) return ['read'];
  const unknown = words.find((word) => !(API_TOKEN_SCOPES as readonly string[]).includes(word));
  if (unknown !== undefined) {
    throw oauthError(
      400,
      'invalid_scope',
      `Unknown scope ${unknown.slice(0, 50)}: ask for read, write or suggest.`,
    );
  }
  return API_TOKEN_SCOPES.filter((known) => words.includes(known));
}

/**
 * Checks an authorization request as the client made it. The page shows any refusal instead of sending the
 * browser anywhere: an unknown client or an unregistered redirect URI must never be redirected to.
 */
async function checkAuthorizeRequest(
  ctx: Ctx,
  query: OAuthAuthorizeQuery,
  origin: string,
): Promise<AuthorizeRequest> {
  const client = query.client_id ? await findClient(ctx.db, query.client_id) : undefined;
  if (!client) {
    throw oauthError(
      400,
      'invalid_client',
      'This app is not registered with this server. Connect it again from the app.',
    );
  }
  if (!query.redirect_uri || !client.redirectUris.includes(query.redirect_uri)) {
    throw oauthError(
      400,
      'invalid_request',
      'The app asked to be answered at an address it did not register.',
    );
  }
  if (query.response_type !== 'code') {
    throw oauthError(400, 'unsupported_response_type', 'Only response_type=code is supported.');
  }
  if (query.code_challenge_method !== 'S256' || !PKCE_PATTERN.test(query.code_challenge ?? '')) {
    throw oauthError(400, 'invalid_request', 'The app must use PKCE with code_challenge_method=S256.');
  }
  if (query.resource !== undefined && !sameResource(query.resource, origin)) {
    throw oauthError(400, 'invalid_target', `This server grants access to ${mcpResource(origin)} only.`);
  }
  return {
    client,
    redirectUri: query.redirect_uri,
    scopes: parseScopes(query.scope),
    state: query.state,
    codeChallenge: query.code_challenge!,
    resource: query.resource ?? null,
  };
}

export async function describeConsent(
  ctx: Ctx,
  query: OAuthAuthorizeQuery,
  origin: string,
): Promise<OAuthConsent> {
  const request = await checkAuthorizeRequest(ctx, query, origin);
  return {
    client_name: request.client.name,
    redirect_host: new URL(request.redirectUri).host,
    scopes: request.scopes,
  };
}

function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

/** The user's answer on the consent page: a code for the client, or access_denied. */
/**
 * What the user grants: the scopes asked for, or those of them left ticked on the consent page (at least one;
 * never one the app did not ask for).
 */
function grantedScopes(asked: ApiTokenScope[], granted: ApiTokenScope[] | undefined): ApiTokenScope[] {
  if (granted === undefined) return asked;
  const kept = asked.filter((scope) => granted.includes(scope));
  if (kept.length === 0 || granted.some((scope) => !asked.includes(scope))) {
    throw badRequest('Allow at least one of the scopes the app asked for, and no other.', 'invalid_scope');
  }
  return kept;
}

export async function decide(
  ctx: Ctx,
  userId: string,
  decision: OAuthDecision,
  origin: string,
): Promise<string> {
  const request = await checkAuthorizeRequest(ctx, decision, origin);
  if (!decision.allow) {
    return redirectWith(request.redirectUri, { error: 'access_denied', state: request.state, iss: origin });
  }
  if (!(await tokensEnabled(ctx.db))) {
    throw forbidden('API tokens are turned off on this server.', 'api_tokens_disabled');
  }
  const scopes = grantedScopes(request.scopes, decision.granted_scopes);
  const code = randomToken(32);
  const now = new Date();
  await deleteStaleCodes(ctx.db, now);
  await insertCode(ctx.db, {
    codeHash: hashToken(code),
    clientId: request.client.id,
    userId,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    scopes,
    resource: request.resource,
    expiresAt: new Date(now.getTime() + OAUTH_CODE_TTL_SECONDS * 1000),
  });
  return redirectWith(request.redirectUri, { code, state: request.state, iss: origin });
}

export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

type Tx = Parameters<Parameters<Ctx['db']['transaction']>[0]>[0];

/** A new access token and refresh token for the grant. */
async function issueTokens(
  db: Ctx['db'] | Tx,
  grant: { id: string; userId: string; clientName: string; scopes: ApiTokenScope[] },
  now: Date,
): Promise<TokenAnswer> {
  const access = `${OAUTH_ACCESS_TOKEN_PREFIX}${randomToken(32)}`;
  const refresh = `${OAUTH_REFRESH_TOKEN_PREFIX}${randomToken(32)}`;
  await insertAccessToken(db, {
    userId: grant.userId,
    grantId: grant.id,
    name: grant.clientName,
    scopes: grant.scopes,
    tokenHash: hashToken(access),
    hint: access.slice(-HINT_LENGTH),
    expiresAt: new Date(now.getTime() + OAUTH_ACCESS_TOKEN_TTL_SECONDS * 1000),
  });
  await insertRefreshToken(db, {
    tokenHash: hashToken(refresh),
    grantId: grant.id,
    expiresAt: new Date(now.getTime() + OAUTH_REFRESH_TOKEN_TTL_DAYS * DAY_MS),
  });
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: OAUTH_ACCESS_TOKEN_TTL_SECONDS,
    refresh_token: refresh,
    scope: grant.scopes.join(' '),
  };
}

const invalidGrant = (description: string) => oauthError(400, 'invalid_grant', description);

function field(form: Record<string, unknown>, name: string): string | undefined {
  const value = form[name];
  return typeof value === 'string' && value.length <= 4_000 ? value : undefined;
}

async function requireClient(ctx: Ctx, form: Record<string, unknown>): Promise<OAuthClient> {
  const clientId = field(form, 'client_id');
  const client = clientId ? await findClient(ctx.db, clientId) : undefined;
  if (!client) throw oauthError(401, 'invalid_client', 'Unknown client_id.');
  return client;
}

async function exchangeCode(ctx: Ctx, form: Record<string, unknown>, origin: string): Promise<TokenAnswer> {
  const client = await requireClient(ctx, form);
  const code = field(form, 'code');
  if (!code) throw oauthError(400, 'invalid_request', 'code is missing.');
  const codeHash = hashToken(code);
  const now = new Date();
  const row = await useCode(ctx.db, codeHash, now);
  if (!row) {
    // A code used a second time was copied, or the first exchange was an attacker's: the grant it made goes.
    const used = await findCode(ctx.db, codeHash);
    if (used?.grantId) await deleteGrant(ctx.db, used.grantId);
    throw invalidGrant('This code is not valid (already used, or never issued).');
  }
  if (row.expiresAt <= now) throw invalidGrant('This code has expired.');
  if (row.clientId !== client.id) throw invalidGrant('This code was issued to another client.');
  if (field(form, 'redirect_uri') !== row.redirectUri) {
    throw invalidGrant('redirect_uri does not match the one of the authorization request.');
  }
  const verifier = field(form, 'code_verifier') ?? '';
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  if (!PKCE_PATTERN.test(verifier) || challenge !== row.codeChallenge) {
    throw invalidGrant('code_verifier does not match the code challenge.');
  }
  const resource = field(form, 'resource');
  if (resource !== undefined && !sameResource(resource, origin)) {
    throw oauthError(400, 'invalid_target', `This server grants access to ${mcpResource(origin)} only.`);
  }
  return ctx.db.transaction(async (tx) => {
    const grantId = await insertGrant(tx, { userId: row.userId, clientId: client.id, scopes: row.scopes });
    await setCodeGrant(tx, codeHash, grantId);
    return issueTokens(
      tx,
      { id: grantId, userId: row.userId, clientName: client.name, scopes: row.scopes },
      now,
    );
  });
}

async function refresh(ctx: Ctx, form: Record<string, unknown>): Promise<TokenAnswer> {
  const client = await requireClient(ctx, form);
  const token = field(form, 'refresh_token');
  if (!token) throw oauthError(400, 'invalid_request', 'refresh_token is missing.');
  const tokenHash = hashToken(token);
  const now = new Date();
  const row = await useRefreshToken(ctx.db, tokenHash, now);
  if (!row) {
    // A used refresh token presented again: it was copied. The whole grant goes, the thief's tokens with it.
    const used = await findRefreshToken(ctx.db, tokenHash);
    if (used) await deleteGrant(ctx.db, used.grantId);
    throw invalidGrant('This refresh token is not valid (already used, revoked, or never issued).');
  }
  const found = await findGrant(ctx.db, row.grantId);
  if (!found || found.grant.clientId !== client.id) throw invalidGrant('This refresh token is not valid.');
  if (row.expiresAt <= now) throw invalidGrant('This refresh token has expired.');
  const asked = field(form, 'scope');
  if (
    asked &&
    asked.split(' ').some((scope) => scope && !found.grant.scopes.includes(scope as ApiTokenScope))
  ) {
    throw oauthError(400, 'invalid_scope', 'A refresh cannot add scopes the user did not allow.');
  }
  await deleteExpiredAccessTokens(ctx.db, found.grant.id, now);
  return issueTokens(
    ctx.db,
    {
      id: found.grant.id,
      userId: found.grant.userId,
      clientName: found.clientName,
      scopes: found.grant.scopes,
    },
    now,
  );
}

/** The token endpoint (`POST /oauth/token`, a form body). */
export function exchangeToken(ctx: Ctx, form: Record<string, unknown>, origin: string): Promise<TokenAnswer> {
  switch (field(form, 'grant_type')) {
    case 'authorization_code':
      return exchangeCode(ctx, form, origin);
    case 'refresh_token':
      return refresh(ctx, form);
    default:
      throw oauthError(
        400,
        'unsupported_grant_type',
        'grant_type must be authorization_code or refresh_token.',
      );
  }
}

/**
 * RFC 7009 revocation by the client: a refresh token ends its whole grant, an access token only itself. An
 * unknown token is no error (the answer must not tell which tokens exist).
 */
export async function revoke(ctx: Ctx, form: Record<string, unknown>): Promise<void> {
  const client = await requireClient(ctx, form);
  const token = field(form, 'token');
  if (!token) throw oauthError(400, 'invalid_request', 'token is missing.');
  const tokenHash = hashToken(token);
  if (token.startsWith(OAUTH_REFRESH_TOKEN_PREFIX)) {
    const row = await findRefreshToken(ctx.db, tokenHash);
    const found = row ? await findGrant(ctx.db, row.grantId) : undefined;
    if (found && found.grant.clientId === client.id) await deleteGrant(ctx.db, found.grant.id);
  } else if (token.startsWith(OAUTH_ACCESS_TOKEN_PREFIX)) {
    await deleteAccessTokenOfClient(ctx.db, tokenHash, client.id);
  }
}

export async function listConnectedApps(ctx: Ctx, userId: string): Promise<ConnectedApp[]> {
  const rows = await listGrantsOf(ctx.db, userId);
  return rows.map((row) => ({
    id: row.id,
    client_name: row.clientName,
    scopes: row.scopes,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt ? new Date(row.lastUsedAt).toISOString() : null,
  }));
}

/** Disconnect: the grant and every token of it go at once. */
export async function disconnectApp(ctx: Ctx, userId: string, grantId: string): Promise<void> {
  if (!isUuid(grantId) || !(await deleteGrantOf(ctx.db, userId, grantId))) {
    throw notFound('Connected app not found', 'connected_app_not_found');
  }
}
