import type { APIRequestContext, BrowserContext, Locator, Page } from '@playwright/test';
import { E2E_ADMIN } from './env';
import {
  createTestUser,
  editorBody,
  openNewDocument,
  signInContext,
  type TestUser,
  typeAtEnd,
} from './editor-helpers';
import { expect, test, testClientAddress } from './fixtures';

/**
 * The first hour on an instance without an AI provider: every AI action answers with what to do, the Set up
 * AI notice sits in the page's flow (never over the text or the suggestion bar) and stays closed once closed,
 * in every browser of that user.
 *
 * The e2e server has an AI provider from its environment, shared by the tests running meanwhile; "no provider"
 * is what this browser is told: the health answer lists none and the generative calls answer as the server
 * does without one (503 ai_unavailable).
 */

const AI_UNAVAILABLE = {
  message:
    'AI is not configured on this server. An administrator can add a provider in Account settings → AI, or set ' +
    'OPENAI_API_KEY (and OPENAI_BASE_URL for an OpenAI-compatible server such as Ollama or vLLM) or ' +
    'ANTHROPIC_API_KEY and restart Quillwright.',
  code: 'ai_unavailable',
};
const GENERATIVE = /\/api\/ai\/(complete|improve|rewrite|tone|summarize|outline|alternatives|rephrase)$/u;

async function withoutProvider(context: BrowserContext) {
  await context.route('**/api/ai/health', (route) =>
    route.fulfill({ json: { openai: false, anthropic: false, providers: [] } }),
  );
  await context.route(GENERATIVE, (route) => route.fulfill({ status: 503, json: AI_UNAVAILABLE }));
}

async function adminUser(request: APIRequestContext): Promise<TestUser> {
  const response = await request.post('/api/auth/token?grant_type=password', {
    headers: { 'x-forwarded-for': testClientAddress() },
    data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password },
  });
  expect(response.ok(), await response.text()).toBeTruthy();
  const session = (await response.json()) as TestUser['session'];
  // The notice is the admin's to close: other tests may have closed it.
  const reset = await request.put('/api/me/settings', {
    headers: { authorization: `Bearer ${session.access_token}` },
    data: { preferences: { aiSetupNoticeDismissed: false } },
  });
  expect(reset.ok()).toBeTruthy();
  return { email: E2E_ADMIN.email, password: E2E_ADMIN.password, session };
}

/**
 * Opens a new document as the instance admin, in a browser told there is no provider, and runs `steps`. The
 * admin is on the free plan (three documents) and shared by every test of the run, so the document is removed
 * when done.
 */
async function asAdminWithoutProvider(
  { page, context, request }: { page: Page; context: BrowserContext; request: APIRequestContext },
  steps: (admin: TestUser) => Promise<void>,
) {
  await withoutProvider(context);
  const admin = await adminUser(request);
  await signInContext(context, admin);
  const id = await openNewDocument(page);
  try {
    await steps(admin);
  } finally {
    await request.delete(`/api/documents/${id}`, {
      headers: { authorization: `Bearer ${admin.session.access_token}` },
    });
  }
}

/** Selects the whole text of the document (the editor keeps the selection while a toolbar button is pressed). */
async function selectAll(page: Page) {
  await editorBody(page).click();
  await page.keyboard.press('Control+a');
  await page.waitForTimeout(100);
}

/** The toast (not its screen-reader announcement) with the given text. */
function toastWith(page: Page, text: string): Locator {
  return page
    .getByRole('region', { name: /^Notifications/u })
    .getByRole('listitem')
    .filter({ hasText: text });
}

/** The toast saying AI is not set up; closed afterwards, so the next action's toast is its own. */
async function expectNotSetUp(page: Page, description: string) {
  const toast = toastWith(page, 'AI is not set up yet');
  await expect(toast).toBeVisible({ timeout: 15_000 });
  await expect(toast).toContainText(description);
  // (It may already have timed out on a busy machine.)
  await toast
    .getByRole('button', { name: 'Close' })
    .click({ timeout: 2_000 })
    .catch(() => {});
  await expect(toast).toBeHidden({ timeout: 15_000 });
}

/**
 * The allowance as the server states it for the user (unit tests cover its rules: unlimited for an admin
 * without billing; this server bills, so plan quotas apply).
 */
async function allowanceFromServer(request: APIRequestContext, user: TestUser): Promise<string> {
  const response = await request.get('/api/ai/usage', {
    headers: { authorization: `Bearer ${user.session.access_token}` },
  });
  const usage = (await response.json()) as { used: number; limit: number; unlimited: boolean };
  if (usage.unlimited) return 'Unlimited AI tokens';
  return `${usage.used.toLocaleString('en-US')} / ${usage.limit.toLocaleString('en-US')} tokens`;
}

