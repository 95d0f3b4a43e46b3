import type { Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { expect, openHome, shoot, test, testClientAddress } from './fixtures';

/** The trash: deleting moves a document there, Undo and Restore bring it back, deleting for good asks first. */

const paragraph = (text: string) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

async function moveToTrash(page: Page, title: string) {
  const card = page.getByTestId('document-card').filter({ hasText: title });
  await card.hover();
  await card.getByRole('button', { name: `Actions for ${title}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm.getByRole('heading', { name: 'Move to trash?' })).toBeVisible();
  await expect(confirm).toContainText(
    `'${title}' will be moved to the trash. You can restore it from there for 30 days.`,
  );
  await confirm.getByRole('button', { name: 'Move to trash' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('Moved to trash', { exact: true })).toBeVisible();
}

test('a deleted document goes to the trash, comes back with Undo or Restore, and leaves for good only when asked', async ({
  page,
  users,
  browser,
}) => {
  const user = await users.create({ prefix: 'trash' });
  const api = users.api(user);
  expect(
    (
      await api.post('/api/documents', {
        title: 'Harbour notes',
        content: paragraph('The lantern stays lit.'),
      })
    ).status(),
  ).toBe(201);
  expect((await api.post('/api/documents', { title: 'Second draft' })).status()).toBe(201);
  await users.login(user);
  await openHome(page);
  const cards = page.getByTestId('document-card');
  await expect(cards).toHaveCount(2);

  // Delete → the card leaves; Undo brings it back.
  await moveToTrash(page, 'Harbour notes');
  await expect(cards).toHaveCount(1);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('Document restored', { exact: true })).toBeVisible();
  await expect(cards.filter({ hasText: 'Harbour notes' })).toHaveCount(1);

  // Shared by link: while the document is in the trash its visitors are told so.
  const harbourId = (
    (await (await api.get('/api/documents')).json()) as { id: string; title: string }[]
  ).find((d) => d.title === 'Harbour notes')!.id;
  expect((await api.put(`/api/documents/${harbourId}/share`, { isPublic: true })).status()).toBe(200);

  // Delete again, then restore it from the trash page.
  await moveToTrash(page, 'Harbour notes');
  await expect(cards).toHaveCount(1);
  const visitorContext = await browser.newContext({
    extraHTTPHeaders: { 'x-forwarded-for': testClientAddress() },
  });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/shared/${harbourId}`);
  await expect(visitor.getByRole('heading', { name: 'This document is in the trash' })).toBeVisible();
  await expect(
    visitor.getByText('The owner deleted it. If they restore it, this link works again.'),
  ).toBeVisible();
  await page.getByRole('link', { name: 'Trash' }).click();
  await expect(page).toHaveURL(/\/trash$/);
  await expect(page.getByRole('heading', { name: 'Trash', level: 1 })).toBeVisible();
  await expect(
    page.getByText('Deleted documents are kept for 30 days, then deleted for good.'),
  ).toBeVisible();
  const rows = page.getByTestId('trashed-document');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Harbour notes');
  await expect(rows.first()).toContainText('Deleted today');
  await expect(rows.first()).toContainText('Deleted forever in 30 days');
  await expectAccessible(page, 'trash (list)');
  await shoot(page, 'trash-list', 1280);
  await shoot(page, 'trash-list', 390);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Keyboard: Restore is reachable and works with Enter.
  await page.getByRole('button', { name: 'Restore Harbour notes' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Document restored', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'The trash is empty' })).toBeVisible();
  await expectAccessible(page, 'trash (empty)');
  // Restored: the link works again.
  await visitor.reload();
  await expect(visitor.getByText('The lantern stays lit.')).toBeVisible();
  await visitorContext.close();
  await shoot(page, 'trash-empty', 1280);
  await shoot(page, 'trash-empty', 390);
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('link', { name: 'Your Documents' }).click();
  await cards.filter({ hasText: 'Harbour notes' }).getByRole('link', { name: 'Harbour notes' }).click();
  await expect(page).toHaveURL(/\/editor\/[0-9a-f-]{36}$/);
  await expect(page.locator('.ProseMirror')).toContainText('The lantern stays lit.');

  // Delete forever asks first; Empty trash asks too.
  await openHome(page);
  await moveToTrash(page, 'Harbour notes');
  await moveToTrash(page, 'Second draft');
  await expect(cards).toHaveCount(0);
  await page.getByRole('link', { name: 'Trash' }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('Second draft');

  await page.getByRole('button', { name: 'Delete forever: Second draft' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm.getByRole('heading', { name: 'Delete forever?' })).toBeVisible();
  await expect(confirm).toContainText(
    "'Second draft' and its version history will be deleted. This cannot be undone.",
  );
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(rows).toHaveCount(2);
  await page.getByRole('button', { name: 'Delete forever: Second draft' }).click();
  await confirm.getByRole('button', { name: 'Delete forever' }).click();
  await expect(page.getByText('Deleted forever', { exact: true })).toBeVisible();
  await expect(rows).toHaveCount(1);

  await page.getByRole('button', { name: 'Empty trash' }).click();
  await expect(confirm.getByRole('heading', { name: 'Empty trash?' })).toBeVisible();
  await expect(confirm).toContainText('The document in the trash will be deleted. This cannot be undone.');
  await expectAccessible(page, 'trash (empty trash dialog)');
  await shoot(page, 'trash-empty-dialog', 1280);
  await page.setViewportSize({ width: 1280, height: 800 });
  await confirm.getByRole('button', { name: 'Empty trash' }).click();
  await expect(page.getByText('Trash emptied', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'The trash is empty' })).toBeVisible();

  // Gone on the server: the trash is empty and the dashboard has nothing.
  const trash = await api.get('/api/trash');
  expect(((await trash.json()) as { total: number }).total).toBe(0);
  await openHome(page);
  await expect(page.getByRole('heading', { name: 'No documents yet' })).toBeVisible();
});
