import type { Page } from '@playwright/test';
import { expect, openHome, type Session, shoot, test, testClientAddress } from './fixtures';
import { E2E_ADMIN, E2E_BASE_URL } from './env';

/**
 * Account settings → API tokens: make a token, copy it once, use it from a script, revoke it; the admin's switch
 * for the instance; the API reference page.
 */

// The admin's switch is one per instance: the test that turns it off must not overlap one that uses a token.
test.describe.configure({ mode: 'serial' });

async function openTokens(page: Page) {
  await page.getByRole('button', { name: 'Account settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Account Settings' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('tab', { name: 'API tokens' }).click();
  await expect(dialog.getByRole('heading', { name: 'Your tokens' })).toBeVisible();
  return dialog;
}

/** What a script does with the token: a plain fetch, nothing of the browser's session. */
const fetchWithToken = (token: string, path: string) =>
  fetch(`${E2E_BASE_URL}${path}`, { headers: { authorization: `Bearer ${token}` } });

test('a token made in settings is shown once, copied, reads a document from a script, and stops at once when revoked', async ({
  page,
  context,
  users,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const user = await users.create({ prefix: 'api-tokens' });
  const made = await users.api(user).post('/api/documents', {
    title: 'Read by a script',
    content: {
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Words for the script' }] }],
    },
  });
  expect(made.status()).toBe(201);
  const documentId = ((await made.json()) as { id: string }).id;
  await users.login(user);
  await openHome(page);
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();

  const dialog = await openTokens(page);
  await expect(dialog.getByText('You have no API tokens.')).toBeVisible();
  await dialog.getByLabel('Token name').fill('Backup script');
  // Read is chosen already; the expiry stays at 30 days.
  await expect(dialog.getByRole('checkbox', { name: /^Read/ })).toBeChecked();
  await dialog.getByRole('button', { name: 'Create token' }).click();

  const notice = dialog.getByTestId('new-api-token');
  await expect(notice).toContainText("You won't be able to see it again.");
  const secretField = notice.getByRole('textbox');
  const secret = await secretField.inputValue();
  expect(secret).toMatch(/^qw_pat_[A-Za-z0-9_-]{43}$/);
  await notice.getByRole('button', { name: 'Copy' }).click();
  await expect(notice.getByRole('button', { name: 'Copied' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(secret);

  const row = dialog.getByTestId('api-token-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Backup script');
  await expect(row).toContainText(`…${secret.slice(-4)}`);
  await expect(row).toContainText('Never used');
  await expect(row).toContainText('Expires');
  await shoot(page, 'settings-api-tokens-created', 1280);
  await shoot(page, 'settings-api-tokens-created', 390);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Done hides the secret for good: the list never shows it.
  await notice.getByRole('button', { name: 'Done' }).click();
  await expect(dialog.getByTestId('new-api-token')).toHaveCount(0);
  await expect(dialog.getByText(secret)).toHaveCount(0);
  await expect(dialog.locator(`input[value="${secret}"]`)).toHaveCount(0);

  // A script reads the document with the copied token.
  const read = await fetchWithToken(copied, `/api/documents/${documentId}`);
  expect(read.status).toBe(200);
  expect(read.headers.get('ratelimit-limit')).toBeTruthy();
  const body = (await read.json()) as { title: string };
  expect(body.title).toBe('Read by a script');
  // A read token cannot change it.
  const write = await fetch(`${E2E_BASE_URL}/api/documents/${documentId}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${copied}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Changed by a script' }),
  });
  expect(write.status).toBe(403);

  // The list says it was used (after the settings are opened again).
  await page.keyboard.press('Escape');
  const again = await openTokens(page);
  await expect(again.getByTestId('api-token-row')).toContainText('Last used');
  await shoot(page, 'settings-api-tokens-list', 1280);

  await again.getByRole('button', { name: 'Revoke Backup script' }).click();
  await expect(page.getByText('Token revoked', { exact: true })).toBeVisible();
  await expect(again.getByTestId('api-token-row')).toHaveCount(0);
  await expect(again.getByText('You have no API tokens.')).toBeVisible();

  const after = await fetchWithToken(copied, `/api/documents/${documentId}`);
  expect(after.status).toBe(401);
  expect(((await after.json()) as { code: string }).code).toBe('invalid_api_token');
});

test('the API reference at /docs/api lists the routes from the OpenAPI document, with the scopes a token needs', async ({
  page,
}) => {
  await openHome(page, '/docs/api');
  await expect(page.getByRole('heading', { name: 'REST API reference' })).toBeVisible();
  const documents = page.getByRole('region', { name: 'Documents' });
  await expect(documents).toBeVisible();
  // The document's own PATCH, not one under it (its members).
  const patch = page
    .getByTestId('api-operation')
    .filter({ hasText: /patch\s*\/api\/documents\/\{id\}(?!\/)/i });
  await expect(patch).toContainText('Change the title or content');
  await expect(patch).toContainText('API token scopes:write');
  await patch.getByText('Request body (application/json)').click();
  await expect(patch.locator('pre').first()).toContainText('"title"');
  const password = page.getByTestId('api-operation').filter({ hasText: 'PUT/api/auth/user' });
  await expect(password).toContainText('API tokens may not call it');
  await shoot(page, 'api-reference', 1280);
  await shoot(page, 'api-reference', 390);
  const link = page.getByRole('link', { name: 'openapi.json' });
  expect(await link.getAttribute('href')).toBe('/api/openapi.json');
});

test("the admin turns API tokens off in settings: a member's token is refused, and no token can be made", async ({
  page,
  request,
  users,
}) => {
  const member = await users.create({ prefix: 'api-tokens-member' });
  const made = await users
    .api(member)
    .post('/api/me/api-tokens', { name: 'Nightly export', scopes: ['read'] });
  expect(made.status()).toBe(201);
  const memberToken = ((await made.json()) as { token: string }).token;
  expect((await fetchWithToken(memberToken, '/api/documents')).status).toBe(200);

  const signIn = await request.post('/api/auth/token?grant_type=password', {
    headers: { 'x-forwarded-for': testClientAddress() },
    data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password },
  });
  expect(signIn.ok(), await signIn.text()).toBeTruthy();
  const session = (await signIn.json()) as Session;
  const setEnabled = (enabled: boolean) =>
    request.put('/api/admin/api-tokens', {
      headers: { authorization: `Bearer ${session.access_token}` },
      data: { enabled },
    });
  try {
    await users.login({ email: E2E_ADMIN.email, password: E2E_ADMIN.password, fullName: 'Admin', session });
    await openHome(page);
    const dialog = await openTokens(page);
    const allow = dialog.getByRole('switch', { name: /Allow API tokens on this server/ });
    await expect(allow).toBeChecked();
    await allow.click();
    await expect(allow).not.toBeChecked();
    await expect(dialog.getByText('API tokens are turned off on this server.')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Create token' })).toBeDisabled();
    await shoot(page, 'settings-api-tokens-off', 1280);
    // The admin's seven tabs each show their whole name, side by side.
    const names = [
      'Profile',
      'Preferences',
      'Subscription',
      'Notifications',
      'AI commands',
      'API tokens',
      'AI',
    ];
    const boxes = [];
    for (const name of names) {
      const label = dialog.getByRole('tab', { name, exact: true }).getByText(name, { exact: true });
      expect(await label.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      boxes.push((await label.boundingBox())!);
    }
    for (let i = 1; i < boxes.length; i++) {
      expect(boxes[i]!.x).toBeGreaterThanOrEqual(boxes[i - 1]!.x + boxes[i - 1]!.width);
    }

    const refused = await fetchWithToken(memberToken, '/api/documents');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('api_tokens_disabled');

    await allow.click();
    await expect(allow).toBeChecked();
    await expect(dialog.getByText('API tokens are turned off on this server.')).toHaveCount(0);
    expect((await fetchWithToken(memberToken, '/api/documents')).status).toBe(200);
  } finally {
    expect((await setEnabled(true)).ok()).toBeTruthy();
  }
});