type Box = { x: number; y: number; width: number; height: number };
function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}
async function expectApart(notice: Locator, other: Locator) {
  const [a, b] = [await notice.boundingBox(), await other.boundingBox()];
  expect(a, 'the notice is on the page').not.toBeNull();
  expect(b, 'the other control is on the page').not.toBeNull();
  expect(overlaps(a!, b!), `${other.toString()} is not covered`).toBe(false);
}

test('with no AI provider, every AI action tells a member what to do', async ({ page, context, request }) => {
  await withoutProvider(context);
  const member = await createTestUser(request, 'no-ai');
  await signInContext(context, member);
  await openNewDocument(page);

  const notice = page.getByRole('region', { name: 'Set up AI' });
  await expect(notice).toContainText('AI is not set up yet. An admin can add a provider in Settings → AI.');
  await expect(notice.getByRole('button', { name: 'Open AI settings' })).toHaveCount(0);

  const forMember = 'An admin can add a provider in Settings → AI.';
  await typeAtEnd(page, 'The harbour was quiet at dawn');
  // Complete without a selection continues from the cursor, as the palette promises: it asks the AI.
  await page.getByTestId('ai-toolbar-complete').click();
  await expectNotSetUp(page, forMember);
  // Back in the text (closing the toast took the focus), the AI Complete shortcut asks too.
  await editorBody(page).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Control+Shift+Enter');
  await expectNotSetUp(page, forMember);

  await selectAll(page);
  for (const action of ['complete', 'improve', 'professional', 'summarize'] as const) {
    await page.getByTestId(`ai-toolbar-${action}`).click();
    await expectNotSetUp(page, forMember);
  }
  await expect(page.getByTestId('ai-suggestion-card')).toBeHidden();

  // The assistant panel says the same, and shows the member's real allowance.
  await page.getByRole('button', { name: 'AI Assistant' }).first().click();
  const panel = page.getByTestId('ai-assistant-panel');
  await expect(panel.getByRole('note')).toContainText(`AI is not set up yet. ${forMember}`);
  await expect(panel).not.toContainText('OPENAI_API_KEY');
  await expect(panel.getByTestId('ai-allowance')).toHaveText(await allowanceFromServer(request, member));
});

test('an admin is pointed to Settings → AI: the toast, the panel and the notice open it', async ({
  page,
  context,
  request,
}) => {
  await asAdminWithoutProvider({ page, context, request }, (admin) =>
    pointedToSettings(page, request, admin),
  );
});

async function pointedToSettings(page: Page, request: APIRequestContext, admin: TestUser) {
  await typeAtEnd(page, 'Notes from the lighthouse');

  await page.getByTestId('ai-toolbar-complete').click();
  const toast = toastWith(page, 'AI is not set up yet');
  await expect(toast).toContainText('Add a provider in Settings → AI to use the AI actions.');
  await toast.getByRole('button', { name: 'Open AI settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Account Settings' });
  await expect(dialog.getByRole('tab', { name: 'AI', exact: true })).toHaveAttribute('aria-selected', 'true');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: 'AI Assistant' }).first().click();
  const panel = page.getByTestId('ai-assistant-panel');
  await expect(panel.getByTestId('ai-allowance')).toHaveText(await allowanceFromServer(request, admin));
  await panel.getByRole('button', { name: 'Open AI settings' }).click();
  await expect(dialog.getByRole('tab', { name: 'AI', exact: true })).toHaveAttribute('aria-selected', 'true');
  await dialog.getByRole('button', { name: 'Close' }).click();

  const notice = page.getByRole('region', { name: 'Set up AI' });
  await expect(notice).toContainText('AI is not set up yet. The AI actions answer once you add a provider.');
  await notice.getByRole('button', { name: 'Open AI settings' }).click();
  await expect(dialog.getByRole('tab', { name: 'AI', exact: true })).toHaveAttribute('aria-selected', 'true');
}

