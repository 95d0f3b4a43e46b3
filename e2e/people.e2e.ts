import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { signUpPerson, testClientAddress, uniqueEmail } from './fixtures';
import { createDocumentViaApi, editorBody, signedInContext, typeAtEnd, waitForLive } from './editor-helpers';

/**
 * People on a document (docs/people.md), in two browsers: the owner invites from the Share menu, the person
 * finds the document under "Shared with me" and works on it in their role, and loses it when removed.
 */

function people(page: Page) {
  return page.getByTestId('people-section');
}

async function openShareMenu(page: Page) {
  await page.getByRole('button', { name: 'Share' }).click();
  await expect(people(page)).toBeVisible();
}

async function invite(page: Page, email: string, role?: 'Can view' | 'Can suggest' | 'Can edit') {
  const section = people(page);
  await section.getByPlaceholder('name@example.com').fill(email);
  if (role) {
    await section.getByRole('combobox', { name: 'Role for the invitation' }).click();
    await page.getByRole('option', { name: role }).click();
  }
  await section.getByRole('button', { name: 'Invite' }).click();
}

test('the owner invites a person, who edits live, is made viewer, then removed', async ({
  browser,
  request,
}) => {
  // Three axe passes, one over the owner's whole editor: on a loaded two-core machine past the default minute.
  test.setTimeout(150_000);
  const owner = await signUpPerson(request, 'Olive Owner', 'owner');
  const member = await signUpPerson(request, 'Edith Member', 'member');
  const { id } = await createDocumentViaApi(request, owner, 'Field notes');

  const ownerContext = await signedInContext(browser, owner);
  const memberContext = await signedInContext(browser, member);
  const ownerPage = await ownerContext.newPage();
  const memberPage = await memberContext.newPage();

  // Before anything is shared, the member's dashboard says so plainly.
  await memberPage.goto('/');
  const sharedWithMe = memberPage.getByTestId('shared-with-me');
  await expect(sharedWithMe).toContainText(
    'Nothing yet. When someone invites you to a document, it appears here.',
  );

  await ownerPage.goto(`/editor/${id}`);
  await waitForLive(ownerPage);
  await typeAtEnd(ownerPage, 'Written by the owner.');
  await openShareMenu(ownerPage);
  await expect(people(ownerPage)).toContainText('No one is invited yet.');

  // The owner's own address and a second invitation of the same person answer with the server's words.
  await invite(ownerPage, owner.email);
  await expect(people(ownerPage).getByRole('alert')).toContainText(/own/i);

  await invite(ownerPage, member.email);
  const row = people(ownerPage).getByTestId('member-row').filter({ hasText: 'Edith Member' });
  await expect(row).toBeVisible();
  await expect(row).not.toContainText('Invited');
  await expect(row.getByRole('combobox', { name: 'Role of Edith Member' })).toHaveText('Can edit');
  await invite(ownerPage, member.email);
  await expect(people(ownerPage).getByRole('alert')).toBeVisible();

  // A new address waits as an invitation.
  const newcomer = uniqueEmail('newcomer');
  await invite(ownerPage, newcomer, 'Can suggest');
  const waiting = people(ownerPage).getByTestId('member-row').filter({ hasText: newcomer });
  await expect(waiting).toContainText('Invited');
  await ownerPage.screenshot({ path: '/tmp/shots/people-share-menu.png' });
  await expectAccessible(ownerPage, 'share menu with people');

  // The member finds it under "Shared with me" and opens it.
  await memberPage.reload();
  const card = sharedWithMe.getByTestId('shared-card').filter({ hasText: 'Field notes' });
  await expect(card).toContainText('Shared by Olive Owner');
  await expect(card).toContainText('Can edit');
  await memberPage.screenshot({ path: '/tmp/shots/people-shared-with-me.png', fullPage: true });
  await expectAccessible(memberPage, 'shared with me');
  await card.getByRole('link', { name: 'Field notes' }).click();
  await expect(memberPage).toHaveURL(new RegExp(`/shared-with-me/${id}$`));
  await expect(memberPage.getByTestId('member-role')).toHaveText('Can edit');
  await expect(memberPage.getByTestId('connection-badge')).toHaveText('Live', { timeout: 20_000 });
  // Nothing of the owner's here.
  await expect(memberPage.getByRole('button', { name: 'Share' })).toHaveCount(0);

  // The member types; the owner sees it live.
  const memberBody = memberPage.getByTestId('member-editor-body');
  await expect(memberBody).toContainText('Written by the owner.');
  await memberBody.click();
  await memberPage.keyboard.press('ControlOrMeta+End');
  await memberPage.keyboard.type(' Added by Edith.');
  await expect(editorBody(ownerPage)).toContainText('Written by the owner. Added by Edith.');
  await memberPage.screenshot({ path: '/tmp/shots/people-member-editor.png' });
  await expectAccessible(memberPage, 'member editor');

  // The owner makes them a viewer: the text stops taking input and is shown read-only.
  await row.getByRole('combobox', { name: 'Role of Edith Member' }).click();
  await ownerPage.getByRole('option', { name: 'Can view' }).click();
  await expect(row.getByRole('combobox', { name: 'Role of Edith Member' })).toHaveText('Can view');
  await expect(memberPage.getByTestId('member-role')).toHaveText('Can view', { timeout: 20_000 });
  await expect(memberBody).toHaveCount(0);
  await expect(memberPage.locator('[contenteditable="true"]')).toHaveCount(0);
  await expect(memberPage.getByTestId('member-document')).toContainText('Added by Edith.');
  await expect(memberPage.getByTestId('member-role-hint')).toContainText('The owner changed your role.');
  await memberPage.screenshot({ path: '/tmp/shots/people-member-viewer.png' });

  // The owner removes them: the page says so, and the document leaves "Shared with me".
  await row.getByRole('button', { name: 'Remove Edith Member' }).click();
  await people(ownerPage).getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(row).toHaveCount(0);
  await expect(memberPage.getByRole('alert')).toContainText('You no longer have access to this document', {
    timeout: 20_000,
  });
  await memberPage.screenshot({ path: '/tmp/shots/people-member-removed.png' });
  await memberPage.getByRole('link', { name: 'Back to Documents' }).click();
  await expect(sharedWithMe).toContainText('Nothing yet.');
  await expect(sharedWithMe.getByTestId('shared-card')).toHaveCount(0);

  await ownerContext.close();
  await memberContext.close();
});

