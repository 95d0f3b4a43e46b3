import type { Page } from '@playwright/test';
import { expect, openHome, shoot, test, TEST_PASSWORD, testClientAddress } from './fixtures';

/** Account settings → Profile: where the account is signed in, signing a device out, changing the password. */

async function openSettings(page: Page) {
  await page.getByRole('button', { name: 'Account settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Account Settings' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('the sessions list shows both browsers; signing the other one out ends it on its next request', async ({
  page,
  browser,
  users,
}) => {
  test.setTimeout(120_000); // two browsers, each signing in
  const user = await users.create({ prefix: 'sessions' });
  await users.login(user);
  await openHome(page);
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();

  // A second browser signs in through the dialog, as a person on another computer would.
  const laptop = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': testClientAddress() } });
  const other = await laptop.newPage();
  await openHome(other);
  await other.getByRole('button', { name: 'Sign in' }).first().click();
  const signIn = other.getByRole('dialog');
  await signIn.getByLabel('Email').fill(user.email);
  await signIn.getByLabel('Password').fill(TEST_PASSWORD);
  await signIn.getByRole('button', { name: 'Sign In' }).click();
  await expect(other.getByRole('heading', { name: 'Your Documents' })).toBeVisible();

  const dialog = await openSettings(page);
  const rows = dialog.getByTestId('session-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'This device' })).toHaveCount(1);
  const otherRow = rows.filter({ hasNotText: 'This device' });
  await expect(otherRow).toContainText('Chrome on Linux');
  await expect(otherRow).toContainText('Last active');
  await dialog.getByRole('heading', { name: "Where you're signed in" }).scrollIntoViewIfNeeded();
  await shoot(page, 'settings-sessions', 1280);
  await shoot(page, 'settings-sessions', 390);
  await page.setViewportSize({ width: 1280, height: 800 });

  await otherRow.getByRole('button', { name: 'Sign out Chrome on Linux' }).click();
  await expect(page.getByText('Signed out', { exact: true })).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('This device');
  await expect(dialog.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();

  // The other browser's next request is refused and it is signed out.
  await other.reload();
  await expect(other.getByRole('button', { name: 'Get started' }).first()).toBeVisible();
  await expect(other.getByRole('heading', { name: 'Your Documents' })).toHaveCount(0);
  // This one is still signed in.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
  await laptop.close();
});

test('changing the password asks for the current one and shows the server refusing a wrong one', async ({
  page,
  users,
}) => {
  const user = await users.create({ prefix: 'password' });
  await users.login(user);
  await openHome(page);
  const settings = await openSettings(page);
  await settings.getByRole('button', { name: 'Change password' }).click();

  const dialog = page.getByRole('dialog', { name: 'Change password' });
  await expect(dialog.getByLabel('Current password')).toHaveAttribute('required', '');
  await dialog.getByLabel('Current password').fill('not-my-password-42');
  await dialog.getByLabel('New password', { exact: true }).fill('a-brand-new-passphrase-7');
  await dialog.getByLabel('Confirm new password').fill('a-brand-new-passphrase-7');
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Current password is incorrect.');
  await shoot(page, 'settings-change-password-wrong', 1280);
  await page.setViewportSize({ width: 1280, height: 800 });

  await dialog.getByLabel('Current password').fill(TEST_PASSWORD);
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed', { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();

  const signIn = (password: string) =>
    page.request.post('/api/auth/token?grant_type=password', { data: { email: user.email, password } });
  expect((await signIn('a-brand-new-passphrase-7')).status()).toBe(200);
  expect((await signIn(TEST_PASSWORD)).status()).toBe(400);
  // Still signed in here.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
});

test('while the instance has no admin, the profile tab takes the setup code and shows the server refusing a wrong one', async ({
  page,
  users,
}) => {
  const user = await users.create({ prefix: 'claim' });
  await users.login(user);
  // The e2e server already has its admin; this browser is shown the answer of a fresh instance.
  await page.route('**/api/auth/setup', (route) =>
    route.request().method() === 'GET' ? route.fulfill({ json: { has_admin: false } }) : route.fallback(),
  );
  await openHome(page);
  const dialog = await openSettings(page);
  await expect(dialog.getByRole('heading', { name: 'This instance has no admin yet' })).toBeVisible();
  await dialog.getByLabel('Setup code').fill('AAAAA-BBBBB-CCCCC');
  await dialog.getByRole('button', { name: 'Become admin' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'This setup code is not valid or has already been used.',
  );
  await shoot(page, 'settings-setup-code', 1280);
});
