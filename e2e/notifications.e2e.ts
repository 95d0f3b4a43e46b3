import { expect, test } from '@playwright/test';
import { addDocumentMember, signUpPerson } from './fixtures';
import { createDocumentViaApi, editorBody, signedInContext, typeAtEnd, waitForLive } from './editor-helpers';

/**
 * Mentions and notifications (docs/notifications.md), in two browsers: the owner mentions a member in a new
 * thread, picking her from the suggestions; the member's bell shows one unread notification; choosing it opens
 * the document at the thread, and the count drops. The owner's open editor has the bell too.
 */

const SHOTS = '/tmp/shots/notifications';

test('a mention reaches the bell; choosing it opens the thread and the count drops', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = await signUpPerson(request, 'Ada Author', 'notify-owner');
  const member = await signUpPerson(request, 'Bea Baker', 'notify-member');
  const { id } = await createDocumentViaApi(request, owner, 'Harbour notes');
  await addDocumentMember(request, owner, id, member.email, 'editor');

  const ownerContext = await signedInContext(browser, owner);
  const memberContext = await signedInContext(browser, member);
  const ownerPage = await ownerContext.newPage();
  const memberPage = await memberContext.newPage();
  await ownerPage.setViewportSize({ width: 1280, height: 900 });
  await memberPage.setViewportSize({ width: 1280, height: 900 });

  // The member starts on her dashboard: nothing unread.
  await memberPage.goto('/');
  const bell = memberPage.getByTestId('notifications-bell');
  await expect(bell).toHaveAccessibleName('Notifications');

  await ownerPage.goto(`/editor/${id}`);
  await waitForLive(ownerPage);
  await typeAtEnd(ownerPage, 'The harbour was quiet at dawn.');
  // "dawn": the last four characters before the full stop.
  await editorBody(ownerPage).click();
  await ownerPage.keyboard.press('ControlOrMeta+End');
  await ownerPage.keyboard.press('ArrowLeft');
  for (let i = 0; i < 4; i += 1) await ownerPage.keyboard.press('Shift+ArrowLeft');
  await ownerPage.keyboard.press('Control+Alt+m');
  const composer = ownerPage.getByTestId('comment-composer');
  const box = composer.getByRole('textbox', { name: 'Comment' });
  await box.pressSequentially('Could you check this, @be');
  const suggestions = ownerPage.getByRole('listbox', { name: 'People to mention' });
  await expect(suggestions.getByRole('option')).toHaveCount(1);
  await expect(suggestions.getByRole('option', { selected: true })).toContainText('Bea Baker');
  await expect(suggestions).toContainText(member.email);
  await ownerPage.screenshot({ path: `${SHOTS}-mention-suggestions-1280.png` });
  await ownerPage.keyboard.press('Enter');
  await expect(box).toHaveValue('Could you check this, @Bea Baker ');
  await box.pressSequentially('?');
  await ownerPage.keyboard.press('Control+Enter');
  await expect(composer).toHaveCount(0);
  const ownerThread = ownerPage.getByTestId('comment-thread');
  await expect(ownerThread.locator('.qw-mention')).toHaveText('@Bea Baker');

  // Within one poll (30 s), or at once when the window regains focus.
  await memberPage.reload();
  await expect(bell).toHaveAccessibleName('Notifications (1 unread)', { timeout: 40_000 });
  await expect(memberPage.getByTestId('notifications-count')).toHaveText('1');
  await bell.click();
  const item = memberPage.getByTestId('notification');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('Ada Author mentioned you in “Harbour notes”');
  await expect(item).toContainText('Could you check this, @Bea Baker ?');
  await memberPage.screenshot({ path: `${SHOTS}-bell-open-1280.png` });
  await item.click();

  await expect(memberPage).toHaveURL(new RegExp(`/shared-with-me/${id}\\?thread=`));
  const thread = memberPage.getByTestId('comment-thread');
  await expect(thread).toHaveAttribute('data-active', 'true', { timeout: 20_000 });
  await expect(thread.locator('.qw-mention')).toHaveText('@Bea Baker');
  await expect(memberPage.getByTestId('notifications-bell')).toHaveAccessibleName('Notifications');
  await expect(memberPage.getByTestId('notifications-count')).toHaveCount(0);
  await memberPage.screenshot({ path: `${SHOTS}-thread-opened-1280.png` });

  await ownerContext.close();
  await memberContext.close();
});

