import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { signUpViaApi, testClientAddress, uniqueEmail } from './fixtures';
import { createDocumentViaApi, editorBody, signedInContext, typeAtEnd, waitForLive } from './editor-helpers';

/**
 * Comments on passages (docs/comments.md), in two browsers: the owner comments on a passage, and a person
 * invited to comment sees the highlight and the thread live, replies; the owner resolves, reopens, and deletes
 * the commented text, after which the thread stays "On deleted text".
 */

const SHOTS = '/tmp/shots/comments';

async function signUp(request: APIRequestContext, fullName: string, prefix: string) {
  const email = uniqueEmail(prefix);
  const password = 'correct-horse-battery-staple-42';
  const session = await signUpViaApi(
    request,
    { email, password, fullName },
    { 'x-forwarded-for': testClientAddress() },
  );
  return { email, password, session };
}

/** Selects the last `length` characters before the end of the document's text, less `skip`. */
async function selectBeforeEnd(page: Page, length: number, skip = 0) {
  await editorBody(page).click();
  await page.keyboard.press('ControlOrMeta+End');
  for (let i = 0; i < skip; i += 1) await page.keyboard.press('ArrowLeft');
  for (let i = 0; i < length; i += 1) await page.keyboard.press('Shift+ArrowLeft');
}

function panel(page: Page) {
  return page.getByRole('complementary', { name: 'Comments' });
}

