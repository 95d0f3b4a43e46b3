import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { eq } from 'drizzle-orm';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { oauthCodes } from '../db/schema';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { MCP_PATH } from '../../shared/constants';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;
const clients: Client[] = [];
const REDIRECT = 'http://127.0.0.1:8976/callback';

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob, admin] = await Promise.all([
    createUser(server, { fullName: 'Alice Writer' }),
    createUser(server, { fullName: 'Bob Other' }),
    createUser(server, { role: 'admin' }),
  ]);
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});
afterAll(() => server?.close());

/** An MCP client's OAuth state, kept in memory, as a desktop agent keeps it on disk. */
class MemoryProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  constructor(private readonly scope?: string) {}
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test Agent',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.scope ? { scope: this.scope } : {}),
    };
  }
  state() {
    return 'state-42';
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

function transportFor(provider: MemoryProvider): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(`${server.url}${MCP_PATH}`), { authProvider: provider });
}

/** What the consent page does when the user clicks Allow (or Deny): the answer's redirect. */
async function consent(user: TestUser, authorizationUrl: URL, allow: boolean): Promise<URL> {
  const query = Object.fromEntries(authorizationUrl.searchParams);
  const shown = await server.request('GET', `/api/oauth/authorize${authorizationUrl.search}`, {
    token: user.token,
  });
  expect(shown.status, shown.text).toBe(200);
  const res = await server.request('POST', '/api/oauth/authorize', {
    token: user.token,
    body: { ...query, allow },
  });
  expect(res.status, res.text).toBe(200);
  return new URL(res.body.redirect_to);
}

/** The official SDK client, signed in through OAuth as `user` (scopes narrowed by `scope` if given). */
async function signIn(user: TestUser, scope?: string): Promise<{ client: Client; provider: MemoryProvider }> {
  const provider = new MemoryProvider();
  const first = new Client({ name: 'oauth-test', version: '1.0.0' });
  await expect(first.connect(transportFor(provider))).rejects.toThrow(UnauthorizedError);
  const url = provider.authorizationUrl!;
  if (scope) url.searchParams.set('scope', scope);
  const back = await consent(user, url, true);
  expect(back.searchParams.get('state')).toBe('state-42');
  const transport = transportFor(provider);
  await transport.finishAuth(back.searchParams.get('code')!);
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(transportFor(provider));
  clients.push(client);
  return { client, provider };
}

function form(values: Record<string, string>): { rawBody: string; headers: Record<string, string> } {
  return {
    rawBody: new URLSearchParams(values).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  };
}

async function register(redirectUris: string[] = [REDIRECT], name = 'Raw Client') {
  return server.request('POST', '/oauth/register', {
    body: { client_name: name, redirect_uris: redirectUris },
  });
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

let rawClientId: string | undefined;
/** One client for the raw flows: registration is rate-limited (20 a minute from one address). */
async function rawClient(): Promise<string> {
  if (!rawClientId) {
    const reg = await register();
    expect(reg.status, reg.text).toBe(201);
    rawClientId = reg.body.client_id as string;
  }
  return rawClientId;
}

/** Gets a code for `user` by hand, as the SDK would. */
async function codeFor(user: TestUser, scope = 'read write', granted?: string[]) {
  const clientId = await rawClient();
  const { verifier, challenge } = pkce();
  const query = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope,
    state: 's',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: `${server.url}${MCP_PATH}`,
  };
  const res = await server.request('POST', '/api/oauth/authorize', {
    token: user.token,
    body: { ...query, allow: true, ...(granted ? { granted_scopes: granted } : {}) },
  });
  expect(res.status, res.text).toBe(200);
  const code = new URL(res.body.redirect_to).searchParams.get('code')!;
  return { clientId, verifier, code };
}

async function exchange(values: Record<string, string>) {
  return server.request('POST', '/oauth/token', form({ grant_type: 'authorization_code', ...values }));
}

async function tokensFor(user: TestUser, scope?: string) {
  const { clientId, verifier, code } = await codeFor(user, scope);
  const res = await exchange({ code, client_id: clientId, code_verifier: verifier, redirect_uri: REDIRECT });
  expect(res.status, res.text).toBe(200);
  return { clientId, access: res.body.access_token as string, refresh: res.body.refresh_token as string };
}

async function refresh(clientId: string, refreshToken: string) {
  return server.request(
    'POST',
    '/oauth/token',
    form({ grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken }),
  );
}