test('the comment notification switches, in the app and by e-mail, are saved', async ({
  browser,
  request,
}) => {
  const person = await signUpPerson(request, 'Bea Baker', 'notify-switches');
  const context = await signedInContext(browser, person);
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await page.getByRole('button', { name: 'Account settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Account Settings' });
  await dialog.getByRole('tab', { name: 'Notifications' }).click();
  const repliesInApp = dialog.getByRole('switch', { name: 'Replies in the app' });
  const mentionsByMail = dialog.getByRole('switch', { name: 'Mentions by e-mail' });
  await expect(repliesInApp).toBeChecked();
  await expect(mentionsByMail).toBeChecked();
  await repliesInApp.click();
  await expect(dialog.getByTestId('settings-save-status')).toHaveText('All changes saved');
  await mentionsByMail.click();
  await expect(repliesInApp).not.toBeChecked();
  await expect(mentionsByMail).not.toBeChecked();
  await expect
    .poll(async () => {
      const saved = await request.get('/api/me/settings', {
        headers: { Authorization: `Bearer ${person.session.access_token}` },
      });
      return (await saved.json()).notifications;
    })
    .toMatchObject({ repliesInApp: false, repliesEmail: true, mentionsInApp: true, mentionsEmail: false });
  await expect(dialog.getByTestId('settings-save-status')).toHaveText('All changes saved');
  await page.screenshot({ path: `${SHOTS}-settings-1280.png` });
  await page.reload();
  await page.getByRole('button', { name: 'Account settings' }).click();
  await dialog.getByRole('tab', { name: 'Notifications' }).click();
  await expect(dialog.getByRole('switch', { name: 'Replies in the app' })).not.toBeChecked();
  await expect(dialog.getByRole('switch', { name: 'Comments on my documents by e-mail' })).toBeChecked();
  await context.close();
});

test("the owner's open editor shows the bell rising for a new thread; choosing it opens the thread", async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = await signUpPerson(request, 'Ada Author', 'notify-editor-owner');
  const member = await signUpPerson(request, 'Cora Commenter', 'notify-editor-member');
  const { id } = await createDocumentViaApi(request, owner, 'Lighthouse log', {
    type: 'doc',
    content: [{ type: 'paragraph', content: [{ type: 'text', text: 'The lamp was lit at six.' }] }],
  });
  await addDocumentMember(request, owner, id, member.email, 'commenter');

  // A phone: the bell shares the top row with the title, the Live badge and the account button.
  const ownerContext = await signedInContext(browser, owner);
  const ownerPage = await ownerContext.newPage();
  await ownerPage.setViewportSize({ width: 390, height: 844 });
  await ownerPage.goto(`/editor/${id}`);
  await waitForLive(ownerPage);
  const bell = ownerPage.getByTestId('notifications-bell').filter({ visible: true });
  await expect(bell).toHaveAccessibleName('Notifications');
  const account = ownerPage.getByRole('button', { name: 'Account settings' });
  for (const control of [bell, account, ownerPage.getByTestId('connection-badge')]) {
    const box = await control.boundingBox();
    expect(box, 'on screen').not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  }
  // Nothing in the header is pushed past its edge.
  const header = ownerPage.getByTestId('editor-chrome').locator('header');
  expect(await header.evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);

  const threadId = crypto.randomUUID();
  const opened = await request.post(`/api/documents/${id}/threads`, {
    headers: { Authorization: `Bearer ${member.session.access_token}` },
    data: {
      id: threadId,
      anchor: { quote: 'lit at six', prefix: 'The lamp was ', suffix: '.' },
      body: 'Was it not seven?',
    },
  });
  expect(opened.status(), await opened.text()).toBe(201);

  // No reload: the bell's poll (every 30 s) brings the count.
  await expect(bell).toHaveAccessibleName('Notifications (1 unread)', { timeout: 40_000 });
  await expect(bell.getByTestId('notifications-count')).toHaveText('1');
  await ownerPage.screenshot({ path: `${SHOTS}-editor-bell-390.png` });
  await bell.click();
  const item = ownerPage.getByTestId('notification');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('Cora Commenter commented on “Lighthouse log”');
  await expect(item).toContainText('Was it not seven?');
  await ownerPage.screenshot({ path: `${SHOTS}-editor-bell-open-390.png` });
  await item.click();

  await expect(ownerPage).toHaveURL(new RegExp(`/editor/${id}\\?thread=${threadId}`));
  const thread = ownerPage.getByTestId('comment-thread');
  await expect(thread).toHaveAttribute('data-active', 'true', { timeout: 20_000 });
  await expect(thread).toContainText('Was it not seven?');
  await expect(bell).toHaveAccessibleName('Notifications');
  await expect(bell.getByTestId('notifications-count')).toHaveCount(0);
  await ownerPage.screenshot({ path: `${SHOTS}-editor-thread-opened-390.png` });
  await ownerContext.close();
});
