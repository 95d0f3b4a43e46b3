import { expect, test } from '@playwright/test';
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
 * Tables, task lists and highlight in the editor: made with the slash palette and the keyboard, kept by a
 * reload, and shown live to a second session.
 */

test('a table made with /table and Tab, a ticked task and highlighted text survive a reload and reach a second session live', async ({
  browser,
  request,
}) => {
  const user = await createTestUser(request, 'tables');
  const { id } = await createDocumentViaApi(request, user, 'Planning');
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  await signInContext(contextA, user);
  await signInContext(contextB, user);
  const page = await contextA.newPage();
  const other = await contextB.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await openDocument(page, id);
  await openDocument(other, id);

  // A line of text, then /table: a 3 × 3 table with a header row, the caret in its first cell.
  await typeAtEnd(page, 'Budget for the trip');
  await page.keyboard.press('Enter');
  await page.keyboard.type('/table');
  await expect(page.getByRole('option', { name: /Table/ })).toBeVisible();
  await page.keyboard.press('Enter');
  const table = editorBody(page).locator('table');
  await expect(table).toBeVisible();
  await expect(table.locator('th')).toHaveCount(3);
  await expect(table.locator('tr')).toHaveCount(3);

  // Tab moves from cell to cell; Tab in the last cell adds a row.
  for (const cell of ['Item', 'Cost', 'Paid', 'Train', '120', 'yes', 'Hotel', '300', 'no']) {
    await page.keyboard.type(cell);
    await page.keyboard.press('Tab');
  }
  await expect(table.locator('tr')).toHaveCount(4);
  await page.keyboard.type('Food');
  await expect(table.locator('tr').nth(3).locator('td').first()).toHaveText('Food');

  // The table's menu adds a column.
  const menu = page.getByTestId('table-menu');
  await expect(menu).toBeVisible();
  await menu.getByRole('button', { name: 'Add column right' }).click();
  await expect(table.locator('tr').first().locator('th, td')).toHaveCount(4);
  await page.screenshot({ path: '/tmp/shots/tables-table-1280.png' });

  // Below the table: /todo makes a task list; the first task is ticked by clicking its box.
  await page.keyboard.press('Control+End');
  await page.keyboard.type('/todo');
  await expect(page.getByRole('option', { name: /To-do List/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await page.keyboard.type('Book the train');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Pack the bags');
  const tasks = editorBody(page).locator('ul[data-type="taskList"] > li');
  await expect(tasks).toHaveCount(2);
  await tasks.first().getByRole('checkbox').check();
  await expect(tasks.first()).toHaveAttribute('data-checked', 'true');

  // Highlight: select a word, press Highlight in the selection toolbar.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Remember the passports');
  await page.keyboard.down('Shift');
  for (let i = 0; i < 'passports'.length; i++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.up('Shift');
  await page.getByTestId('selection-toolbar').getByRole('button', { name: 'Highlight' }).click();
  await expect(editorBody(page).locator('mark')).toHaveText('passports');
  await page.screenshot({ path: '/tmp/shots/tables-all-1280.png' });

  // The second session saw it all arrive live.
  await expect(editorBody(other).locator('table tr')).toHaveCount(4);
  await expect(editorBody(other).locator('table')).toContainText('Hotel');
  await expect(editorBody(other).locator('ul[data-type="taskList"] > li').first()).toHaveAttribute(
    'data-checked',
    'true',
  );
  // The other session's mark also holds this writer's caret label.
  await expect(editorBody(other).locator('mark')).toContainText('passports');

  // Stored, and back after a reload.
  await expectStored(request, user, id, 'passports');
  await expect
    .poll(async () => JSON.stringify((await getDocumentViaApi(request, user, id)).content))
    .toContain('"highlight"');
  const stored = JSON.stringify((await getDocumentViaApi(request, user, id)).content);
  expect(stored).toContain('"tableHeader"');
  expect(stored).toContain('"checked":true');
  await page.reload();
  await waitForLive(page);
  await expect(editorBody(page).locator('table tr')).toHaveCount(4);
  await expect(editorBody(page).locator('table tr').nth(3)).toContainText('Food');
  await expect(editorBody(page).locator('ul[data-type="taskList"] > li').first()).toHaveAttribute(
    'data-checked',
    'true',
  );
  await expect(editorBody(page).locator('mark')).toHaveText('passports');
  await page.screenshot({ path: '/tmp/shots/tables-reloaded-1280.png' });
  await contextA.close();
  await contextB.close();
});