const mcpList = (access: string) =>
  server.request('POST', MCP_PATH, {
    token: access,
    headers: { accept: 'application/json, text/event-stream' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  });

describe('discovery', () => {
  it('answers /mcp without a token 401 pointing to the protected resource metadata', async () => {
    const res = await mcpList('');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp"`,
    );
    const bad = await mcpList('qw_oat_nothing');
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(bad.headers.get('www-authenticate')).toContain('resource_metadata=');
  });

  it('serves the protected resource and authorization server metadata', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const res = await server.request('GET', path);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        resource: `${server.url}/mcp`,
        authorization_servers: [server.url],
        scopes_supported: ['read', 'write', 'comment', 'suggest'],
      });
    }
    const res = await server.request('GET', '/.well-known/oauth-authorization-server');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      issuer: server.url,
      authorization_endpoint: `${server.url}/oauth/authorize`,
      token_endpoint: `${server.url}/oauth/token`,
      registration_endpoint: `${server.url}/oauth/register`,
      revocation_endpoint: `${server.url}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      response_types_supported: ['code'],
      token_endpoint_auth_methods_supported: ['none'],
      scopes_supported: ['read', 'write', 'comment', 'suggest'],
    });
  });
});

describe('the official SDK client', () => {
  it('registers, is allowed on the consent page, connects, lists tools and calls one', async () => {
    const made = await server.request('POST', '/api/documents', {
      token: alice.token,
      body: { title: 'Signed in by OAuth' },
    });
    expect(made.status, made.text).toBe(201);
    const { client, provider } = await signIn(alice);
    expect(provider.saved?.refresh_token).toMatch(/^qw_ort_/);
    expect(provider.saved?.access_token).toMatch(/^qw_oat_/);
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toContain('list_documents');
    const listed = (await client.callTool({ name: 'list_documents', arguments: {} })) as CallToolResult;
    expect(listed.isError).toBeFalsy();
    expect(JSON.stringify(listed.structuredContent)).toContain('Signed in by OAuth');

    // The consent page showed the client's name, where the answer goes, and what it asked for.
    const shown = await server.request('GET', `/api/oauth/authorize${provider.authorizationUrl!.search}`, {
      token: alice.token,
    });
    expect(shown.body).toEqual({
      client_name: 'Test Agent',
      redirect_host: '127.0.0.1:8976',
      scopes: ['read', 'write', 'comment', 'suggest'],
    });

    // The connected app is listed in the account, and Disconnect shuts the client out at once.
    const apps = await server.request('GET', '/api/me/connected-apps', { token: alice.token });
    expect(apps.status).toBe(200);
    const app = apps.body.apps.find((a: { client_name: string }) => a.client_name === 'Test Agent');
    expect(app).toMatchObject({ scopes: ['read', 'write', 'comment', 'suggest'] });
    expect(app.last_used_at).not.toBeNull();
    // Not among the personal tokens, nor counted against their limit.
    const personal = await server.request('GET', '/api/me/api-tokens', { token: alice.token });
    expect(personal.body.tokens).toEqual([]);
    expect(
      (await server.request('DELETE', `/api/me/connected-apps/${app.id}`, { token: bob.token })).status,
    ).toBe(404);
    const gone = await server.request('DELETE', `/api/me/connected-apps/${app.id}`, { token: alice.token });
    expect(gone.status).toBe(204);
    expect((await mcpList(provider.saved!.access_token)).status).toBe(401);
    const rest = await server.request('GET', '/api/documents', { token: provider.saved!.access_token });
    expect(rest.status).toBe(401);
    expect(
      (await refresh(String(provider.client!.client_id), provider.saved!.refresh_token!)).body.error,
    ).toBe('invalid_grant');
  });

  it('Deny sends the browser back with access_denied and no code', async () => {
    const provider = new MemoryProvider();
    const first = new Client({ name: 'oauth-test', version: '1.0.0' });
    await expect(first.connect(transportFor(provider))).rejects.toThrow(UnauthorizedError);
    const back = await consent(alice, provider.authorizationUrl!, false);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('state-42');
    expect(back.searchParams.has('code')).toBe(false);
  });

  it('a read-only grant reads but may not create', async () => {
    const { client } = await signIn(bob, 'read');
    const created = (await client.callTool({
      name: 'create_document',
      arguments: { title: 'Nope', markdown: 'x' },
    })) as CallToolResult;
    expect(created.isError).toBe(true);
    expect((created.content[0] as { text: string }).text).toContain('insufficient_scope');
    const listed = (await client.callTool({ name: 'list_documents', arguments: {} })) as CallToolResult;
    expect(listed.isError).toBeFalsy();
  });
});

describe('registration', () => {
  it('takes https and loopback http redirect URIs, and refuses any other http or a fragment', async () => {
    expect((await register(['https://agent.example.com/cb'])).status).toBe(201);
    expect((await register(['http://localhost:3333/cb', 'http://[::1]:9/cb'])).status).toBe(201);
    for (const uri of [
      'http://agent.example.com/cb',
      'https://agent.example.com/cb#x',
      'javascript:alert(1)',
    ]) {
      const res = await register([uri]);
      expect(res.status, uri).toBe(400);
      expect(res.body.error).toBe('invalid_redirect_uri');
    }
    const none = await server.request('POST', '/oauth/register', { body: { client_name: 'x' } });
    expect(none.status).toBe(400);
    const tooMany = await register(Array.from({ length: 11 }, (_, i) => `https://a.example.com/${i}`));
    expect(tooMany.status).toBe(400);
  });
});

