import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { addDocumentMember, signUpPerson } from './fixtures';
import { createDocumentViaApi, editorBody, signedInContext, typeAtEnd, waitForLive } from './editor-helpers';

/**
 * Comments on passages (docs/comments.md), in two browsers: the owner comments on a passage, and a person
 * invited to comment sees the highlight and the thread live, replies; the owner resolves, reopens, and deletes
 * the commented text, after which the thread stays "On deleted text".
 */

const SHOTS = '/tmp/shots/comments';

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
  const owner = await signUpPerson(request, 'Olive Owner', 'comments-owner');
  const member = await signUpPerson(request, 'Cora Commenter', 'comments-member');
  const { id } = await createDocumentViaApi(request, owner, 'Harbour notes');
  await addDocumentMember(request, owner, id, member.email, 'editor');

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

/** Double-clicks a word of the text (selecting it, also where the text cannot be edited). */
async function selectWord(page: Page, testId: string, word: string) {
  const box = await page.getByTestId(testId).evaluate((root, wanted) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(wanted) ?? -1;
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + wanted.length);
      const rect = range.getBoundingClientRect();
      return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
    }
    return null;
  }, word);
  if (!box) throw new Error(`"${word}" is not in the text`);
  await page.mouse.dblclick(box.x, box.y);
}

