import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessible, useTheme } from './axe';
import { signUpPerson } from './fixtures';
import { createDocumentViaApi, editorBody, signedInContext, waitForLive } from './editor-helpers';

/**
 * A folder shared with people (docs/people.md, docs/library.md), in two browsers: the owner shares a folder
 * from its menu, the person finds its documents under "Shared with me" and edits one live, sees a document the
 * owner adds later, and loses the open editor when removed.
 */

type User = Awaited<ReturnType<typeof signUpPerson>>;

const paragraph = (text: string) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

async function post(request: APIRequestContext, user: User, path: string, data: unknown) {
  const response = await request.post(path, {
    headers: { Authorization: `Bearer ${user.session.access_token}` },
    data,
  });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as { id: string };
}

async function putInFolder(request: APIRequestContext, user: User, documentId: string, folderId: string) {
  const response = await request.put(`/api/documents/${documentId}/folder`, {
    headers: { Authorization: `Bearer ${user.session.access_token}` },
    data: { folderId },
  });
  expect(response.status(), await response.text()).toBe(200);
}

const sharedFolder = (page: Page, name: string) =>
  page.getByTestId('shared-with-me').getByTestId('shared-folder').filter({ hasText: name });

test('a shared folder: the member edits its documents, sees new ones, and is stopped when removed', async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  // The Gratis plan's three documents: two in the folder now, one added later.
  const owner = await signUpPerson(request, 'Olive Owner', 'folder-owner');
  const member = await signUpPerson(request, 'Edith Member', 'folder-member');
  const folder = await post(request, owner, '/api/folders', { name: 'Novel', parentId: null });
  const part = await post(request, owner, '/api/folders', { name: 'Part one', parentId: folder.id });
  const { id: outline } = await createDocumentViaApi(request, owner, 'Outline', paragraph('The plan.'));
  const { id: scene } = await createDocumentViaApi(request, owner, 'First scene', paragraph('It was dark.'));
  await putInFolder(request, owner, outline, folder.id);
  await putInFolder(request, owner, scene, part.id);

  const ownerContext = await signedInContext(browser, owner);
  const memberContext = await signedInContext(browser, member);
  const ownerPage = await ownerContext.newPage();
  const memberPage = await memberContext.newPage();

  // The owner shares the folder from its menu on the dashboard, with the same People section as a document.
  await ownerPage.goto('/');
  const tree = ownerPage.getByTestId('folder-tree');
  await tree.getByRole('button', { name: 'Actions for folder Novel' }).click();
  await ownerPage.getByRole('menuitem', { name: 'Share…' }).click();
  const dialog = ownerPage.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Share folder' })).toBeVisible();
  const people = dialog.getByTestId('people-section');
  await expect(people).toContainText('No one is invited yet.');
  await people.getByPlaceholder('name@example.com').fill(member.email);
  await people.getByRole('button', { name: 'Invite' }).click();
  const row = people.getByTestId('member-row').filter({ hasText: 'Edith Member' });
  await expect(row.getByRole('combobox', { name: 'Role of Edith Member' })).toHaveText('Can edit');
  await ownerPage.screenshot({ path: '/tmp/shots/folder-share-dialog.png' });
  await ownerPage.setViewportSize({ width: 390, height: 844 });
  await expect(people.getByRole('button', { name: 'Invite' })).toBeInViewport({ ratio: 1 });
  await ownerPage.screenshot({ path: '/tmp/shots/folder-share-dialog-390.png' });
  await ownerPage.setViewportSize({ width: 1280, height: 800 });
  await expectAccessible(ownerPage, 'share folder dialog');

  // The member finds the folder under "Shared with me"; it opens to its documents, sub-folders' included.
  await memberPage.goto('/');
  const novel = sharedFolder(memberPage, 'Novel');
  await expect(novel).toContainText('Shared by Olive Owner · 2 documents');
  await novel.getByRole('button', { name: /Novel/ }).click();
  await expect(novel.getByTestId('shared-card')).toHaveCount(2);
  await expect(novel.getByTestId('shared-card').filter({ hasText: 'First scene' })).toContainText('Can edit');
  await memberPage.screenshot({ path: '/tmp/shots/folder-shared-with-me.png', fullPage: true });
  // On a phone, in the dark theme.
  const darkContext = await signedInContext(browser, member);
  await useTheme(darkContext, 'dark');
  const phone = await darkContext.newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto('/');
  await sharedFolder(phone, 'Novel').getByRole('button', { name: /Novel/ }).click();
  await expect(sharedFolder(phone, 'Novel').getByTestId('shared-card')).toHaveCount(2);
  await phone.screenshot({ path: '/tmp/shots/folder-shared-with-me-390-dark.png', fullPage: true });
  await darkContext.close();
  await expectAccessible(memberPage, 'shared folder');

  // The member opens the document in the sub-folder and edits it live; the owner sees the words arrive.
  await novel.getByRole('link', { name: 'First scene' }).click();
  await expect(memberPage).toHaveURL(new RegExp(`/shared-with-me/${scene}$`));
  await expect(memberPage.getByTestId('member-role')).toHaveText('Can edit');
  await expect(memberPage.getByTestId('connection-badge')).toHaveText('Live', { timeout: 20_000 });
  const memberBody = memberPage.getByTestId('member-editor-body');
  await expect(memberBody).toContainText('It was dark.');
  await memberBody.click();
  await memberPage.keyboard.press('ControlOrMeta+End');
  await memberPage.keyboard.type(' Then the rain came.');
  await ownerPage.keyboard.press('Escape');
  await ownerPage.goto(`/editor/${scene}`);
  await waitForLive(ownerPage);
  await expect(editorBody(ownerPage)).toContainText('It was dark. Then the rain came.');

  // A document the owner adds to the folder later is the member's too.
  const { id: later } = await createDocumentViaApi(request, owner, 'Epilogue', paragraph('The end.'));
  await putInFolder(request, owner, later, folder.id);
  const dashboard = await memberContext.newPage();
  await dashboard.goto('/');
  const again = sharedFolder(dashboard, 'Novel');
  await expect(again).toContainText('3 documents');
  await again.getByRole('button', { name: /Novel/ }).click();
  await expect(again.getByTestId('shared-card').filter({ hasText: 'Epilogue' })).toBeVisible();
  await dashboard.close();

  // The owner removes the member: the open editor stops taking input and says so.
  await ownerPage.goto('/');
  await tree.getByRole('button', { name: 'Actions for folder Novel' }).click();
  await ownerPage.getByRole('menuitem', { name: 'Share…' }).click();
  await row.getByRole('button', { name: 'Remove Edith Member' }).click();
  await expect(people).toContainText("They lose access to this folder's documents at once.");
  await people.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(row).toHaveCount(0);
  await expect(memberPage.getByRole('alert')).toContainText('You no longer have access to this document', {
    timeout: 20_000,
  });
  await expect(memberPage.locator('[contenteditable="true"]')).toHaveCount(0);
  await memberPage.screenshot({ path: '/tmp/shots/folder-member-removed.png' });
  await memberPage.getByRole('link', { name: 'Back to Documents' }).click();
  await expect(memberPage.getByTestId('shared-with-me')).toContainText('Nothing yet.');

  await ownerContext.close();
  await memberContext.close();
});
