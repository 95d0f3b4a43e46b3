import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, openHome, shoot, test } from './fixtures';
import { E2E_BASE_URL } from './env';

/**
 * An MCP client signing in by OAuth, as a desktop agent does: it registers, opens /oauth/authorize in the
 * browser, the writer signs in and allows it, and the browser lands on the agent's loopback address with a
 * code the agent trades for a token. Then the writer disconnects it in Account Settings.
 */

/** The agent's side: a loopback server that takes the browser's redirect, as desktop agents listen. */
async function startLoopback(): Promise<{ server: Server; url: string; redirect: Promise<URL> }> {
  let arrived!: (url: URL) => void;
  const redirect = new Promise<URL>((resolve) => (arrived = resolve));
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<h1>Signed in. You can close this window.</h1>');
    if (url.pathname === '/callback') arrived(url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/callback`, redirect };
}

const form = (values: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(values).toString(),
});

test('an MCP client signs in through the consent page, gets a token that works, and is disconnected', async ({
  page,
  users,
}) => {
  const loopback = await startLoopback();
  try {
    const registered = await fetch(`${E2E_BASE_URL}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Desk Agent', redirect_uris: [loopback.url] }),
    });
    expect(registered.status).toBe(201);
    const clientId = ((await registered.json()) as { client_id: string }).client_id;

    const verifier = randomBytes(32).toString('base64url');
    const authorize = new URL('/oauth/authorize', E2E_BASE_URL);
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: loopback.url,
      scope: 'read write',
      state: 'agent-state-7',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      resource: `${E2E_BASE_URL}/mcp`,
    })) {
      authorize.searchParams.set(name, value);
    }

    const user = await users.create({ prefix: 'oauth' });
    await page.goto(authorize.toString());
    await expect(page.getByRole('heading', { name: 'Connect an app' })).toBeVisible();
    await page.getByRole('button', { name: 'Sign in' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Email').fill(user.email);
    await dialog.getByLabel('Password').fill(user.password);
    await dialog.getByRole('button', { name: 'Sign In' }).click();

    // Signed in, still on the request: who asks, where the answer goes, what it may do.
    await expect(page.getByRole('heading', { name: 'Allow Desk Agent to use your account?' })).toBeVisible();
    const consent = page.getByTestId('oauth-consent');
    await expect(consent.getByTestId('oauth-scope')).toHaveText([
      /^See your documents/,
      /^Change your documents/,
    ]);
    await expect(consent).toContainText(new URL(loopback.url).host);
    await expect(page.getByText(user.email)).toBeVisible();
    // Every scope asked for starts ticked; the writer unticks changing documents: the app may only look.
    const write = consent.getByRole('checkbox', { name: /^Change your documents/ });
    await expect(consent.getByRole('checkbox')).toHaveCount(2);
    await expect(write).toBeChecked();
    await write.uncheck();
    await expect(write).not.toBeChecked();
    await shoot(page, 'oauth-consent', 390);
    await shoot(page, 'oauth-consent', 1280);
    // With nothing ticked there is nothing to allow.
    await consent.getByRole('checkbox', { name: /^See your documents/ }).uncheck();
    await expect(page.getByRole('button', { name: 'Allow' })).toBeDisabled();
    await consent.getByRole('checkbox', { name: /^See your documents/ }).check();

    await page.getByRole('button', { name: 'Allow' }).click();
    const back = await loopback.redirect;
    await expect(page.getByRole('heading', { name: 'Signed in. You can close this window.' })).toBeVisible();
    expect(back.searchParams.get('state')).toBe('agent-state-7');
    const code = back.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const exchanged = await fetch(
      `${E2E_BASE_URL}/oauth/token`,
      form({
        grant_type: 'authorization_code',
        code,
        client_id: clientId,
        redirect_uri: loopback.url,
        code_verifier: verifier,
        resource: `${E2E_BASE_URL}/mcp`,
      }),
    );
    expect(exchanged.status).toBe(200);
    const tokens = (await exchanged.json()) as { access_token: string; scope: string };
    expect(tokens.scope).toBe('read');
    const listTools = () =>
      fetch(`${E2E_BASE_URL}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokens.access_token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await listTools()).status).toBe(200);
    // The token carries only what was left ticked: reading, not writing.
    const bearer = { authorization: `Bearer ${tokens.access_token}` };
    expect((await fetch(`${E2E_BASE_URL}/api/documents`, { headers: bearer })).status).toBe(200);
    const created = await fetch(`${E2E_BASE_URL}/api/documents`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Not allowed' }),
    });
    expect(created.status).toBe(403);

    // Account Settings → API tokens lists the app; Disconnect shuts it out at once.
    await users.login(user);
    await openHome(page);
    await page.getByRole('button', { name: 'Account settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Account Settings' });
    await settings.getByRole('tab', { name: 'API tokens' }).click();
    const row = settings.getByTestId('connected-app-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Desk Agent');
    await expect(row).toContainText('Last used');
    await expect(row).toContainText('Read');
    await expect(row).not.toContainText('Write');
    await row.scrollIntoViewIfNeeded();
    await shoot(page, 'oauth-connected-apps', 1280);
    await row.getByRole('button', { name: 'Disconnect Desk Agent' }).click();
    await expect(settings.getByText('No apps are connected.')).toBeVisible();
    expect((await listTools()).status).toBe(401);
  } finally {
    loopback.server.close();
  }
});