test('a suggester opens the document in Suggesting mode, and its editor address leads there', async ({
  browser,
  request,
}) => {
  const owner = await signUpPerson(request, 'Olive Owner', 'owner');
  const member = await signUpPerson(request, 'Sam Suggester', 'suggester');
  const { id } = await createDocumentViaApi(request, owner, 'Proposal');
  const invited = await request.post(`/api/documents/${id}/members`, {
    headers: {
      Authorization: `Bearer ${owner.session.access_token}`,
      'x-forwarded-for': testClientAddress(),
    },
    data: { email: member.email, role: 'suggester' },
  });
  expect(invited.status(), await invited.text()).toBe(201);

  const memberContext = await signedInContext(browser, member);
  const page = await memberContext.newPage();
  // The owner's address of the document sends a member to the page of their role.
  await page.goto(`/editor/${id}`);
  await expect(page).toHaveURL(new RegExp(`/shared-with-me/${id}$`));
  await expect(page.getByTestId('member-role')).toHaveText('Can suggest');
  await expect(page.getByTestId('suggesting-notice')).toBeVisible();
  await expect(page.getByTestId('connection-badge')).toHaveText('Live', { timeout: 20_000 });
  const body = page.getByTestId('member-editor-body');
  await body.click();
  await page.keyboard.type('A proposed line.');
  // Typed text becomes a tracked insertion, and the server keeps it (a plain edit would close the socket).
  await expect(body.locator('ins.tracked-change').first()).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await memberContext.close();
});
