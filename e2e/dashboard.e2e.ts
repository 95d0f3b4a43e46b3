import { expect, openHome, shoot, test } from './fixtures';

/** The dashboard and its document list, through the UI of a signed-in writer. */

test('a new user sees the empty state, creates a document, finds its card and moves it to the trash', async ({
  page,
  users,
}) => {
  const user = await users.create({ prefix: 'dash' });
  await users.login(user);
  await openHome(page);

  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
  await expect(page.getByText('Create and manage your writing projects')).toBeVisible();
  await expect(page.getByTestId('user-email')).toHaveText(user.email);
  await expect(page.getByRole('heading', { name: 'No documents yet' })).toBeVisible();
  await expect(page.getByText('Create your first document to get started')).toBeVisible();
  await shoot(page, 'dashboard-empty', 1280);
  await shoot(page, 'dashboard-empty', 390);
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('button', { name: 'Create Document' }).click();
  await expect(page.getByText('Document created', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/editor\/[0-9a-f-]{36}$/);
  const id = page.url().split('/').pop();

  await openHome(page);
  const card = page.getByTestId('document-card');
  await expect(card).toHaveCount(1);
  await expect(card.getByRole('link', { name: 'Untitled Document' })).toHaveAttribute(
    'href',
    `/editor/${id}`,
  );
  await expect(card.locator('time')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4} at \d{2}:\d{2}$/);

  // A second document through the API: the grid shows both, newest first.
  const second = await users.api(user).post('/api/documents', { title: 'Chapter Two' });
  expect(second.status()).toBe(201);
  await page.reload();
  await expect(card).toHaveCount(2);
  await expect(card.first()).toContainText('Chapter Two');
  await shoot(page, 'dashboard-grid', 1280);
  await shoot(page, 'dashboard-grid', 390);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Keyboard: the card's menu is reachable with Tab and opens with Enter.
  const target = card.filter({ hasText: 'Chapter Two' });
  await target.getByRole('link', { name: 'Chapter Two' }).focus();
  await page.keyboard.press('Tab');
  await expect(target.getByRole('button', { name: 'Actions for Chapter Two' })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'Delete' }).click();

  const confirm = page.getByRole('alertdialog');
  await expect(confirm.getByRole('heading', { name: 'Move to trash?' })).toBeVisible();
  await expect(confirm).toContainText(
    "'Chapter Two' will be moved to the trash. You can restore it from there for 30 days.",
  );
  await shoot(page, 'dashboard-delete-dialog', 1280);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Cancel keeps it.
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(card).toHaveCount(2);

  await target.hover();
  await target.getByRole('button', { name: 'Actions for Chapter Two' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await confirm.getByRole('button', { name: 'Move to trash' }).click();
  await expect(page.getByText('Moved to trash', { exact: true })).toBeVisible();
  await expect(card).toHaveCount(1);
  await expect(card).not.toContainText('Chapter Two');

  // Gone from the server's list too.
  await page.reload();
  await expect(card).toHaveCount(1);

  // Clicking a card opens the editor.
  await card.first().click();
  await expect(page).toHaveURL(new RegExp(`/editor/${id}$`));
});

test('the dashboard shows six placeholder cards while the list loads', async ({ page, users }) => {
  const user = await users.create({ prefix: 'skeleton' });
  await users.login(user);
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  // The dashboard's list comes from the library endpoint (sorted, paged, with previews).
  await page.route('**/api/search/documents*', async (route) => {
    await held;
    await route.continue();
  });
  await openHome(page);
  await expect(page.getByTestId('document-skeleton')).toHaveCount(6);
  await shoot(page, 'dashboard-loading', 1280);
  release();
  await expect(page.getByRole('heading', { name: 'No documents yet' })).toBeVisible();
  await expect(page.getByTestId('document-skeleton')).toHaveCount(0);
});

test('a failed creation shows the destructive toast with the server message', async ({ page, users }) => {
  const user = await users.create({ prefix: 'failing' });
  await users.login(user);
  await page.route('**/api/documents', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    await route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'The database is unavailable', code: 'unavailable' }),
    });
  });
  await openHome(page);
  const button = page.getByRole('button', { name: 'New Document' });
  await button.click();
  await expect(page.getByText('Error creating document', { exact: true })).toBeVisible();
  await expect(page.getByText('The database is unavailable', { exact: true })).toBeVisible();
  await expect(button).toBeEnabled();
  await expect(page).toHaveURL(/\/$/);
});

test('over the plan limit, creation explains why and offers an upgrade', async ({ page, users }) => {
  const user = await users.create({ prefix: 'limit' });
  // Gratis allows 3 documents (docs/product-rules.md#limits) when billing is configured, as it is for the e2e
  // server.
  for (let i = 1; i <= 3; i++) {
    const created = await users.api(user).post('/api/documents', { title: `Draft ${i}` });
    expect(created.status()).toBe(201);
  }
  await users.login(user);
  await openHome(page);
  await expect(page.getByTestId('document-card')).toHaveCount(3);

  await page.getByRole('button', { name: 'New Document' }).click();
  const toast = page.getByRole('status').filter({ hasText: 'Error creating document' });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText(/plan/i);
  await shoot(page, 'dashboard-plan-limit', 1280);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: 'Upgrade' }).click();

  const dialog = page.getByRole('dialog', { name: 'Account Settings' });
  await expect(dialog.getByRole('tab', { name: 'Subscription' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('document-card')).toHaveCount(3);
});

test('a title changed in the editor is on the dashboard at once, in its new place; search counts its results', async ({
  page,
  users,
}) => {
  const user = await users.create({ prefix: 'rename' });
  for (const title of ['Apples', 'Bananas', 'Cherries']) {
    expect((await users.api(user).post('/api/documents', { title })).status()).toBe(201);
  }
  await users.login(user);
  await openHome(page);
  const titles = page.getByTestId('document-card').getByRole('link');
  await expect(titles).toHaveText(['Cherries', 'Bananas', 'Apples']);

  await page.getByRole('link', { name: 'Apples' }).click();
  const title = page.getByTestId('title-input');
  await expect(title).toHaveValue('Apples');
  await title.fill('Zucchini bread');
  await expect(page.getByTestId('save-status').first()).toHaveText('Saved', { timeout: 15_000 });

  // Back to the dashboard with its list held at the server: what shows comes from what the app already knows.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/search/documents*', async (route) => {
    await held;
    await route.continue();
  });
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
  await expect(titles).toHaveText(['Zucchini bread', 'Cherries', 'Bananas']);
  release();
  await expect(titles).toHaveText(['Zucchini bread', 'Cherries', 'Bananas']);

  // The count beside the search box counts the results shown, not the whole library.
  const count = page.getByTestId('document-count');
  await expect(count).toHaveText('3 documents');
  await page.getByRole('searchbox', { name: 'Search documents' }).fill('Bananas');
  const results = page.getByRole('list', { name: 'Search results' }).getByRole('listitem');
  await expect(results).toHaveCount(1);
  await expect(count).toHaveText('1 document');
  await shoot(page, 'dashboard-search-count', 1280);
});

test('an empty new document claims no reading time', async ({ page, users }) => {
  const user = await users.create({ prefix: 'empty-read' });
  await users.login(user);
  await openHome(page);
  await page.getByRole('button', { name: 'Create Document' }).click();
  await expect(page).toHaveURL(/\/editor\/[0-9a-f-]{36}$/);
  const counts = page.getByTestId('live-counts');
  await expect(counts).toContainText('0 words');
  await expect(counts).not.toContainText('1 min read');
  await expect(page.getByText(/\b1 min\b/)).toHaveCount(0);
});
