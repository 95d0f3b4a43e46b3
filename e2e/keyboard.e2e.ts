import type { Locator, Page } from '@playwright/test';
import { editorBody, openNewDocument, typeAtEnd, waitForLive } from './editor-helpers';
import { expect, openHome, shoot, test, TEST_PASSWORD, uniqueEmail } from './fixtures';

/**
 * The whole journey without a mouse: sign up, create a document, format text, run an AI action, share, export
 * and sign out, with Tab, Enter, Space, arrows, Escape and the editor's shortcuts only.
 */

/** Presses Tab (Shift+Tab with `backwards`) until the target has focus, as a keyboard user would. */
async function tabTo(page: Page, target: Locator, { backwards = false, max = 60 } = {}) {
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

test('sign up, write, format, ask the AI, share, export and sign out with the keyboard only', async ({
  page,
}) => {
  // The whole journey, one key at a time: longer than one screen's test.
  test.setTimeout(150_000);
  await openHome(page);
  await tabTo(page, page.getByRole('button', { name: 'Start Writing' }).first());
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  const email = uniqueEmail('keyboard');
  await tabTo(page, dialog.getByLabel('Full name'));
  await page.keyboard.type('Kay Board');
  await tabTo(page, dialog.getByLabel('Email'));
  await page.keyboard.type(email);
  await tabTo(page, dialog.getByLabel('Password'));
  await page.keyboard.type(TEST_PASSWORD);
  await page.keyboard.press('Enter');

  // Signed in: the dashboard, then a new document.
  const newDocument = page.getByRole('button', { name: 'New Document' }).first();
  await expect(newDocument).toBeVisible({ timeout: 15_000 });
  await tabTo(page, newDocument);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/editor\/[0-9a-f-]{36}$/u);
  await waitForLive(page);

  // Title, then into the body and write; Ctrl+B makes the last word bold.
  await tabTo(page, page.getByTestId('title-input'));
  await page.keyboard.type('Keyboard notes');
  await tabTo(page, editorBody(page));
  await page.keyboard.type('Written without a mouse');
  await page.keyboard.press('Shift+Control+ArrowLeft');
  // As a person would, press Ctrl+B once the selection shows (its helper appears with it).
  await expect(page.getByTestId('ai-selection-helper')).toBeVisible();
  await page.keyboard.press('Control+b');
  await expect(editorBody(page).locator('strong')).toHaveText('mouse');

  // An AI action from the keyboard: Ctrl+Shift+Enter continues the text, the card is reached with Tab.
  await page.keyboard.press('End');
  await page.keyboard.press('Control+Shift+Enter');
  const accept = page.getByTestId('ai-suggestion-accept');
  await expect(accept).toBeEnabled({ timeout: 15_000 });
  await tabTo(page, accept);
  await page.keyboard.press('Enter');
  await expect(editorBody(page)).toContainText('The improved text.');

  // Share: the menu opens with Enter, the switch turns with Space and shows the link's choices, Tab reaches
  // Publish, Enter publishes, Escape closes.
  await tabTo(page, page.getByRole('button', { name: 'Share' }).first(), { backwards: true, max: 120 });
  await page.keyboard.press('Enter');
  const publicSwitch = page.getByRole('switch', { name: 'Public link' });
  await tabTo(page, publicSwitch);
  await page.keyboard.press('Space');
  await expect(publicSwitch).toBeChecked();
  await expect(publicSwitch).toBeFocused();
  await tabTo(page, page.getByRole('button', { name: 'Publish', exact: true }));
  await page.keyboard.press('Enter');
  // Escape closes the newest layer first: the 'Sharing Updated' toast, then the menu.
  const toast = page.getByRole('status').filter({ hasText: 'Sharing Updated' });
  await expect(toast).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(toast).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(publicSwitch).toBeHidden();

  // Export Markdown: arrows move through the menu, Enter downloads.
  await tabTo(page, page.getByRole('button', { name: 'Export' }).first());
  await page.keyboard.press('Enter');
  const markdown = page.getByRole('menuitem', { name: /Markdown/u });
  await expect(markdown).toBeVisible();
  // Opened from the keyboard, the menu focuses its first item itself; each arrow then moves one item. Wait for
  // each move to land before looking again, so a slow frame cannot make the loop overshoot.
  const focusedItem = () => page.evaluate(() => document.activeElement?.textContent ?? '');
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('menuitem');
  for (let i = 0; i < 6 && !(await markdown.evaluate((e) => e === document.activeElement)); i += 1) {
    const before = await focusedItem();
    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedItem).not.toBe(before);
  }
  await expect(markdown).toBeFocused();
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  expect((await download).suggestedFilename()).toMatch(/^keyboard_notes_.*\.md$/u);

  // Sign out from the account dialog.
  await tabTo(page, page.getByRole('button', { name: 'Account settings' }).first());
  await page.keyboard.press('Enter');
  const settings = page.getByRole('dialog');
  await tabTo(page, settings.getByRole('button', { name: 'Sign Out', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Start Writing' }).first()).toBeVisible({ timeout: 15_000 });
});

test('one meaning per shortcut: Ctrl+K is the quick switcher in the editor too, Ctrl+Shift+Enter is AI Complete', async ({
  page,
  users,
}) => {
  await users.login(await users.create({ prefix: 'keys' }));
  await openNewDocument(page);
  await typeAtEnd(page, 'The tide came in slowly');

  // From inside the text, Ctrl+K opens the quick switcher (as on the dashboard) and changes nothing in the text.
  await page.keyboard.press('Control+k');
  const switcher = page.getByRole('dialog', { name: 'Go to a document' });
  await expect(switcher).toBeVisible();
  await expect(page.getByTestId('ai-suggestion-accept')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(switcher).toBeHidden();

  // The AI shortcut continues from the cursor: the answer arrives as a suggestion card.
  await editorBody(page).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Control+Shift+Enter');
  const accept = page.getByTestId('ai-suggestion-accept');
  await expect(accept).toBeEnabled({ timeout: 15_000 });
  await accept.click();
  await expect(editorBody(page)).toContainText('The improved text.');

  // The palette shows the same key it runs.
  await page.keyboard.press('Enter');
  await page.keyboard.type('/');
  await expect(page.getByRole('option', { name: /AI Complete/u })).toContainText('Ctrl+Shift+Enter');
});

test('"?" opens the keyboard shortcut sheet on the dashboard and from the editor\'s hint box', async ({
  page,
  users,
}) => {
  await users.login(await users.create({ prefix: 'sheet' }));
  await openHome(page);
  await expect(page.getByRole('button', { name: 'New Document' }).first()).toBeVisible({ timeout: 15_000 });
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  const row = (label: string) =>
    sheet.getByTestId('shortcut-row').filter({ has: page.getByText(label, { exact: true }) });
  await expect(row('Find and open a document (quick switcher)').locator('kbd')).toHaveText('Ctrl+K');
  await expect(row('AI Complete: continue writing from the cursor').locator('kbd')).toHaveText(
    'Ctrl+Shift+Enter',
  );
  await expect(row('Chat with the document').locator('kbd')).toHaveText('Ctrl+J');
  for (const width of [1280, 390] as const) await shoot(page, 'shortcut-sheet', width);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();

  // In the document "?" is a question mark; the hint box's button opens the sheet.
  await openNewDocument(page);
  await typeAtEnd(page, 'Why?');
  await expect(editorBody(page)).toContainText('Why?');
  await expect(sheet).toBeHidden();
  await page.getByRole('button', { name: 'All shortcuts (?)' }).click();
  await expect(sheet).toBeVisible();
});
