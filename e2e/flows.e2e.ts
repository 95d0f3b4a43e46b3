import { expect, test, type Page } from '@playwright/test';
import {
  createDocumentViaApi,
  createTestUser,
  editorBody,
  signInContext,
  typeAtEnd,
  waitForLive,
  type TestUser,
} from './editor-helpers';
import { openHome } from './fixtures';

/**
 * Editor flows a writer uses every day, clicked through as a person would: the formatting toolbar, the block
 * menu's AI Generate, the assistant panel's actions, share link and expiry, the 'Document updated' notice,
 * loading and missing documents, and a checkout that fails.
 */

async function openDocument(page: Page, user: TestUser, title = 'Flows') {
  const { id } = await createDocumentViaApi(page.request, user, title);
  await page.goto(`/editor/${id}`);
  await waitForLive(page);
  return id;
}

test('the formatting toolbar sets font, size, colour and alignment on the selection', async ({
  page,
  context,
  request,
}) => {
  const user = await createTestUser(request, 'format');
  await signInContext(context, user);
  await openDocument(page, user);
  await typeAtEnd(page, 'Styled words');
  await page.keyboard.press('Shift+Home');
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' });

  await toolbar.getByRole('combobox', { name: 'Font family' }).click();
  await page.getByRole('option', { name: 'Georgia' }).click();
  await toolbar.getByRole('combobox', { name: 'Font size' }).click();
  await page.getByRole('option', { name: '24px' }).click();
  await toolbar.getByRole('button', { name: 'Text colour' }).click();
  await page.getByRole('button', { name: 'Red', exact: true }).click();
  await page.keyboard.press('Escape');
  await toolbar.getByRole('button', { name: 'Align center' }).click();

  const styled = editorBody(page).locator('p span[style]').first();
  await expect(styled).toHaveText('Styled words');
  await expect(styled).toHaveCSS('font-family', /Georgia/u);
  await expect(styled).toHaveCSS('font-size', '24px');
  await expect(styled).toHaveCSS('color', /^rgb\(\d+, \d+, \d+\)$/u);
  expect(await styled.evaluate((e) => getComputedStyle(e).color)).not.toBe('rgb(0, 0, 0)');
  await expect(editorBody(page).locator('p').first()).toHaveCSS('text-align', 'center');
  await expect(toolbar.getByRole('button', { name: 'Align center' })).toHaveAttribute('aria-pressed', 'true');
  await expect(toolbar.getByRole('combobox', { name: 'Font family' })).toHaveText('Georgia');
  await expect(toolbar.getByRole('combobox', { name: 'Font size' })).toHaveText('24px');
});

test('block menu AI Generate and the assistant panel write through the suggestion card', async ({
  page,
  context,
  request,
}) => {
  const user = await createTestUser(request, 'generate');
  await signInContext(context, user);
  await openDocument(page, user);
  await typeAtEnd(page, 'The garden in winter');
  await page.keyboard.press('Enter');

  // Block menu beside the empty line → AI Generate continues from the text so far.
  await page.getByRole('button', { name: 'Insert block' }).click();
  await page.getByRole('menuitem', { name: 'AI Generate' }).click();
  const card = page.getByTestId('ai-suggestion-card');
  await expect(card).toContainText('Generated content');
  await page.getByTestId('ai-suggestion-accept').click();
  await expect(card).toBeHidden();
  await expect(editorBody(page)).toContainText('The improved text.');

  // Assistant panel: Generate Outline asks for a topic.
  await page.getByRole('button', { name: 'AI Assistant' }).first().click();
  const panel = page.getByTestId('ai-assistant-panel');
  await panel.getByRole('button', { name: 'Generate Outline' }).click();
  await panel.getByRole('textbox', { name: 'Outline topic' }).fill('Winter gardens');
  await panel.getByRole('button', { name: 'Go' }).click();
  await expect(page.getByTestId('ai-suggestion-accept')).toBeEnabled({ timeout: 15_000 });
  await page.getByTestId('ai-suggestion-reject').click();

  // Improve Writing and Summarize Text need a selection: without one they say so.
  await editorBody(page).click();
  await page.keyboard.press('Control+End');
  await panel.getByRole('button', { name: 'Summarize Text' }).click();
  await expect(panel.getByRole('alert')).toBeVisible();
  await editorBody(page).locator('p').first().click();
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home');
  await panel.getByRole('button', { name: 'Summarize Text' }).click();
  await expect(card).toBeVisible();
  await expect(page.getByTestId('ai-suggestion-accept')).toBeEnabled({ timeout: 15_000 });
  await page.getByTestId('ai-suggestion-reject').click();
  await expect(card).toBeHidden();
});