test('a comment reaches the other person live; reply, resolve, reopen, and the passage deleted', async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const owner = await signUp(request, 'Olive Owner', 'comments-owner');
  const member = await signUp(request, 'Cora Commenter', 'comments-member');
  const { id } = await createDocumentViaApi(request, owner, 'Harbour notes');
  const invited = await request.post(`/api/documents/${id}/members`, {
    headers: { Authorization: `Bearer ${owner.session.access_token}` },
    data: { email: member.email, role: 'commenter' },
  });
  expect(invited.status(), await invited.text()).toBe(201);

  const ownerContext = await signedInContext(browser, owner);
  const memberContext = await signedInContext(browser, member);
  const ownerPage = await ownerContext.newPage();
  const memberPage = await memberContext.newPage();
  await ownerPage.setViewportSize({ width: 1280, height: 900 });
  await memberPage.setViewportSize({ width: 1280, height: 900 });

  await ownerPage.goto(`/editor/${id}`);
  await waitForLive(ownerPage);
  await typeAtEnd(ownerPage, 'The harbour was quiet at dawn. Gulls circled the old pier.');

  await memberPage.goto(`/shared-with-me/${id}`);
  const memberBody = memberPage.getByTestId('member-editor-body');
  await expect(memberBody).toContainText('Gulls circled the old pier.', { timeout: 20_000 });

  // Nothing yet: the panel says how to start.
  await ownerPage.getByRole('button', { name: /^Comments/ }).click();
  await expect(panel(ownerPage)).toContainText(
    'No comments yet. Select text and press Ctrl+Alt+M to comment.',
  );

  // "quiet at dawn": 13 characters, ending 29 characters before the end.
  await selectBeforeEnd(ownerPage, 13, 29);
  await ownerPage.keyboard.press('Control+Alt+m');
  const composer = ownerPage.getByTestId('comment-composer');
  await expect(composer).toContainText('quiet at dawn');
  await composer.getByRole('textbox', { name: 'Comment' }).fill('Too calm for the opening?');
  await ownerPage.screenshot({ path: `${SHOTS}-composer-light-1280.png` });
  await ownerPage.keyboard.press('Control+Enter');
  await expect(composer).toHaveCount(0);

  const ownerThread = panel(ownerPage).getByTestId('comment-thread');
  await expect(ownerThread).toHaveCount(1);
  await expect(ownerThread).toHaveAttribute('data-active', 'true');
  await expect(ownerThread).toContainText('Too calm for the opening?');
  await expect(ownerThread).toContainText('Olive Owner');
  await expect(editorBody(ownerPage).locator('.qw-comment-active')).toHaveText('quiet at dawn');
  await expect(ownerPage.getByRole('button', { name: /^Comments\s*1\s*open$/u })).toBeVisible();

  // The other person sees the highlight and the thread without reloading.
  await expect(memberBody.locator('.qw-comment')).toHaveText('quiet at dawn', { timeout: 5_000 });
  await expect(memberBody.locator('.qw-comment')).toHaveAttribute('aria-description', 'Commented');
  const memberButton = memberPage.getByRole('button', { name: /^Comments/ });
  await expect(memberButton).toHaveAccessibleName(/^Comments\s*1\s*open$/u);
  // A click on the highlight opens its thread.
  await memberBody.locator('.qw-comment').click();
  const memberThread = panel(memberPage).getByTestId('comment-thread');
  await expect(memberThread).toHaveAttribute('data-active', 'true');
  await expect(memberThread).toContainText('Too calm for the opening?');
  await memberThread.getByRole('textbox', { name: 'Reply' }).fill('Keep it, the quiet sets up the storm.');
  await memberThread.getByRole('button', { name: 'Reply' }).click();
  await expect(memberThread).toContainText('Cora Commenter');
  await expect(ownerThread).toContainText('Keep it, the quiet sets up the storm.', { timeout: 5_000 });
  await memberPage.screenshot({ path: `${SHOTS}-member-light-1280.png` });
  await expectAccessible(memberPage, 'member page with comments');

  // Resolved: no highlight, on both sides, and it moves under Resolved.
  await ownerThread.getByRole('button', { name: 'Resolve' }).click();
  await expect(ownerThread).toHaveCount(0);
  await expect(editorBody(ownerPage).locator('.qw-comment')).toHaveCount(0);
  await expect(memberBody.locator('.qw-comment')).toHaveCount(0, { timeout: 5_000 });
  await expect(memberButton).toHaveAccessibleName(/^Comments\s*$/u);
  await panel(ownerPage)
    .getByRole('button', { name: /^Resolved/ })
    .click();
  const resolved = panel(ownerPage).getByTestId('comment-thread');
  await resolved.click();
  await expect(resolved).toContainText('Resolved by Olive Owner');
  await resolved.getByRole('button', { name: 'Reopen' }).click();
  await expect(resolved).toHaveCount(0);
  await panel(ownerPage).getByRole('button', { name: /^Open/ }).click();
  await expect(ownerThread).toHaveCount(1);
  await expect(memberBody.locator('.qw-comment')).toHaveText('quiet at dawn', { timeout: 5_000 });

  // Edit one's own comment.
  await ownerThread.click();
  await ownerThread.getByRole('button', { name: 'Edit' }).click();
  await ownerThread.getByRole('textbox', { name: 'Edit comment' }).fill('Too calm for an opening line?');
  await ownerThread.getByRole('button', { name: 'Save' }).click();
  await expect(ownerThread).toContainText('(edited)');
  await expect(memberThread).toContainText('Too calm for an opening line?', { timeout: 5_000 });

  // Light and dark, wide and phone.
  for (const colorScheme of ['light', 'dark'] as const) {
    await ownerPage.emulateMedia({ colorScheme });
    for (const width of [1280, 390]) {
      await ownerPage.setViewportSize({ width, height: 900 });
      await expect(panel(ownerPage)).toBeVisible();
      await ownerPage.screenshot({ path: `${SHOTS}-owner-${colorScheme}-${width}.png` });
    }
  }
  await ownerPage.emulateMedia({ colorScheme: 'light' });
  await ownerPage.setViewportSize({ width: 1280, height: 900 });

  // The commented words deleted: the thread stays, on deleted text, with its quote.
  await selectBeforeEnd(ownerPage, 13, 29);
  await ownerPage.keyboard.press('Backspace');
  await expect(editorBody(ownerPage)).toContainText('The harbour was . Gulls');
  await expect(ownerThread).toContainText('On deleted text');
  await expect(ownerThread).toContainText('quiet at dawn');
  await expect(panel(memberPage).getByTestId('comment-thread')).toContainText('On deleted text', {
    timeout: 5_000,
  });

  await ownerContext.close();
  await memberContext.close();
});
