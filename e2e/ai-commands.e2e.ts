import { expect, test, type Page } from '@playwright/test';
import {
  createDocumentViaApi,
  createTestUser,
  documentText,
  editorBody,
  openLive,
  signedInContext,
} from './editor-helpers';

/**
 * Custom AI commands and the selection helper's Alternatives, against the local OpenAI-compatible server
 * (e2e/serve.ts): a writer's command answers "Ahoy, the garden be ours.", alternatives are "First/Second/Third
 * alternative.". Both arrive as tracked-change suggestions to review.
 */

async function selectFirstParagraph(page: Page) {
  await editorBody(page).locator('p').first().click();
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+End');
}

test('a command saved in Settings runs from the slash palette and the selection helper, as suggestions', async ({
  browser,
  request,
}) => {
  const user = await createTestUser(request, 'commands');
  const { id } = await createDocumentViaApi(request, user, 'Pirate plans');
  const context = await signedInContext(browser, user);
  const page = await openLive(context, id);
  const body = editorBody(page);
  await body.click();
  await page.keyboard.type('Our garden is ours to plan.');
  await page.keyboard.press('Enter');
  await page.keyboard.type('The second paragraph stays.');

  // Settings → AI commands: the examples are there; add one of our own.
  await page.getByRole('button', { name: 'Account settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Account Settings' });
  await dialog.getByRole('tab', { name: 'AI commands' }).click();
  await expect(dialog.getByTestId('ai-command').first()).toContainText('Simplify');
  await dialog.getByRole('button', { name: 'New command' }).click();
  await dialog.getByLabel('Name').fill('Pirate');
  await dialog.getByLabel('Instruction').fill('Rewrite the text as a pirate would say it.');
  await dialog.getByRole('radio', { name: 'Quote' }).click();
  await dialog.getByRole('button', { name: 'Save command' }).click();
  await expect(page.getByText('Command saved').first()).toBeVisible();
  await expect(dialog.getByTestId('ai-command').filter({ hasText: 'Pirate' })).toBeVisible();
  await expect(dialog.getByText(/5 of 20 commands/)).toBeVisible();
  await page.screenshot({ path: '/tmp/shots/ai-commands-settings-1280.png' });
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await page.screenshot({ path: '/tmp/shots/ai-commands-settings-dark-1280.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: '/tmp/shots/ai-commands-settings-dark-390.png' });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(dialog).toBeHidden();

  // From the slash palette, on the paragraph at the caret.
  await body.locator('p').first().click();
  await page.keyboard.press('End');
  await page.keyboard.type(' /pira');
  const palette = page.getByTestId('slash-palette');
  await expect(palette.getByRole('group', { name: 'Your Commands' })).toContainText('Pirate');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('ai-suggestion-accept')).toBeEnabled({ timeout: 15_000 });
  await expect(page.getByTestId('ai-suggestion-card')).toContainText('Ahoy, the garden be ours.');
  await page.getByTestId('ai-suggestion-accept').click();
  await expect(page.getByText('Command applied').first()).toBeVisible();
  // The change is proposed on the first paragraph only: its old words struck, the new ones inserted.
  const first = body.locator('p').first();
  await expect(first.locator('ins.tracked-insertion').first()).toBeVisible();
  await expect(first.locator('del.tracked-deletion').first()).toBeVisible();
  await expect(body.locator('p').nth(1)).toHaveText('The second paragraph stays.');
  await expect(body.locator('p').nth(1).locator('ins, del')).toHaveCount(0);
  await page.getByTestId('suggestion-bar').getByRole('button', { name: 'Accept all' }).click();
  await expect.poll(() => documentText(page)).toBe('Ahoy, the garden be ours.\nThe second paragraph stays.');

  // From the selection helper: the first two commands sit beside Rewrite, Grammar and Alternatives; the
  // rest (ours is the fourth offered there) unfold with More.
  await body.locator('p').nth(1).click();
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+End');
  const helper = page.getByTestId('ai-selection-helper');
  await expect(helper.getByRole('button', { name: 'Simplify' })).toBeVisible();
  await expect(helper.getByRole('button', { name: 'Pirate' })).toHaveCount(0);
  await helper.getByRole('button', { name: 'More' }).click();
  await expect(helper.getByRole('button', { name: 'Pirate' })).toBeVisible();
  await page.screenshot({ path: '/tmp/shots/ai-commands-helper-1280.png' });
  await helper.getByRole('button', { name: 'Pirate' }).click();
  await expect(page.getByTestId('ai-suggestion-accept')).toBeEnabled({ timeout: 15_000 });
  await page.getByTestId('ai-suggestion-reject').click();
  await expect(body.locator('p').nth(1)).toHaveText('The second paragraph stays.');
  await context.close();
});

test('Alternatives shows three rephrasings side by side with a word diff; the chosen one is a suggestion', async ({
  browser,
  request,
}) => {
  const user = await createTestUser(request, 'alternatives');
  const { id } = await createDocumentViaApi(request, user, 'Options');
  const context = await signedInContext(browser, user);
  const page = await openLive(context, id);
  const body = editorBody(page);
  await body.click();
  await page.keyboard.type('First draft of the alternative.');
  await selectFirstParagraph(page);

  await page.getByTestId('ai-selection-helper').getByRole('button', { name: 'Alternatives' }).click();
  const dialog = page.getByTestId('ai-alternatives-dialog');
  const options = dialog.getByTestId('ai-alternative');
  await expect(options).toHaveCount(3, { timeout: 15_000 });
  await expect(options.nth(1)).toContainText('Second alternative.');
  // The word diff against the selection: "Second" is new, "draft of the" is gone.
  await expect(options.nth(1).locator('ins')).toContainText(['Second']);
  await expect(options.nth(1).locator('del').first()).toBeVisible();
  await page.screenshot({ path: '/tmp/shots/ai-alternatives-1280.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: '/tmp/shots/ai-alternatives-390.png' });
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await page.screenshot({ path: '/tmp/shots/ai-alternatives-dark-390.png' });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.screenshot({ path: '/tmp/shots/ai-alternatives-dark-1280.png' });
  await page.evaluate(() => document.documentElement.classList.remove('dark'));

  await dialog.getByRole('button', { name: 'Use option 2' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Alternative applied').first()).toBeVisible();
  await expect(body.locator('ins.tracked-insertion').first()).toBeVisible();
  await expect(body.locator('del.tracked-deletion').first()).toBeVisible();
  await page.getByTestId('suggestion-bar').getByRole('button', { name: 'Accept all' }).click();
  await expect.poll(() => documentText(page)).toBe('Second alternative.');
  await context.close();
});