test('share: the copied link is the public link, "Copied" shows for 2 s, and an expiry date is saved', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const user = await createTestUser(request, 'sharelink');
  await signInContext(context, user);
  const id = await openDocument(page, user);

  await page.getByRole('button', { name: 'Share' }).click();
  const menu = page.getByRole('dialog');
  await menu.getByRole('switch', { name: 'Public link' }).click();
  await menu.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Document is now public').first()).toBeVisible();
  await menu.getByRole('button', { name: 'Copy link' }).click();
  await expect(menu.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    `${new URL(page.url()).origin}/shared/${id}`,
  );
  // The indicator goes back after COPIED_INDICATOR_MS (2 s).
  await expect(menu.getByRole('button', { name: 'Copy link' })).toBeVisible({ timeout: 4_000 });

  const nextYear = `${new Date().getFullYear() + 1}-06-30`;
  await menu.getByLabel('Expires').fill(nextYear);
  await expect(page.getByText(`Link expires after ${nextYear}`).first()).toBeVisible();
  const stored = await request.get(`/api/documents/${id}/share`, {
    headers: { Authorization: `Bearer ${user.session.access_token}` },
  });
  expect(await stored.json()).toMatchObject({ isPublic: true, expiresAt: nextYear });
});

test('a change saved by another session shows the "Document updated" notice', async ({
  page,
  context,
  request,
}) => {
  const user = await createTestUser(request, 'updated');
  await signInContext(context, user);
  const id = await openDocument(page, user);
  const patched = await request.patch(`/api/documents/${id}`, {
    headers: { Authorization: `Bearer ${user.session.access_token}` },
    data: {
      content: {
        type: 'doc',
        content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Written elsewhere' }] }],
      },
    },
  });
  expect(patched.ok(), await patched.text()).toBeTruthy();
  await expect(editorBody(page)).toContainText('Written elsewhere', { timeout: 15_000 });
  await expect(page.getByText('Document updated').first()).toBeVisible();
  await expect(page.getByText('This document was updated by another user.').first()).toBeVisible();
});

test('"Loading document..." while it loads, "Document not found" for a missing one', async ({
  page,
  context,
  request,
}) => {
  const user = await createTestUser(request, 'loading');
  await signInContext(context, user);
  const { id } = await createDocumentViaApi(request, user, 'Slow');
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === `/api/documents/${id}`,
    async (route) => {
      await held;
      await route.fallback();
    },
  );
  await page.goto(`/editor/${id}`);
  await expect(page.getByRole('status').filter({ hasText: 'Loading document...' })).toBeVisible();
  release();
  await waitForLive(page);

  await page.goto('/editor/00000000-0000-4000-8000-000000000000');
  await expect(page.getByText('Document not found')).toBeVisible();
  await page.getByRole('link', { name: 'Back to Documents' }).click();
  await expect(page).toHaveURL(/\/$/u);
});

test('a checkout the server refuses shows "Payment Error" with its message', async ({
  page,
  context,
  request,
}) => {
  const user = await createTestUser(request, 'payerr');
  await signInContext(context, user);
  await page.route('**/api/stripe/create-checkout*', (route) =>
    route.fulfill({ status: 502, json: { message: 'Stripe is unreachable', code: 'stripe_unavailable' } }),
  );
  await openHome(page);
  await page.getByRole('button', { name: 'Account settings' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('tab', { name: 'Subscription' }).click();
  await dialog.getByRole('button', { name: 'Upgrade to Creator' }).click();
  await expect(page.getByText('Payment Error').first()).toBeVisible();
  await expect(page.getByText('Stripe is unreachable').first()).toBeVisible();
});

test('a billing portal the server cannot open shows "Portal Error" with its message', async ({
  page,
  context,
  request,
}) => {
  const user = await createTestUser(request, 'portalerr');
  await signInContext(context, user);
  // A subscriber (the status the server reports for an active Stripe subscription), whose portal request fails.
  await page.route('**/api/stripe/subscription-status*', (route) =>
    route.fulfill({
      json: {
        isActive: true,
        planName: 'creator',
        status: 'active',
        currentPeriodEnd: '2027-01-01T00:00:00.000Z',
        cancelAtPeriodEnd: false,
      },
    }),
  );
  await page.route('**/api/stripe/create-portal*', (route) =>
    route.fulfill({ status: 502, json: { message: 'Stripe is unreachable', code: 'stripe_unavailable' } }),
  );
  await openHome(page);
  await page.getByRole('button', { name: 'Account settings' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('tab', { name: 'Subscription' }).click();
  await dialog.getByRole('button', { name: 'Manage Billing' }).click();
  await expect(page.getByText('Portal Error').first()).toBeVisible();
  await expect(page.getByText('Stripe is unreachable').first()).toBeVisible();
});

test('a signed-in writer who picks the free plan on the pricing page gets the "Free Plan" note, no checkout', async ({
  page,
  context,
  request,
}) => {
  const user = await createTestUser(request, 'freeplan');
  await signInContext(context, user);
  let checkoutCalls = 0;
  await page.route('**/api/stripe/create-checkout*', (route) => {
    checkoutCalls += 1;
    return route.continue();
  });
  await openHome(page, '/#pricing');
  const free = page.getByRole('button', { name: 'Start for free plan' });
  await expect(free).toBeEnabled();
  await free.click();
  await expect(page.getByText('Free Plan', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('The Gratis plan is free: no payment needed.').first()).toBeVisible();
  expect(checkoutCalls).toBe(0);
  await expect(page).toHaveURL(/#pricing$/u);
});
