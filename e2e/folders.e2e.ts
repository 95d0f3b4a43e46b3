import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { expect, openHome, shoot, test } from './fixtures';

/**
 * Folders on the dashboard: make one, drag documents into it and reorder them, move one with the keyboard's
 * Move to… dialog, follow the editor's breadcrumbs back, delete the folder and restore it from the trash.
 */

const paragraph = (text: string) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

const tree = (page: Page) => page.getByTestId('folder-tree');
const folderButton = (page: Page, name: string) =>
  tree(page).getByRole('button', { name: new RegExp(`^${name}\\b`) });
const card = (page: Page, title: string) => page.getByTestId('document-card').filter({ hasText: title });
const cardTitles = (page: Page) => page.getByTestId('document-card').getByRole('heading').allTextContents();

test('folders: make, fill by dragging, reorder, move by keyboard, breadcrumbs, delete and restore', async ({
  page,
  users,
}) => {
  const user = await users.create({ prefix: 'folders' });
  const api = users.api(user);
  const ids: Record<string, string> = {};
  for (const title of ['Chapter one', 'Chapter two', 'Notes']) {
    const res = await api.post('/api/documents', { title, content: paragraph(`${title} begins here.`) });
    expect(res.status()).toBe(201);
    ids[title] = ((await res.json()) as { id: string }).id;
  }
  expect(
    (await api.post(`/api/documents/${ids['Chapter one']}/versions`, { name: 'First pass' })).status(),
  ).toBe(201);
  await users.login(user);
  await openHome(page);
  await expect(page.getByTestId('document-card')).toHaveCount(3);

  // A new folder: named in a dialog, then shown (empty).
  await tree(page).getByRole('button', { name: 'New folder' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'New folder' })).toBeVisible();
  await dialog.getByLabel('Folder name').fill('Novel');
  await dialog.getByLabel('Folder name').press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\?folder=/);
  await expect(page.getByTestId('folder-heading')).toHaveText('Novel');
  await expect(page.getByText('This folder is empty')).toBeVisible();

  // Two documents dragged onto the folder.
  await tree(page)
    .getByRole('button', { name: /^All documents/ })
    .click();
  await expect(page.getByTestId('document-card')).toHaveCount(3);
  for (const title of ['Chapter one', 'Chapter two']) {
    await card(page, title).dragTo(folderButton(page, 'Novel'));
    await expect(page.getByText('Moved to Novel', { exact: true }).first()).toBeVisible();
  }
  await expect(folderButton(page, 'Novel')).toContainText('2');

  // Inside the folder, in the order they came; dragging the second onto the first puts it first.
  await folderButton(page, 'Novel').click();
  await expect(page.getByTestId('document-card')).toHaveCount(2);
  await expect.poll(() => cardTitles(page)).toEqual(['Chapter one', 'Chapter two']);
  await card(page, 'Chapter two').dragTo(card(page, 'Chapter one'));
  await expect.poll(() => cardTitles(page)).toEqual(['Chapter two', 'Chapter one']);
  // The menu's Move down does the same without a mouse.
  await card(page, 'Chapter two').hover();
  await card(page, 'Chapter two').getByRole('button', { name: 'Actions for Chapter two' }).click();
  await page.getByRole('menuitem', { name: 'Move down' }).click();
  await expect.poll(() => cardTitles(page)).toEqual(['Chapter one', 'Chapter two']);

  // Move to… by keyboard: the card's menu, then the dialog's places with the arrow keys.
  await tree(page)
    .getByRole('button', { name: /^All documents/ })
    .click();
  await expect(page.getByTestId('document-card')).toHaveCount(3);
  const notesMenu = card(page, 'Notes').getByRole('button', { name: 'Actions for Notes' });
  await notesMenu.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Move to…' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Move to…' }).focus();
  await page.keyboard.press('Enter');
  const move = page.getByRole('dialog');
  await expect(move.getByRole('heading', { name: 'Move to…' })).toBeVisible();
  await expect(move.getByRole('radio', { name: 'No folder (top level)' })).toBeChecked();
  await move.getByRole('radio', { name: 'No folder (top level)' }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(move.getByRole('radio', { name: 'Novel' })).toBeChecked();
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    if (
      await move
        .getByRole('button', { name: 'Move', exact: true })
        .evaluate((b) => b === document.activeElement)
    )
      break;
  }
  await expect(move.getByRole('button', { name: 'Move', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(move).toBeHidden();
  await expect(folderButton(page, 'Novel')).toContainText('3');

  await folderButton(page, 'Novel').click();
  await expect(page.getByTestId('document-card')).toHaveCount(3);
  await page.mouse.move(0, 0);
  await shoot(page, 'folders-dashboard', 1280);
  await shoot(page, 'folders-dashboard', 390);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The editor's breadcrumbs: Documents › Novel › Chapter one; the folder's crumb leads back to it.
  await card(page, 'Chapter one').getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/editor/${ids['Chapter one']}`));
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs.getByRole('link', { name: 'Novel' })).toBeVisible();
  await expect(crumbs.getByTestId('breadcrumb-title')).toHaveText('Chapter one');
  await shoot(page, 'folders-editor', 390);
  await expect(crumbs.getByRole('link', { name: 'Novel' })).toBeVisible();
  await shoot(page, 'folders-editor', 1280);
  await crumbs.getByRole('link', { name: 'Novel' }).click();
  await expect(page.getByTestId('folder-heading')).toHaveText('Novel');
  await expect(page.getByTestId('document-card')).toHaveCount(3);

  // Deleting the folder asks first and takes its documents to the trash with it.
  await folderButton(page, 'Novel').hover();
  await tree(page).getByRole('button', { name: 'Actions for folder Novel' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm.getByRole('heading', { name: 'Delete folder?' })).toBeVisible();
  await expect(confirm).toContainText(
    "'Novel' and everything in it, its sub-folders and documents, will be moved",
  );
  await confirm.getByRole('button', { name: 'Move to trash' }).click();
  await expect(confirm).toBeHidden();
  await expect(page).not.toHaveURL(/\?folder=/);
  await expect(folderButton(page, 'Novel')).toHaveCount(0);
  await expect(page.getByText('No documents yet')).toBeVisible();

  // The trash shows the folder with what went with it; restoring brings all of it back.
  await page.getByRole('link', { name: 'Trash' }).click();
  const trashed = page.getByTestId('trashed-folder');
  await expect(trashed).toHaveCount(1);
  await expect(trashed).toContainText('Novel');
  await expect(trashed).toContainText('3 documents');
  await expect(page.getByTestId('trashed-document')).toHaveCount(0);
  await shoot(page, 'folders-trash', 1280);
  await trashed.getByRole('button', { name: 'Restore Novel' }).click();
  await expect(page.getByText('Folder restored', { exact: true })).toBeVisible();
  await expect(trashed).toHaveCount(0);
  await expect(page.getByText('The trash is empty')).toBeVisible();

  await page.getByRole('link', { name: 'Your Documents' }).click();
  await folderButton(page, 'Novel').click();
  await expect.poll(() => cardTitles(page)).toEqual(['Chapter one', 'Chapter two', 'Notes']);
  const versions = (await (await api.get(`/api/documents/${ids['Chapter one']}/versions`)).json()) as {
    name: string | null;
  }[];
  expect(versions.map((v) => v.name)).toContain('First pass');
});

test('a document made while a folder is shown goes into that folder', async ({ page, users }) => {
  const user = await users.create({ prefix: 'folders-new' });
  const api = users.api(user);
  const made = await api.post('/api/folders', { name: 'Drafts' });
  expect(made.status()).toBe(201);
  const folderId = ((await made.json()) as { id: string }).id;
  await users.login(user);
  await openHome(page, `/?folder=${folderId}`);
  await expect(page.getByTestId('folder-heading')).toHaveText('Drafts');
  await page.getByRole('button', { name: 'New Document' }).click();
  await expect(page).toHaveURL(/\/editor\//);
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs.getByRole('link', { name: 'Drafts' })).toBeVisible();
  await crumbs.getByRole('link', { name: 'Drafts' }).click();
  await expect(page.getByTestId('document-card')).toHaveCount(1);
});

test('a folder exports as one .zip of its documents, sub-folders as directories', async ({ page, users }) => {
  const user = await users.create({ prefix: 'folders-zip' });
  const api = users.api(user);
  const book = ((await (await api.post('/api/folders', { name: 'Book' })).json()) as { id: string }).id;
  const part = (
    (await (await api.post('/api/folders', { name: 'Part one', parentId: book })).json()) as { id: string }
  ).id;
  for (const [title, folderId] of [
    ['Preface', book],
    ['Chapter one', part],
  ] as const) {
    const made = await api.post('/api/documents', { title, content: paragraph(`${title} text.`) });
    const id = ((await made.json()) as { id: string }).id;
    expect((await api.put(`/api/documents/${id}/folder`, { folderId })).status()).toBe(200);
  }
  await users.login(user);
  await openHome(page, '/');
  await folderButton(page, 'Book').hover();
  await tree(page).getByRole('button', { name: 'Actions for folder Book' }).click();
  await page.getByRole('menuitem', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Export folder' })).toBeVisible();
  await shoot(page, 'folders-export', 1280);
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Markdown' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^book_\d{4}-\d{2}-\d{2}\.zip$/);
  await expect(dialog).toBeHidden();
  const files = unzipSync(new Uint8Array(readFileSync((await download.path())!)));
  expect(Object.keys(files).sort()).toEqual(['Part one/Chapter one.md', 'Preface.md']);
  expect(strFromU8(files['Part one/Chapter one.md']!)).toBe('# Chapter one\n\nChapter one text.\n');
});
