import { expect, test } from '@playwright/test';
import { useTheme } from './axe';
import {
  createDocumentViaApi,
  createTestUser,
  editorBody,
  expectStored,
  getDocumentViaApi,
  openDocument,
  signInContext,
  typeAtEnd,
  waitForLive,
} from './editor-helpers';

/**
 * Footnotes in the editor: inserted by the shortcut, the toolbar and /footnote, numbered in reading order,
 * the number and the note's ↩ jumping both ways, a deleted reference taking its note away (undo brings both
 * back), kept by a reload and shown live to a second session.
 */

test('footnotes: inserted three ways, renumbered, jumping both ways, undone, reloaded and seen live', async ({
  browser,
  request,
}) => {
  const user = await createTestUser(request, 'footnotes');
  const { id } = await createDocumentViaApi(request, user, 'Animal senses');
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  await useTheme(contextB, 'dark');
  await signInContext(contextA, user);
  await signInContext(contextB, user);
  const page = await contextA.newPage();
  const other = await contextB.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await other.setViewportSize({ width: 390, height: 844 });
  await openDocument(page, id);
  await openDocument(other, id);

  const body = editorBody(page);
  const numbers = body.locator('sup.footnote-ref');
  const notes = body.locator('section.footnotes li');

  // The shortcut: a reference at the caret, the caret in its new note.
  await typeAtEnd(page, 'Whales sing');
  await page.keyboard.press('Control+Alt+f');
  await expect(numbers).toHaveText(['1']);
  await page.keyboard.type('Payne and McVay, 1971.');
  await expect(notes).toHaveText(['Payne and McVay, 1971.↩']);

  // The note's ↩ returns to just after its reference; the toolbar adds the second.
  await notes.first().getByRole('button', { name: 'Back to the text' }).click();
  await page.keyboard.type(' and bats see by ear');
  await page.getByRole('button', { name: /Insert footnote/ }).click();
  await page.keyboard.type('Griffin, 1958.');
  await expect(numbers).toHaveText(['1', '2']);
  await expect(notes).toHaveText(['Payne and McVay, 1971.↩', 'Griffin, 1958.↩']);
  await expect(body.locator('p').first()).toHaveText('Whales sing1 and bats see by ear2');

  // /footnote at the start of the line: a new first footnote, the others renumbered, the notes reordered.
  await body.locator('p').first().click();
  await page.keyboard.press('Home');
  await page.keyboard.type('/footnote');
  await expect(page.getByRole('option', { name: /Footnote/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await page.keyboard.type('Many animals do.');
  await expect(numbers).toHaveText(['1', '2', '3']);
  await expect(notes).toHaveText(['Many animals do.↩', 'Payne and McVay, 1971.↩', 'Griffin, 1958.↩']);
  await page.screenshot({ path: '/tmp/shots/footnotes-1280.png' });

  // The number jumps to its note (the caret is in it: typing goes there); ↩ jumps back after the number.
  await page.keyboard.press('Control+Home');
  await numbers.nth(1).locator('a').click();
  await expect(notes.nth(1)).toBeInViewport();
  await page.keyboard.type(' Science.');
  await expect(notes.nth(1)).toHaveText('Payne and McVay, 1971. Science.↩');
  await notes.nth(1).getByRole('button', { name: 'Back to the text' }).click();
  await page.keyboard.type(',');
  await expect(body.locator('p').first()).toHaveText('1Whales sing2, and bats see by ear3');

  // Deleting a reference takes its note away; undo brings both back. Undo takes back edits made within half a
  // second of each other as one step, so the pause makes the deletion a step of its own.
  await page.waitForTimeout(700);
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Backspace');
  await expect(numbers).toHaveText(['1', '2']);
  await expect(notes).toHaveText(['Payne and McVay, 1971. Science.↩', 'Griffin, 1958.↩']);
  await page.keyboard.press('Control+z');
  await expect(numbers).toHaveText(['1', '2', '3']);
  const restored = ['Many animals do.↩', 'Payne and McVay, 1971. Science.↩', 'Griffin, 1958.↩'];
  await expect(notes).toHaveText(restored);
  await expect(body.locator('p').first()).toHaveText('1Whales sing2, and bats see by ear3');

  // The second session (dark theme, a phone's width) saw it all live.
  const otherNotes = editorBody(other).locator('section.footnotes li');
  await expect(editorBody(other).locator('sup.footnote-ref')).toHaveText(['1', '2', '3']);
  await expect(otherNotes).toHaveText(restored);
  // The last change to arrive may draw the notes again: the scroll is retried on the list as it then stands.
  await expect(async () => otherNotes.last().scrollIntoViewIfNeeded({ timeout: 1_000 })).toPass();
  await other.screenshot({ path: '/tmp/shots/footnotes-390-dark.png' });

  // Stored, and back after a reload.
  await expectStored(request, user, id, 'Many animals do.');
  const stored = (await getDocumentViaApi(request, user, id)).content as { content: { type: string }[] };
  expect(stored.content.at(-1)?.type).toBe('footnotes');
  await page.reload();
  await waitForLive(page);
  await expect(numbers).toHaveText(['1', '2', '3']);
  await expect(notes).toHaveText(restored);
  await contextA.close();
  await contextB.close();
});