test('a commenter and a "Can comment" visitor comment on the saved copy; the owner sees it live', async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const owner = await signUpPerson(request, 'Olive Owner', 'comments-owner');
  const member = await signUpPerson(request, 'Cora Commenter', 'comments-commenter');
  const content = {
    type: 'doc',
    content: [
      { type: 'paragraph', content: [{ type: 'text', text: 'The lighthouse keeper counted ships.' }] },
    ],
  };
  const { id } = await createDocumentViaApi(request, owner, 'Keeper', content);
  const auth = { Authorization: `Bearer ${owner.session.access_token}` };
  const invited = await request.post(`/api/documents/${id}/members`, {
    headers: auth,
    data: { email: member.email, role: 'commenter' },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const shared = await request.put(`/api/documents/${id}/share`, {
    headers: auth,
    data: { isPublic: true, allowCommenting: true },
  });
  expect(shared.status(), await shared.text()).toBe(200);

  const ownerContext = await signedInContext(browser, owner);
  const ownerPage = await ownerContext.newPage();
  await ownerPage.goto(`/editor/${id}`);
  await waitForLive(ownerPage);

  // The commenter reads the saved copy, selects a word and comments through the selection's button.
  const memberContext = await signedInContext(browser, member);
  const memberPage = await memberContext.newPage();
  await memberPage.goto(`/shared-with-me/${id}`);
  const memberText = memberPage.getByTestId('member-commentable-document');
  await expect(memberText).toContainText('The lighthouse keeper counted ships.');
  await expect(memberText).toHaveAttribute('contenteditable', 'false');
  await selectWord(memberPage, 'member-commentable-document', 'lighthouse');
  await memberPage.getByRole('button', { name: 'Comment', exact: true }).click();
  const composer = memberPage.getByTestId('comment-composer');
  await expect(composer).toContainText('lighthouse');
  await composer.getByRole('textbox', { name: 'Comment' }).fill('Which lighthouse?');
  await composer.getByRole('button', { name: 'Comment' }).click();
  await expect(panel(memberPage).getByTestId('comment-thread')).toContainText('Which lighthouse?');
  await expect(memberText.locator('.qw-comment')).toHaveText('lighthouse', { timeout: 15_000 });

  // The owner's open editor shows it at once.
  await expect(editorBody(ownerPage).locator('.qw-comment')).toHaveText('lighthouse', { timeout: 5_000 });
  await expect(ownerPage.getByRole('button', { name: /^Comments\s*1\s*open$/u })).toBeVisible();

  // A visitor of the "Can comment" link replies, giving a name once.
  const visitorContext = await browser.newContext();
  const visitorPage = await visitorContext.newPage();
  await visitorPage.setViewportSize({ width: 390, height: 844 });
  await visitorPage.goto(`/shared/${id}`);
  const visitorText = visitorPage.getByTestId('shared-document');
  await expect(visitorText.locator('.qw-comment')).toHaveText('lighthouse', { timeout: 15_000 });
  await visitorText.locator('.qw-comment').click();
  const visitorThread = panel(visitorPage).getByTestId('comment-thread');
  await expect(visitorThread).toContainText('Which lighthouse?');
  await visitorThread.getByRole('textbox', { name: 'Your name' }).fill('Vera Visitor');
  await visitorThread.getByRole('textbox', { name: 'Reply' }).fill('The one on the point.');
  await visitorThread.getByRole('button', { name: 'Reply' }).click();
  await expect(visitorThread).toContainText('Vera Visitor');
  await visitorPage.screenshot({ path: `${SHOTS}-visitor-light-390.png`, fullPage: true });
  await expectAccessible(visitorPage, 'shared page with comments');
  await ownerPage.getByRole('button', { name: /^Comments/ }).click();
  const ownerThread = panel(ownerPage).getByTestId('comment-thread');
  await expect(ownerThread).toContainText('1 reply', { timeout: 5_000 });
  await ownerThread.click();
  await expect(ownerThread).toContainText('The one on the point.', {
    timeout: 5_000,
  });

  // Their name is remembered for their next comment.
  await selectWord(visitorPage, 'shared-document', 'ships');
  await visitorPage.keyboard.press('Control+Alt+m');
  const visitorComposer = visitorPage.getByTestId('comment-composer');
  await expect(visitorComposer.getByRole('textbox', { name: 'Comment' })).toBeFocused();
  await expect(visitorComposer.getByRole('textbox', { name: 'Your name' })).toHaveCount(0);
  await expect(visitorThread.getByRole('textbox', { name: 'Your name' })).toHaveCount(0);
  await visitorComposer.getByRole('textbox', { name: 'Comment' }).fill('How many?');
  await visitorPage.keyboard.press('Control+Enter');
  await expect(ownerPage.getByRole('button', { name: /^Comments\s*2\s*open$/u })).toBeVisible({
    timeout: 5_000,
  });

  await ownerContext.close();
  await memberContext.close();
  await visitorContext.close();
});

test('a viewer reads the threads without replying or resolving; the owner deletes a thread someone else opened', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = await signUpPerson(request, 'Olive Owner', 'comments-owner');
  const commenter = await signUpPerson(request, 'Cora Commenter', 'comments-commenter');
  const viewer = await signUpPerson(request, 'Vera Viewer', 'comments-viewer');
  const content = {
    type: 'doc',
    content: [{ type: 'paragraph', content: [{ type: 'text', text: 'The tide turned at noon.' }] }],
  };
  const { id } = await createDocumentViaApi(request, owner, 'Tides', content);
  const auth = { Authorization: `Bearer ${owner.session.access_token}` };
  for (const [person, role] of [
    [commenter, 'commenter'],
    [viewer, 'viewer'],
  ] as const) {
    const invited = await request.post(`/api/documents/${id}/members`, {
      headers: auth,
      data: { email: person.email, role },
    });
    expect(invited.status(), await invited.text()).toBe(201);
  }
  const opened = await request.post(`/api/documents/${id}/threads`, {
    headers: { Authorization: `Bearer ${commenter.session.access_token}` },
    data: { id: crypto.randomUUID(), anchor: { quote: 'at noon' }, body: 'Which noon?' },
  });
  expect(opened.status(), await opened.text()).toBe(201);

  const viewerContext = await signedInContext(browser, viewer);
  const viewerPage = await viewerContext.newPage();
  await viewerPage.setViewportSize({ width: 1280, height: 900 });
  await viewerPage.goto(`/shared-with-me/${id}`);
  await expect(viewerPage.getByTestId('member-document')).toContainText('The tide turned at noon.');
  await viewerPage.getByRole('button', { name: /^Comments/ }).click();
  const viewerThread = panel(viewerPage).getByTestId('comment-thread');
  await viewerThread.getByText('Which noon?').click();
  await expect(viewerThread).toHaveAttribute('data-active', 'true');
  await expect(viewerThread.getByRole('textbox')).toHaveCount(0);
  await expect(viewerThread.getByRole('button', { name: 'Resolve' })).toHaveCount(0);
  await expect(viewerThread.getByRole('button', { name: 'Delete thread' })).toHaveCount(0);
  // Selecting text offers no Comment button.
  await viewerPage.getByText('The tide turned').dblclick();
  await expect(viewerPage.getByTestId('comment-selection-toolbar')).toHaveCount(0);
  await viewerPage.screenshot({ path: `${SHOTS}-viewer-read-only-1280.png` });

  const ownerContext = await signedInContext(browser, owner);
  const ownerPage = await ownerContext.newPage();
  await ownerPage.setViewportSize({ width: 1280, height: 900 });
  await ownerPage.goto(`/editor/${id}`);
  await waitForLive(ownerPage);
  await ownerPage.getByRole('button', { name: /^Comments/ }).click();
  const ownerThread = panel(ownerPage).getByTestId('comment-thread');
  await ownerThread.getByText('Which noon?').click();
  await ownerThread.getByRole('button', { name: 'Delete thread' }).click();
  await expect(ownerThread).toContainText('Delete this thread and its comments?');
  await ownerPage.screenshot({ path: `${SHOTS}-owner-delete-thread-1280.png` });
  await ownerThread.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(panel(ownerPage).getByTestId('comment-thread')).toHaveCount(0);
  await expect(editorBody(ownerPage).locator('.qw-comment')).toHaveCount(0);

  await ownerContext.close();
  await viewerContext.close();
});
