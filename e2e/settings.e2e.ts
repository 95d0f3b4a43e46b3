import { expect, openHome, shoot, test } from './fixtures';

/** The account settings dialog: changes are saved on the server and apply app-wide. */

async function openSettings(page: import('@playwright/test').Page) {
  await page.getByRole('button', { name: 'Account settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Account Settings' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('preferences and notifications persist after a reload', async ({ page, users }) => {
  const user = await users.create({ prefix: 'settings' });
  await users.login(user);
  await openHome(page);
  let dialog = await openSettings(page);
  await shoot(page, 'settings-profile', 1280);
  await shoot(page, 'settings-profile', 390);
  await page.setViewportSize({ width: 1280, height: 800 });

  await dialog.getByRole('tab', { name: 'Preferences' }).click();
  await dialog.getByRole('combobox', { name: 'Font family' }).click();
  await page.getByRole('option', { name: 'Serif' }).click();
  await expect(dialog.getByTestId('settings-save-status')).toHaveText('All changes saved');
  await dialog.getByRole('switch', { name: 'Focus mode by default' }).click();
  await expect(dialog.getByRole('switch', { name: 'Focus mode by default' })).toBeChecked();
  await expect(dialog.getByTestId('settings-save-status')).toHaveText('All changes saved');
  await shoot(page, 'settings-preferences', 1280);
  await shoot(page, 'settings-preferences', 390);
  await page.setViewportSize({ width: 1280, height: 800 });

  await dialog.getByRole('tab', { name: 'Notifications' }).click();
  await dialog.getByRole('switch', { name: 'Marketing emails' }).click();
  await expect(dialog.getByTestId('settings-save-status')).toHaveText('All changes saved');
  await shoot(page, 'settings-notifications', 1280);
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.reload();
  dialog = await openSettings(page);
  await dialog.getByRole('tab', { name: 'Preferences' }).click();
  await expect(dialog.getByRole('combobox', { name: 'Font family' })).toHaveText('Serif');
  await expect(dialog.getByRole('switch', { name: 'Focus mode by default' })).toBeChecked();
  await expect(dialog.getByRole('switch', { name: 'Auto-save' })).toBeChecked();
  await dialog.getByRole('tab', { name: 'Notifications' }).click();
  await expect(dialog.getByRole('switch', { name: 'Marketing emails' })).toBeChecked();
  await expect(dialog.getByRole('switch', { name: 'Security alerts' })).toBeChecked();

  // Saved on the server: the API answers the same for the user.
  const res = await users.api(user).get('/api/me/settings');
  expect(await res.json()).toMatchObject({
    preferences: { fontFamily: 'serif', focusModeDefault: true, autoSave: true },
    notifications: { marketing: true, updates: true, security: true },
  });
});

test('choosing the dark theme turns the whole app dark at once, and it follows the user', async ({
  page,
  users,
  browser,
}) => {
  const user = await users.create({ prefix: 'theme' });
  await users.login(user);
  await page.emulateMedia({ colorScheme: 'light' });
  await openHome(page);
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const lightness = async () => {
    // Chromium reports oklch() for these tokens; resolve any colour to sRGB with a canvas.
    return page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 1;
      const ctx = canvas.getContext('2d')!;
      ctx.fillStyle = getComputedStyle(document.body).backgroundColor;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
      return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
    });
  };
  expect(await lightness()).toBeGreaterThan(0.9);
  const lightBackground = await background();

  const dialog = await openSettings(page);
  await dialog.getByRole('tab', { name: 'Preferences' }).click();
  await dialog.getByRole('radio', { name: 'Dark' }).click();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  expect(await lightness()).toBeLessThan(0.2);
  expect(await background()).not.toBe(lightBackground);
  await expect(dialog.getByTestId('settings-save-status')).toHaveText('All changes saved');
  await shoot(page, 'settings-dark', 1280);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.keyboard.press('Escape');
  await shoot(page, 'dashboard-dark', 1280);
  await shoot(page, 'dashboard-dark', 390);

  // After a reload the page is dark from the first paint (cached theme applied before the app runs).
  await page.reload({ waitUntil: 'commit' });
  await page.waitForSelector('html.dark', { state: 'attached' });
  expect(await lightness()).toBeLessThan(0.2);

  // Another browser (fresh storage) signed in as the same user gets the saved theme from the server.
  const other = await browser.newContext({ colorScheme: 'light' });
  const second = await other.newPage();
  await second.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [
    'quillwright.auth.session',
    JSON.stringify(user.session),
  ] as const);
  await openHome(second);
  await expect(second.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
  await expect(second.locator('html')).toHaveClass(/\bdark\b/);
  await other.close();
});

test('the profile tab saves the display name, and the e-mail once the link sent to it is opened', async ({
  page,
  users,
  outbox,
}) => {
  const user = await users.create({ prefix: 'profile', fullName: 'Old Name' });
  await users.login(user);
  await openHome(page);
  const dialog = await openSettings(page);
  await expect(dialog.getByLabel('Display name')).toHaveValue('Old Name');
  await expect(dialog.getByLabel('Email')).toHaveValue(user.email);

  const newEmail = user.email.replace('profile-', 'renamed-');
  await dialog.getByLabel('Display name').fill('Grace Hopper');
  await dialog.getByLabel('Email').fill(newEmail);
  // A new address needs the current password (a copied session alone cannot take the account).
  await dialog.getByLabel('Current password').fill(user.password);
  await dialog.getByRole('button', { name: 'Save Profile' }).click();
  await expect(page.getByText('Check your email', { exact: true })).toBeVisible();
  await expect(page.getByTestId('user-email')).toHaveText(user.email);
  // The old address is told; the new one gets the link (in the outbox without an SMTP server).
  expect((await outbox.waitFor(user.email, 'email_change_notice')).text).toContain(newEmail);
  const link = new URL((await outbox.waitFor(newEmail, 'email_change')).link);
  await page.goto(link.pathname + link.search);
  await expect(page.getByTestId('user-email')).toHaveText(newEmail);

  await page.reload();
  const again = await openSettings(page);
  await expect(again.getByLabel('Display name')).toHaveValue('Grace Hopper');
  await expect(again.getByLabel('Email')).toHaveValue(newEmail);
  const me = await users.api(user).get('/api/auth/user');
  expect(await me.json()).toMatchObject({ email: newEmail, user_metadata: { full_name: 'Grace Hopper' } });

  // Sign Out from the profile tab.
  await again.getByRole('button', { name: 'Sign Out', exact: true }).click();
  await expect(page.getByText('Signed out successfully', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Get started' }).first()).toBeVisible();
});

test('the settings dialog keeps one size on every tab, its tabs are labelled on a phone, and Gratis is the active plan', async ({
  page,
  users,
}) => {
  const user = await users.create({ prefix: 'settings-frame' });
  await users.login(user);
  await openHome(page);
  const dialog = await openSettings(page);
  const tabs = ['Profile', 'Preferences', 'Subscription', 'Notifications', 'AI commands', 'API tokens'];
  const sizes = new Set<string>();
  for (const tab of tabs) {
    await dialog.getByRole('tab', { name: tab }).click();
    await expect(dialog.getByRole('tabpanel')).toBeVisible();
    await expect(dialog.locator('[aria-busy="true"]')).toHaveCount(0);
    const box = await dialog.boundingBox();
    sizes.add(`${Math.round(box!.width)}×${Math.round(box!.height)}`);
    if (tab === 'Subscription') {
      await expect(dialog.getByTestId('current-plan-badge')).toHaveText('Gratis');
      await expect(dialog.getByTestId('subscription-status')).toHaveText('Active');
      await shoot(page, 'settings-subscription', 1280);
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  }
  expect([...sizes]).toHaveLength(1);

  // On a phone every tab shows its name beside its icon, inside the tab's own box.
  await page.setViewportSize({ width: 390, height: 844 });
  const phoneSizes = new Set<string>();
  for (const tab of tabs) {
    const trigger = dialog.getByRole('tab', { name: tab });
    const label = trigger.getByText(tab, { exact: true });
    await expect(label).toBeVisible();
    // The whole name fits (a visually hidden or clipped label would overflow its box).
    expect(await label.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    const [labelBox, triggerBox] = [await label.boundingBox(), await trigger.boundingBox()];
    expect(labelBox!.x).toBeGreaterThanOrEqual(triggerBox!.x);
    expect(labelBox!.x + labelBox!.width).toBeLessThanOrEqual(triggerBox!.x + triggerBox!.width + 0.5);
    await trigger.click();
    await expect(dialog.getByRole('tabpanel')).toBeVisible();
    const box = await dialog.boundingBox();
    phoneSizes.add(`${Math.round(box!.width)}×${Math.round(box!.height)}`);
  }
  expect([...phoneSizes]).toHaveLength(1);
  await dialog.getByRole('tab', { name: 'Profile' }).click();
  await shoot(page, 'settings-tabs', 390);
});