test('at 1280 and 390 px the Set up AI notice covers neither the text nor the suggestion bar', async ({
  page,
  context,
  request,
}) => {
  await asAdminWithoutProvider({ page, context, request }, async () => {
    await typeAtEnd(page, 'This is an test of the harbour wall.');
    // Grammar works without a provider: its fix arrives as tracked changes, with the suggestion bar.
    await selectAll(page);
    await page.getByTestId('ai-toolbar-grammar').click();
    const bar = page.getByTestId('suggestion-bar');
    await expect(bar.getByRole('button', { name: 'Accept all' })).toBeVisible({ timeout: 45_000 });
    const notice = page.getByRole('region', { name: 'Set up AI' });
    for (const width of [1280, 390] as const) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await expect(notice.getByRole('button', { name: 'Open AI settings' })).toBeVisible();
      await expectApart(notice, editorBody(page));
      await expectApart(notice, page.getByTestId('title-input'));
      await expectApart(notice, bar);
      await expectApart(notice, page.getByTestId('ai-toolbar'));
      // Its close button stays clear of its own text.
      await expectApart(notice.getByRole('button', { name: 'Dismiss' }), notice.locator('p'));
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForTimeout(300);
        await page.screenshot({ path: `/tmp/shots/ai-setup-notice-${scheme}-${width}.png` });
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });
});

test('closing the notice keeps it closed in another browser of the same user', async ({
  page,
  context,
  browser,
  request,
}) => {
  await withoutProvider(context);
  const member = await createTestUser(request, 'notice');
  await signInContext(context, member);
  await openNewDocument(page);
  const notice = page.getByRole('region', { name: 'Set up AI' });
  await expect(notice).toBeVisible();
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toBeHidden();

  const other = await browser.newContext();
  try {
    await withoutProvider(other);
    await signInContext(other, member);
    const otherPage = await other.newPage();
    await openNewDocument(otherPage);
    await expect(otherPage.getByTestId('ai-provider-label')).toHaveText('AI provider: None');
    await otherPage.waitForTimeout(500);
    await expect(otherPage.getByRole('region', { name: 'Set up AI' })).toHaveCount(0);
  } finally {
    await other.close();
  }
});

test('"Detect local models" says so when it finds none', async ({ page, context, request }) => {
  await context.route('**/api/admin/ai/detect', (route) =>
    route.fulfill({
      json: { servers: [], checked: ['http://127.0.0.1:11434/v1', 'http://127.0.0.1:1234/v1'] },
    }),
  );
  await signInContext(context, await adminUser(request));
  await page.goto('/');
  await page.getByRole('button', { name: 'Account settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Account Settings' });
  await dialog.getByRole('tab', { name: 'AI', exact: true }).click();
  await dialog.getByRole('button', { name: 'Detect local models' }).click();
  await expect(dialog.getByRole('status')).toContainText(
    'No local model servers found at 127.0.0.1:11434, 127.0.0.1:1234.',
  );
});

test("grammar follows the writer's English: British spellings are not flagged in British English", async ({
  page,
  context,
  request,
}) => {
  // The first British check on the server builds that dictionary (seconds on a busy machine).
  test.setTimeout(150_000);
  const writer = await createTestUser(request, 'dialect');
  await signInContext(context, writer);
  await openNewDocument(page);
  // Live grammar is off in these browsers until turned on (see e2e/fixtures.ts).
  await page.getByRole('button', { name: 'AI Assistant' }).first().click();
  await page.getByTestId('live-grammar-switch').click();
  await expect(page.getByTestId('live-grammar-switch')).toBeChecked();
  await typeAtEnd(page, 'The colour of the harbour was grey. I recieved it.');
  const issues = editorBody(page).getByTestId('grammar-issue');
  await expect(issues.filter({ hasText: 'recieved' })).toHaveCount(1, { timeout: 30_000 });
  await expect(issues.filter({ hasText: 'colour' })).toHaveCount(1);

  await page.getByTestId('grammar-dialect').click();
  await page.getByRole('option', { name: 'British English' }).click();
  await expect(issues.filter({ hasText: 'colour' })).toHaveCount(0, { timeout: 30_000 });
  await expect(issues.filter({ hasText: 'harbour' })).toHaveCount(0);
  await expect(issues.filter({ hasText: 'recieved' })).toHaveCount(1);

  // The message names the word without Markdown backticks.
  await issues.filter({ hasText: 'recieved' }).click();
  const card = page.getByTestId('grammar-fix-card');
  await expect(card).toBeVisible();
  await expect(card).not.toContainText('`');
  await card.getByRole('button', { name: 'Close' }).click();

  // The choice is kept on the server, and the Grammar action (checked there) follows it too.
  await expect
    .poll(async () => {
      const settings = await request.get('/api/me/settings', {
        headers: { authorization: `Bearer ${writer.session.access_token}` },
      });
      return ((await settings.json()) as { preferences: { grammarDialect: string } }).preferences
        .grammarDialect;
    })
    .toBe('british');
  await selectAll(page);
  await page.getByTestId('ai-toolbar-grammar').click();
  await expect(page.getByText('Fixed 1 grammar issues', { exact: true })).toBeVisible({ timeout: 60_000 });
});
