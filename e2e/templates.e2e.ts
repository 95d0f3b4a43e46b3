import { format } from 'date-fns';
import { waitForLive } from './editor-helpers';
import { expect, openHome, shoot, test } from './fixtures';

/** Pinned documents and templates on the dashboard, in the quick switcher and in the editor's header. */

const paragraph = (text: string) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

test('a pinned document shows at the top of the dashboard and first in the quick switcher', async ({
  page,
  users,
}) => {
  const user = await users.create({ prefix: 'pins' });
  const api = users.api(user);
  for (const title of ['Old letters', 'Garden plan', 'Newest note']) {
    expect(
      (await api.post('/api/documents', { title, content: paragraph(`About ${title}.`) })).status(),
    ).toBe(201);
  }
  await users.login(user);
  await openHome(page);
  await expect(page.getByTestId('document-card')).toHaveCount(3);
  await expect(page.getByRole('list', { name: 'Pinned documents' })).toHaveCount(0);

  const card = page.getByTestId('document-card').filter({ hasText: 'Old letters' });
  await card.hover();
  await card.getByRole('button', { name: 'Actions for Old letters' }).click();
  await page.getByRole('menuitem', { name: 'Pin' }).click();

  const pinned = page.getByRole('list', { name: 'Pinned documents' });
  await expect(pinned.getByTestId('document-card')).toHaveText(/Old letters/);
  await expect(
    page.getByRole('list', { name: 'Documents', exact: true }).getByTestId('document-card'),
  ).toHaveCount(2);
  await shoot(page, 'dashboard-pinned', 1280);

  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Pinned and recent documents')).toBeVisible();
  await expect(dialog.getByRole('option').first()).toContainText('Old letters');
  await expect(dialog.getByRole('option').nth(1)).toContainText('Newest note');
  await shoot(page, 'quick-switcher-pinned', 1280);
  await page.keyboard.press('Escape');

  // Unpinning from the editor's Document actions menu puts it back in date order.
  await pinned.getByRole('link', { name: 'Old letters' }).click();
  await waitForLive(page);
  await page.getByRole('button', { name: 'Document actions' }).click();
  await page.getByRole('menuitem', { name: 'Unpin document' }).click();
  await expect(page.getByText('Unpinned', { exact: true })).toBeVisible();
  await page.goBack();
  await expect(page.getByTestId('document-card')).toHaveCount(3);
  await expect(page.getByRole('list', { name: 'Pinned documents' })).toHaveCount(0);
  await expect(page.getByTestId('document-card').last()).toContainText('Old letters');
});

test('a document from a built-in template has its variables filled', async ({ page, users }) => {
  const user = await users.create({ prefix: 'tmpl' });
  await users.login(user);
  await openHome(page);
  await page.getByRole('button', { name: 'New from template' }).click();
  const dialog = page.getByRole('dialog', { name: 'New from template' });
  await dialog.getByRole('radio', { name: 'Novel chapter' }).click();
  await expect(dialog.getByTestId('template-preview')).toContainText('Scene outline');
  await dialog.getByLabel('Title').fill('Chapter 7: Low Tide');
  await shoot(page, 'new-from-template', 1280);
  await shoot(page, 'new-from-template', 390);
  await page.setViewportSize({ width: 1280, height: 800 });
  await dialog.getByRole('button', { name: 'Create document' }).click();

  await expect(page).toHaveURL(/\/editor\/[0-9a-f-]{36}$/);
  await waitForLive(page);
  const body = page.locator('.ProseMirror');
  await expect(body.getByRole('heading', { name: 'Scene outline' })).toBeVisible();
  const today = format(new Date(), 'MMMM d, yyyy');
  await expect(body).toContainText(`Draft begun ${today}`);
  await expect(body).not.toContainText('{{');
  await expect(page.getByTestId('title-input')).toHaveValue('Chapter 7: Low Tide');
  await shoot(page, 'from-template-editor', 1280);
});

test('a document saved as a template makes new documents', async ({ page, users }) => {
  const user = await users.create({ prefix: 'mine' });
  const api = users.api(user);
  const created = await api.post('/api/documents', {
    title: 'Standup {{date}}',
    content: paragraph('Yesterday, today, blockers for {{title}}.'),
  });
  const { id } = (await created.json()) as { id: string };
  await users.login(user);
  await page.goto(`/editor/${id}`);
  await waitForLive(page);

  await page.getByRole('button', { name: 'Document actions' }).click();
  await page.getByRole('menuitem', { name: 'Save as template' }).click();
  const save = page.getByRole('dialog', { name: 'Save as template' });
  await save.getByLabel('Template name').fill('Daily standup');
  await shoot(page, 'save-as-template', 1280);
  await save.getByRole('button', { name: 'Save template' }).click();
  await expect(page.getByText('Saved as template', { exact: true })).toBeVisible();

  await openHome(page);
  await page.getByRole('button', { name: 'New from template' }).click();
  const dialog = page.getByRole('dialog', { name: 'New from template' });
  await dialog.getByRole('radio', { name: 'Daily standup' }).click();
  await expect(dialog.getByTestId('template-preview')).toHaveText(
    'Yesterday, today, blockers for {{title}}.',
  );
  const today = format(new Date(), 'MMMM d, yyyy');
  await expect(dialog.getByLabel('Title')).toHaveAttribute('placeholder', `Standup ${today}`);
  await dialog.getByLabel('Title').fill('Team Kestrel');
  await dialog.getByRole('button', { name: 'Create document' }).click();
  await expect(page).toHaveURL(/\/editor\/[0-9a-f-]{36}$/);
  await waitForLive(page);
  await expect(page.locator('.ProseMirror')).toContainText('Yesterday, today, blockers for Team Kestrel.');

  // The quick switcher offers it too.
  await page.keyboard.press('Control+k');
  await page.getByRole('option', { name: 'New from template…' }).click();
  await expect(page.getByRole('dialog', { name: 'New from template' })).toBeVisible();
  await expect(page).toHaveURL(/\/\?new=template$/);
});
