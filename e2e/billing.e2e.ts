import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { openHome, testClientAddress } from './fixtures';

/**
 * Billing in the browser against the Stripe stand-in that e2e/serve.ts starts: the real server calls it
 * through the stripe SDK, its checkout page "pays" and sends signed webhooks back.
 */

mkdirSync('/tmp/shots', { recursive: true });

const SESSION_KEY = 'quillwright.auth.session';

async function signedInUser(page: Page, request: APIRequestContext) {
  const email = `buyer-${randomBytes(4).toString('hex')}@example.com`;
  const res = await request.post('/api/auth/signup', {
    headers: { 'x-forwarded-for': testClientAddress() },
    data: { email, password: `Pw-${randomBytes(8).toString('hex')}!`, data: { full_name: 'E2E Buyer' } },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const { session } = (await res.json()) as { session: unknown };
  expect(session).toBeTruthy();
  // Signed in without the UI: the app reads its session from localStorage on load.
  await page.addInitScript(
    ([key, value]) => {
      if (!localStorage.getItem(key!)) localStorage.setItem(key!, value!);
    },
    [SESSION_KEY, JSON.stringify(session)],
  );
  return { email };
}

async function openSubscriptionTab(page: Page) {
  await page.getByRole('button', { name: 'Account settings' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('tab', { name: 'Subscription' }).click();
  const tab = dialog.getByTestId('subscription-tab');
  await expect(tab).toBeVisible();
  return tab;
}

test('a signed-in writer buys Creator through Stripe and sees the active plan', async ({ page, request }) => {
  await signedInUser(page, request);
  await openHome(page);
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();

  let tab = await openSubscriptionTab(page);
  await expect(tab.getByTestId('current-plan-badge')).toHaveText('Gratis');
  await expect(tab.getByTestId('subscription-plan-gratis').getByRole('button')).toHaveText('Current Plan');
  await expect(tab.getByTestId('subscription-plan-gratis').getByRole('button')).toBeDisabled();
  await page.screenshot({ path: '/tmp/shots/billing-tab-gratis.png' });

  // Record the URL the server got from the stand-in (the body is gone once the page navigates away).
  let url = '';
  await page.route('**/api/stripe/create-checkout', async (route) => {
    const response = await route.fetch();
    url = ((await response.json()) as { url: string }).url;
    await route.fulfill({ response });
  });
  await tab
    .getByTestId('subscription-plan-creator')
    .getByRole('button', { name: 'Upgrade to Creator' })
    .click();
  await expect.poll(() => url).not.toBe('');
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/pay\/cs_test_/);
  // The browser goes to the URL the stand-in returned.
  await page.waitForURL(url);
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible();
  await expect(page.getByText('price_e2e_creator_monthly')).toBeVisible();

  // Paying completes the session, the stand-in sends the signed webhooks, then redirects back.
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.waitForURL(/\/subscription-success\?session_id=cs_test_/);
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
  await expect(
    page.getByText('Thank you for subscribing... Your premium features are now active.'),
  ).toBeVisible();
  await expect(page.getByText('Your subscription has been activated!', { exact: true })).toBeVisible();
  await expect(page.getByTestId('success-plan')).toHaveText('Your plan: Creator');
  await page.screenshot({ path: '/tmp/shots/billing-success.png' });
  await expect(page.getByRole('link', { name: 'Start Writing' })).toHaveAttribute('href', '/editor');

  await page.getByRole('link', { name: 'Go to Dashboard' }).click();
  await expect(page).toHaveURL(/\/$/);
  tab = await openSubscriptionTab(page);
  await expect(tab.getByTestId('current-plan-badge')).toHaveText('Creator');
  await expect(tab.getByTestId('subscription-status')).toHaveText('Active');
  await expect(tab.getByTestId('subscription-period')).toContainText(/^Renews on \w+ \d+, \d{4}$/);
  await expect(tab.getByTestId('subscription-plan-creator').getByRole('button')).toHaveText('Current Plan');
  await expect(tab.getByTestId('subscription-plan-creator').getByRole('button')).toBeDisabled();
  const lower = tab.getByTestId('subscription-plan-gratis').getByRole('button');
  await expect(lower).toHaveText('Manage via Billing Portal');
  await expect(lower).toBeDisabled();
  await expect(tab.getByRole('button', { name: /Manage Billing/ })).toBeEnabled();
  await page.screenshot({ path: '/tmp/shots/billing-tab-creator.png' });

  // Manage Billing opens the stand-in's billing portal.
  await tab.getByRole('button', { name: /Manage Billing/ }).click();
  await expect(page.getByRole('heading', { name: /Billing portal of cus_test_/ })).toBeVisible();

  // The editor's user chip shows the plan too.
  await page.goto('/editor');
  await expect(page.getByText('Creator Plan')).toBeVisible();
  await page.screenshot({ path: '/tmp/shots/billing-editor-chip.png' });
});

test('the monthly/annual switch changes the prices of the plan cards', async ({ page, request }) => {
  await signedInUser(page, request);
  await openHome(page);
  const tab = await openSubscriptionTab(page);
  await expect(tab.getByTestId('subscription-plan-creator')).toContainText('$12/month');
  await tab.getByRole('switch', { name: 'Annual billing' }).click();
  await expect(tab.getByTestId('subscription-plan-creator')).toContainText('$120/year');
  await expect(tab.getByTestId('subscription-plan-professional')).toContainText('$240/year');
});

test('the cancel page explains and its buttons go to the dashboard and the plans', async ({ page }) => {
  await page.goto('/subscription-cancel');
  await expect(page.getByRole('heading', { name: 'Payment Cancelled' })).toBeVisible();
  await expect(
    page.getByText('No worries! Your payment was cancelled and no charges were made to your account.'),
  ).toBeVisible();
  await page.screenshot({ path: '/tmp/shots/billing-cancel.png' });
  await page.getByRole('link', { name: 'Back to Dashboard' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/subscription-cancel');
  await page.getByRole('link', { name: 'View Plans Again' }).click();
  await expect(page).toHaveURL(/\/#pricing$/);
  await expect(page.locator('#pricing')).toBeVisible();
});

test('a signed-in writer clicks Creator in the pricing section and goes to the checkout URL', async ({
  page,
  request,
}) => {
  await signedInUser(page, request);
  let url = '';
  await page.route('**/api/stripe/create-checkout-session', async (route) => {
    const response = await route.fetch();
    url = ((await response.json()) as { url: string }).url;
    await route.fulfill({ response });
  });
  await openHome(page, '/#pricing');
  const pricing = page.locator('#pricing');
  await expect(pricing).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Back to Dashboard' })).toBeVisible();
  await pricing.getByRole('button', { name: /Creator plan$/ }).click();
  await expect.poll(() => url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/pay\/cs_test_/);
  await page.waitForURL(url);
  await expect(page.getByText('price_e2e_creator_monthly')).toBeVisible();
});
