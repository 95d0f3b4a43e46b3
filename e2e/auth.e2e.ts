import { expect, openHome, shoot, test, TEST_PASSWORD, uniqueEmail } from './fixtures';

/**
 * The auth dialog and the signed-in/out states, as a visitor does it: through the dialog, with the real
 * server.
 */

test('a visitor signs up through the dialog, signs out and signs in again', async ({ page }) => {
  const email = uniqueEmail('signup');
  await openHome(page);
  await page.getByRole('button', { name: 'Get started' }).first().click();

  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await shoot(page, 'auth-dialog-signup', 390);
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(dialog.getByLabel('Email')).toHaveAttribute('type', 'email');
  for (const label of ['Full name', 'Email', 'Password']) {
    await expect(dialog.getByLabel(label, { exact: true })).toHaveAttribute('required', '');
  }

  // Switching mode clears the fields.
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await expect(dialog.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await expect(dialog.getByLabel('Email')).toHaveValue('');
  await dialog.getByRole('button', { name: 'Sign up' }).click();

  // A weak password is refused with the server's reasons, shown in the dialog.
  await dialog.getByLabel('Full name').fill('Ada Lovelace');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Password').fill('password');
  await dialog.getByRole('button', { name: 'Create Account' }).click();
  const problem = dialog.getByRole('alert');
  await expect(problem).toBeVisible();
  await expect(problem.getByRole('listitem').first()).toBeVisible();
  // Said once, in the dialog: no toast repeats it.
  await expect(page.getByRole('status').filter({ hasText: 'Authentication failed' })).toHaveCount(0);
  await shoot(page, 'auth-dialog-weak-password', 1280);

  await dialog.getByLabel('Password').fill(TEST_PASSWORD);
  await dialog.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
  await expect(page.getByTestId('user-email')).toHaveText(email);

  // The session survives a reload.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();

  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.getByText('Signed out successfully', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Get started' }).first()).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('quillwright.auth.session'))).toBeNull();

  // A wrong password is refused in the dialog.
  await page.getByRole('button', { name: 'Sign in' }).first().click();
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Password').fill('not-the-password-123');
  await dialog.getByRole('button', { name: 'Sign In' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Invalid login credentials');

  await dialog.getByLabel('Password').fill(TEST_PASSWORD);
  await dialog.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Welcome back!', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
  await expect(dialog).toBeHidden();
});

test('a user resets a forgotten password through the e-mailed link', async ({ page, users, outbox }) => {
  const user = await users.create({ prefix: 'reset' });
  await openHome(page);
  await page.getByRole('button', { name: 'Sign in' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(dialog.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await shoot(page, 'auth-dialog-reset', 1280);
  await expect(dialog.getByLabel('Password')).toHaveCount(0);
  await dialog.getByLabel('Email').fill(user.email);
  await dialog.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Reset link sent', { exact: true })).toBeVisible();

  const mail = await outbox.waitFor(user.email, 'recovery');
  const link = new URL(mail.link);
  expect(link.pathname).toBe('/reset-password');
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await shoot(page, 'reset-password', 1280);
  await shoot(page, 'reset-password', 390);

  const newPassword = 'amber-meadow-compass-91';
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  // The link works once.
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.getByText('Signed out successfully', { exact: true })).toBeVisible();
  await page.goto(link.pathname + link.search);
  await page.getByLabel('New password', { exact: true }).fill('another-fresh-secret-77');
  await page.getByLabel('Confirm new password').fill('another-fresh-secret-77');
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page.getByRole('heading', { name: 'This link has expired' })).toBeVisible();
  await shoot(page, 'reset-password-expired', 390);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The old password no longer works; the new one does.
  await openHome(page);
  await page.getByRole('button', { name: 'Sign in' }).first().click();
  await dialog.getByLabel('Email').fill(user.email);
  await dialog.getByLabel('Password').fill(user.password);
  await dialog.getByRole('button', { name: 'Sign In' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Invalid login credentials');
  await dialog.getByLabel('Password').fill(newPassword);
  await dialog.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
});

test('signing out in one tab signs out the other tabs too', async ({ page, context, users }) => {
  const user = await users.create({ prefix: 'tabs' });
  await users.login(user);
  await openHome(page);
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
  const other = await context.newPage();
  await openHome(other);
  await expect(other.getByRole('heading', { name: 'Your Documents' })).toBeVisible();

  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.getByRole('button', { name: 'Get started' }).first()).toBeVisible();
  // The other tab follows through the storage event, without a reload.
  await expect(other.getByRole('button', { name: 'Get started' }).first()).toBeVisible();
  await expect(other.getByRole('heading', { name: 'Your Documents' })).toHaveCount(0);
});
