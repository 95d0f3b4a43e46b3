import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import {
  createDocumentViaApi,
  createTestUser,
  editorBody,
  signInContext,
  waitForLive,
} from './editor-helpers';

/**
 * Chat with the document against the local OpenAI-compatible server (e2e/serve.ts): a question is answered
 * with Markdown ("The **weakest** argument is the weather:" and a list); a message asking to "shorten"
 * answers with an edits block replacing the passage below, which this test types into the second paragraph.
 */
const PASSAGE = 'rambles on and on about the weather for far too long';
const SHOTS = '/tmp/chat-shots';

async function shoot(page: Page, name: string, width: 1280 | 390, dark: boolean) {
  await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
  await page.evaluate((on) => document.documentElement.classList.toggle('dark', on), dark);
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SHOTS}/${name}-${dark ? 'dark' : 'light'}-${width}.png` });
}

test('chat answers about the document and proposes changes as suggestions on the right paragraph', async ({
  browser,
  request,
}) => {
  const user = await createTestUser(request, 'chat');
  const { id } = await createDocumentViaApi(request, user, 'Weather essay');
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await signInContext(context, user);
  const page = await context.newPage();
  await page.goto(`/editor/${id}`);
  await waitForLive(page);
  const body = editorBody(page);
  await body.click();
  await page.keyboard.type('The first paragraph makes its point and stops.');
  await page.keyboard.press('Enter');
  await page.keyboard.type(`The second paragraph ${PASSAGE}.`);

  await shoot(page, 'chat-toolbar', 390, false);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Ctrl+J opens the panel with the message field focused; the empty state offers examples.
  await page.keyboard.press('Control+j');
  const panel = page.getByRole('complementary', { name: 'Chat with the document' });
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId('chat-empty')).toContainText('What is the weakest argument?');
  await expect(panel.getByRole('textbox', { name: 'Message' })).toBeFocused();
  await expect(page.getByTestId('chat-toggle')).toHaveAttribute('aria-pressed', 'true');
  await shoot(page, 'chat-empty', 1280, false);

  // A question: the answer streams in and is rendered as Markdown.
  await page.keyboard.type('What is the weakest argument?');
  await page.keyboard.press('Enter');
  const answers = panel.getByTestId('chat-answer');
  await expect(answers.first().locator('strong')).toHaveText('weakest');
  await expect(answers.first().locator('li')).toHaveText(['it rambles', 'it repeats itself']);
  await expect(panel.getByRole('textbox', { name: 'Message' })).toHaveValue('');

  // A change request: suggestions in the second paragraph only, one group, accepted with the existing UI.
  await page.keyboard.type('Shorten the second paragraph');
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId('chat-edits')).toContainText('1 change proposed');
  await expect(answers.nth(1)).toContainText('I shortened the second paragraph.');
  await expect(answers.nth(1)).not.toContainText('```');
  const second = body.locator('p').nth(1);
  await expect(second.locator('ins.tracked-insertion').first()).toBeVisible();
  await expect(second.locator('del.tracked-deletion').first()).toBeVisible();
  await expect(body.locator('p').first().locator('ins, del')).toHaveCount(0);
  await shoot(page, 'chat-answers', 1280, false);
  await expectAccessible(page, 'chat panel (light)');
  await shoot(page, 'chat-answers', 1280, true);
  await expectAccessible(page, 'chat panel (dark)');
  await shoot(page, 'chat-answers', 390, true);
  await shoot(page, 'chat-answers', 390, false);
  // On a phone the sheet covers the text: "Review in the text" makes way and shows the change.
  await panel.getByRole('button', { name: 'Review in the text' }).click();
  await expect(panel).toBeHidden();
  await expect(second.locator('ins.tracked-insertion').first()).toBeInViewport();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.keyboard.press('Control+j');
  await expect(panel).toBeVisible();

  await page.getByTestId('suggestion-bar').getByRole('button', { name: 'Accept all' }).click();
  await expect(second).toHaveText('The second paragraph is brief.');
  await expect(body.locator('ins, del')).toHaveCount(0);

  // Escape closes the panel and gives the text back its focus.
  await panel.getByRole('textbox', { name: 'Message' }).focus();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(body).toBeFocused();

  // The conversation is kept: after a reload it is all there.
  await page.reload();
  await waitForLive(page);
  await page.getByTestId('chat-toggle').click();
  await expect(panel.getByTestId('chat-question')).toHaveText([
    'You: What is the weakest argument?',
    'You: Shorten the second paragraph',
  ]);
  await expect(panel.getByTestId('chat-answer')).toHaveCount(2);
  await expect(panel.getByTestId('chat-edits')).toContainText('1 change proposed');

  // Clearing asks first, then empties it (for good: a reload shows the empty state too).
  await panel.getByRole('button', { name: 'Clear conversation' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Clear this conversation?' });
  await shoot(page, 'chat-clear', 390, false);
  await page.setViewportSize({ width: 1280, height: 800 });
  await confirm.getByRole('button', { name: 'Clear' }).click();
  await expect(panel.getByTestId('chat-empty')).toBeVisible();
  await expect(panel.getByTestId('chat-answer')).toHaveCount(0);
  await page.reload();
  await waitForLive(page);
  await page.keyboard.press('Control+j');
  await expect(panel.getByTestId('chat-empty')).toBeVisible();
  await context.close();
});