describe('authorization', () => {
  it('requires a signed-in session, a registered redirect URI, PKCE S256 and this server as the resource', async () => {
    const reg = await register();
    const { challenge } = pkce();
    const base = {
      response_type: 'code',
      client_id: reg.body.client_id,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    const ask = (query: Record<string, string>, token?: string) =>
      server.request('GET', `/api/oauth/authorize?${new URLSearchParams(query)}`, { token });
    expect((await ask(base)).status).toBe(401);
    expect((await ask(base, alice.token)).body).toMatchObject({ scopes: ['read'] });
    const refusals: [Record<string, string>, string][] = [
      [{ ...base, redirect_uri: 'http://127.0.0.1:8976/other' }, 'invalid_request'],
      [{ ...base, client_id: 'unknown' }, 'invalid_client'],
      [{ ...base, code_challenge_method: 'plain' }, 'invalid_request'],
      [{ ...base, code_challenge: '' }, 'invalid_request'],
      [{ ...base, response_type: 'token' }, 'unsupported_response_type'],
      [{ ...base, scope: 'read admin' }, 'invalid_scope'],
      [{ ...base, resource: 'https://elsewhere.example.com/mcp' }, 'invalid_target'],
    ];
    for (const [query, error] of refusals) {
      const res = await ask(query, alice.token);
      expect(res.status, error).toBe(400);
      expect(res.body.error).toBe(error);
    }
  });
});

describe('narrowing the scopes on the consent page', () => {
  it('grants only the scopes left ticked: the token carries those and is refused the rest', async () => {
    const user = await createUser(server);
    const { clientId, verifier, code } = await codeFor(user, 'read write', ['read']);
    const res = await exchange({
      code,
      client_id: clientId,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.scope).toBe('read');
    const access = res.body.access_token as string;
    expect((await server.request('GET', '/api/documents', { token: access })).status).toBe(200);
    const write = await server.request('POST', '/api/documents', { token: access, body: { title: 'No' } });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('insufficient_scope');
    const apps = await server.request('GET', '/api/me/connected-apps', { token: user.token });
    expect(apps.body.apps[0].scopes).toEqual(['read']);
    // A refresh cannot win back what was unticked.
    const refreshed = await refresh(clientId, res.body.refresh_token as string);
    expect(refreshed.body.scope).toBe('read');
  });

  it('refuses granting none, or a scope the app did not ask for', async () => {
    const user = await createUser(server);
    const clientId = await rawClient();
    const { challenge } = pkce();
    const query = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope: 'read',
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: `${server.url}${MCP_PATH}`,
    };
    for (const granted of [[], ['read', 'write']]) {
      const res = await server.request('POST', '/api/oauth/authorize', {
        token: user.token,
        body: { ...query, allow: true, granted_scopes: granted },
      });
      expect(res.status, JSON.stringify(granted)).toBe(400);
      expect(res.body.code).toBe('invalid_scope');
    }
  });
});

describe('the token endpoint', () => {
  it('refuses a wrong PKCE verifier, a second use of a code and a redirect_uri mismatch', async () => {
    const wrong = await codeFor(alice);
    const bad = await exchange({
      code: wrong.code,
      client_id: wrong.clientId,
      code_verifier: pkce().verifier,
      redirect_uri: REDIRECT,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_grant');

    const mismatch = await codeFor(alice);
    const other = await exchange({
      code: mismatch.code,
      client_id: mismatch.clientId,
      code_verifier: mismatch.verifier,
      redirect_uri: 'http://127.0.0.1:8976/elsewhere',
    });
    expect(other.body.error).toBe('invalid_grant');

    const once = await codeFor(alice);
    const values = {
      code: once.code,
      client_id: once.clientId,
      code_verifier: once.verifier,
      redirect_uri: REDIRECT,
    };
    const first = await exchange(values);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read write' });
    expect((await mcpList(first.body.access_token)).status).toBe(200);
    const second = await exchange(values);
    expect(second.body.error).toBe('invalid_grant');
    // The code was used twice: the grant it made is revoked.
    expect((await mcpList(first.body.access_token)).status).toBe(401);

    const unknown = await server.request('POST', '/oauth/token', form({ grant_type: 'password' }));
    expect(unknown.body.error).toBe('unsupported_grant_type');
  });

  it('rotates refresh tokens, and a reused one revokes the whole grant', async () => {
    const { clientId, access, refresh: first } = await tokensFor(alice);
    const rotated = await refresh(clientId, first);
    expect(rotated.status, rotated.text).toBe(200);
    const second = rotated.body.refresh_token as string;
    expect(second).not.toBe(first);
    expect((await mcpList(rotated.body.access_token)).status).toBe(200);
    expect((await mcpList(access)).status).toBe(200);

    const third = await refresh(clientId, second);
    expect(third.status).toBe(200);
    // `first` was used already: someone copied it. Everything of the grant goes.
    const reused = await refresh(clientId, first);
    expect(reused.body.error).toBe('invalid_grant');
    expect((await mcpList(third.body.access_token)).status).toBe(401);
    expect((await refresh(clientId, third.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('refuses a code older than its minute', async () => {
    const late = await codeFor(alice);
    await server.database.db
      .update(oauthCodes)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(oauthCodes.codeHash, createHash('sha256').update(late.code).digest('hex')));
    const res = await exchange({
      code: late.code,
      client_id: late.clientId,
      code_verifier: late.verifier,
      redirect_uri: REDIRECT,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_grant', error_description: 'This code has expired.' });
  });

  it('a refresh token works for its own client only', async () => {
    const { refresh: token } = await tokensFor(alice);
    const stranger = await register();
    const res = await refresh(stranger.body.client_id, token);
    expect(res.body.error).toBe('invalid_grant');
  });
});

describe('revocation and the instance switch', () => {
  it('revoking a refresh token ends the grant at once on /mcp and /api', async () => {
    const { clientId, access, refresh: token } = await tokensFor(alice);
    expect((await server.request('GET', '/api/documents', { token: access })).status).toBe(200);
    const res = await server.request('POST', '/oauth/revoke', form({ token, client_id: clientId }));
    expect(res.status).toBe(200);
    expect((await mcpList(access)).status).toBe(401);
    expect((await server.request('GET', '/api/documents', { token: access })).status).toBe(401);
  });

  it('revoking an access token ends that token only', async () => {
    const { clientId, access, refresh: token } = await tokensFor(alice);
    await server.request('POST', '/oauth/revoke', form({ token: access, client_id: clientId }));
    expect((await mcpList(access)).status).toBe(401);
    expect((await refresh(clientId, token)).status).toBe(200);
  });

  it("scopes narrow what a grant's token may do on the REST API, and it cannot manage tokens", async () => {
    const { access } = await tokensFor(bob, 'read');
    expect((await server.request('GET', '/api/documents', { token: access })).status).toBe(200);
    const create = await server.request('POST', '/api/documents', { token: access, body: { title: 'x' } });
    expect(create.status).toBe(403);
    expect(create.body.code).toBe('insufficient_scope');
    const apps = await server.request('GET', '/api/me/connected-apps', { token: access });
    expect(apps.status).toBe(403);
    expect(apps.body.code).toBe('api_token_not_allowed');
  });

  it('while an admin has turned API tokens off, grants are refused and none can be made', async () => {
    const { access } = await tokensFor(bob);
    const off = await server.request('PUT', '/api/admin/api-tokens', {
      token: admin.token,
      body: { enabled: false },
    });
    expect(off.status).toBe(200);
    try {
      const res = await mcpList(access);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('api_tokens_disabled');
      const reg = await register();
      const { challenge } = pkce();
      const decision = await server.request('POST', '/api/oauth/authorize', {
        token: bob.token,
        body: {
          response_type: 'code',
          client_id: reg.body.client_id,
          redirect_uri: REDIRECT,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          allow: true,
        },
      });
      expect(decision.status).toBe(403);
      expect(decision.body.code).toBe('api_tokens_disabled');
    } finally {
      await server.request('PUT', '/api/admin/api-tokens', { token: admin.token, body: { enabled: true } });
    }
    expect((await mcpList(access)).status).toBe(200);
  });
});
