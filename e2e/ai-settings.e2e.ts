import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_ADMIN } from './env';
import { editorBody, typeAtEnd, waitForLive } from './editor-helpers';
import { expect, openHome, type Session, shoot, test, testClientAddress } from './fixtures';

/**
 * Account settings → AI, as the instance admin e2e/serve.ts creates: detection finds the "local model
 * server" stand-in (AI_LOCAL_SERVERS), one click uses it, Test calls it, and Improve in the editor is then
 * answered by it. Members never see the tab.
 */

// The AI settings are one per instance: tests that change them run one after another (in parallel, one test's
// reset removed the provider another had just set up).
test.describe.configure({ mode: 'serial' });

async function adminSession(request: APIRequestContext): Promise<Session> {
  const response = await request.post('/api/auth/token?grant_type=password', {
    headers: { 'x-forwarded-for': testClientAddress() },
    data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password },
  });
  expect(response.ok(), await response.text()).toBeTruthy();
  return (await response.json()) as Session;
}

async function openSettings(page: Page) {
  await page.getByRole('button', { name: 'Account settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Account Settings' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/**
 * The admin is on the free plan (three documents) and shared by every test of the run: a test that opened a
 * document as the admin removes it when done.
 */
async function removeOpenDocument(page: Page, request: APIRequestContext, session: Session) {
  const id = /\/editor\/([0-9a-f-]{36})$/u.exec(page.url())?.[1];
  if (!id) return;
  await request.delete(`/api/documents/${id}`, {
    headers: { authorization: `Bearer ${session.access_token}`, 'x-forwarded-for': testClientAddress() },
  });
}

/** Leaves the instance as it was (environment provider only), so other tests are not affected. */
async function resetAiSettings(request: APIRequestContext, session: Session) {
  const response = await request.put('/api/admin/ai', {
    headers: { authorization: `Bearer ${session.access_token}` },
    data: { providers: [], allowance: { monthly_tokens_per_user: null, admins_unlimited: true } },
  });
  expect(response.ok()).toBeTruthy();
}

test('admin: detect the local model server, use it, Test it, then Improve is answered by it', async ({
  page,
  users,
  request,
}) => {
  const session = await adminSession(request);
  expect(session.user).toMatchObject({ email: E2E_ADMIN.email, role: 'admin' });
  await users.login({ email: E2E_ADMIN.email, password: E2E_ADMIN.password, fullName: 'E2E Admin', session });
  try {
    await page.goto('/editor');
    await expect(page).toHaveURL(/\/editor\/[0-9a-f-]{36}$/u);
    await waitForLive(page);

    let dialog = await openSettings(page);
    await dialog.getByRole('tab', { name: 'AI', exact: true }).click();
    const settings = dialog.getByTestId('ai-settings');
    // The environment's provider is listed, read-only.
    const envRow = settings.getByTestId('ai-provider').first();
    await expect(envRow.getByText('Environment')).toBeVisible();
    await expect(envRow.getByLabel('Model')).toHaveValue('e2e-model');
    await expect(envRow.getByLabel('Model')).toHaveAttribute('readonly', '');

    await settings.getByRole('button', { name: 'Detect local models' }).click();
    const found = settings.getByTestId('detected-servers');
    await expect(found).toContainText('llama3.2:3b');
    await shoot(page, 'ai-settings-detected', 1280);
    await found.getByRole('button', { name: 'Use Local server' }).click();
    await expect(page.getByText('AI settings saved', { exact: true })).toBeVisible();

    // The local server is now first, in front of the environment's provider.
    const localRow = settings.getByTestId('ai-provider').first();
    await expect(localRow.getByLabel('Model')).toHaveValue('llama3.2:3b');
    await expect(localRow.getByLabel('Base URL')).toHaveValue(/^http:\/\/127\.0\.0\.1:\d+\/v1$/u);
    await localRow.getByRole('button', { name: 'Test' }).click();
    const result = localRow.getByTestId('ai-test-result');
    await expect(result).toContainText(/Answered in \d+ ms: “The improved text\.”/u);
    await shoot(page, 'ai-settings-tested', 1280);
    await shoot(page, 'ai-settings-tested', 390);
    await page.setViewportSize({ width: 1280, height: 800 });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();

    // Improve in the editor, on the next request: the local server answers (its reply to this text).
    await typeAtEnd(page, 'Please answer via the local model.');
    await editorBody(page).click();
    await page.keyboard.press('Control+a');
    await page.getByTestId('ai-toolbar-improve').click();
    const card = page.getByTestId('ai-suggestion-card');
    await expect(card.getByTestId('ai-suggestion-text')).toHaveText('Locally improved.');
    await shoot(page, 'ai-settings-improve-local', 1280);

    // Disabling it hands the work back to the environment's provider, again without a restart.
    dialog = await openSettings(page);
    await dialog.getByRole('tab', { name: 'AI', exact: true }).click();
    const row = dialog.getByTestId('ai-provider').first();
    // The Improve call just made shows as the provider's latest answer.
    await expect(row.getByTestId('ai-provider-status')).toContainText(/Answered in \d+ ms/u);
    await row.getByRole('switch', { name: 'On' }).click();
    await dialog.getByRole('button', { name: 'Save AI settings' }).click();
    await expect(page.getByText('AI settings saved', { exact: true }).first()).toBeVisible();
    await expect(
      dialog.getByTestId('ai-provider').first().getByRole('switch', { name: 'On' }),
    ).not.toBeChecked();
  } finally {
    await removeOpenDocument(page, request, session);
    await resetAiSettings(request, session);
  }
});

test('admin without a provider: the editor shows the Set up AI notice, and one click sets the local server up', async ({
  page,
  users,
  request,
}) => {
  const session = await adminSession(request);
  const auth = { authorization: `Bearer ${session.access_token}` };
  // This server has a provider from its environment, so "no provider" is what the health answer says here.
  await page.route('**/api/ai/health', (route) =>
    route.fulfill({ json: { openai: false, anthropic: false, providers: [] } }),
  );
  expect((await request.post('/api/admin/ai/detect', { headers: auth, data: {} })).ok()).toBeTruthy();
  const showNotice = { preferences: { aiSetupNoticeDismissed: false } };
  expect((await request.put('/api/me/settings', { headers: auth, data: showNotice })).ok()).toBeTruthy();
  await users.login({ email: E2E_ADMIN.email, password: E2E_ADMIN.password, fullName: 'E2E Admin', session });
  try {
    await page.goto('/editor');
    await waitForLive(page);
    const notice = page.getByRole('region', { name: 'Set up AI' });
    const use = notice.getByRole('button', { name: 'Use Local server (llama3.2:3b)' });
    await expect(use).toBeVisible();
    await shoot(page, 'ai-setup-notice', 1280);
    await shoot(page, 'ai-setup-notice', 390);
    await page.setViewportSize({ width: 1280, height: 800 });
    await use.click();
    await expect(page.getByText('AI is ready', { exact: true })).toBeVisible();
    const saved = await (await request.get('/api/admin/ai', { headers: auth })).json();
    expect(saved.providers[0]).toMatchObject({ model: 'llama3.2:3b', source: 'settings', enabled: true });

    await notice.getByRole('button', { name: 'Open AI settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Account Settings' });
    await expect(dialog.getByRole('tab', { name: 'AI', exact: true })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await dialog.getByRole('button', { name: 'Close' }).click();
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await expect(notice).toBeHidden();
  } finally {
    await removeOpenDocument(page, request, session);
    await resetAiSettings(request, session);
    await request.put('/api/me/settings', { headers: auth, data: showNotice });
  }
});

test('a member sees no AI tab and the admin routes refuse them', async ({ page, users }) => {
  const member = await users.create({ prefix: 'member' });
  await users.login(member);
  await openHome(page);
  const dialog = await openSettings(page);
  await expect(dialog.getByRole('tab', { name: 'Profile' })).toBeVisible();
  await expect(dialog.getByRole('tab', { name: 'AI', exact: true })).toHaveCount(0);
  const response = await users.api(member).get('/api/admin/ai');
  expect(response.status()).toBe(403);
});
