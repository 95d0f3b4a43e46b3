import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { editorBody, waitForLive } from './editor-helpers';
import { expect, test, type Users } from './fixtures';

/**
 * The editor's first hour, the points a writer meets at once: the account chip speaks its own name, the shortcut
 * sheet is reachable on a phone, and the history keys are the ones the sheet lists.
 */

const SHOTS = '/tmp/shots';
mkdirSync(SHOTS, { recursive: true });

const CONTENT = {
  type: 'doc',
  content: [
    {
      type: 'paragraph',
      content: [{ type: 'text', text: 'The river was high that spring, and the ferry ran late every day.' }],
    },
    { type: 'paragraph', content: [{ type: 'text', text: 'Nobody minded the wait at the landing.' }] },
    { type: 'paragraph', content: [{ type: 'text', text: 'The children counted boats until dusk.' }] },
  ],
};

async function openOwnDocument(page: Page, users: Users, prefix: string): Promise<string> {
  const owner = await users.create({ prefix });
  const created = await users.api(owner).post('/api/documents', { title: 'River notes', content: CONTENT });
  const { id } = (await created.json()) as { id: string };
  await users.login(owner);
  await page.goto(`/editor/${id}`);
  await waitForLive(page);
  return owner.email;
}

test('the account chip: its button is named by what it does, the name and plan beside it open it too', async ({
  page,
  users,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  // A local part that holds the words of other header buttons: their locators must not find the chip.
  const email = await openOwnDocument(page, users, 'history-share');
  const chip = page.getByTestId('user-chip');
  await expect(chip).toContainText(email.split('@')[0] ?? '');
  await expect(chip.getByText('Gratis Plan')).toBeVisible();
  await page.locator('header').screenshot({ path: `${SHOTS}/editor-header-1280.png` });
  await expect(page.getByRole('button', { name: 'History' })).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Share' })).toHaveCount(1);

  const header = await new AxeBuilder({ page })
    .include('header')
    .withRules(['label-content-name-mismatch'])
    .analyze();
  expect(header.violations.map((violation) => violation.id)).toEqual([]);

  await chip.getByText('Gratis Plan').click();
  await expect(page.getByRole('dialog', { name: /settings/iu })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Account settings', exact: true }).click();
  await expect(page.getByRole('dialog', { name: /settings/iu })).toBeVisible();
});

test('on a phone the keyboard shortcut sheet opens from the header', async ({ page, users }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openOwnDocument(page, users, 'phone-sheet');
  await expect(page.getByTestId('shortcuts-hint')).toBeHidden();
  const button = page.getByRole('button', { name: 'Keyboard shortcuts', exact: true });
  await expect(button).toBeVisible();
  await expect(button).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: `${SHOTS}/phone-header-390.png` });
  await button.click();
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  await page.waitForTimeout(350);
  await page.screenshot({ path: `${SHOTS}/phone-shortcut-sheet-390.png` });
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  await expect(button).toBeFocused();

  // A tablet, and a window just narrower than the hint box needs: still one way in.
  for (const width of [768, 1000]) {
    await page.setViewportSize({ width, height: 800 });
    await expect(page.getByTestId('shortcuts-hint')).toBeHidden();
    await expect(button).toBeInViewport({ ratio: 1 });
  }

  // Where the hint box shows, its link is the way in and the header keeps one button less.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByTestId('shortcuts-hint')).toBeVisible();
  await expect(button).toBeHidden();
});

test('the history keys are the ones the shortcut sheet lists, and they open the history and Save version', async ({
  page,
  users,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openOwnDocument(page, users, 'history-keys');
  const historyButton = page.getByRole('button', { name: 'History', exact: true });
  await expect(historyButton).toHaveAttribute('aria-keyshortcuts', 'Control+Alt+H Meta+Alt+H');
  await expect(historyButton).toHaveAttribute('title', 'Version history (Ctrl+Alt+H)');

  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  const row = (label: string) =>
    sheet.getByTestId('shortcut-row').filter({ has: page.getByText(label, { exact: true }) });
  await expect(row('Version history').locator('kbd')).toHaveText('Ctrl+Alt+H');
  await expect(row('Save a named version').locator('kbd')).toHaveText('Ctrl+Alt+S');
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();

  await editorBody(page).click();
  await page.keyboard.press('Control+Alt+h');
  const panel = page.getByTestId('history-panel');
  await expect(panel).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await editorBody(page).click();
  await page.keyboard.press('Control+Alt+s');
  await expect(page.getByRole('dialog', { name: 'Save version' })).toBeVisible();
});

for (const width of [1280, 390]) {
  test(`a toast never covers the history panel's Restore button (${width} px)`, async ({ page, users }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await openOwnDocument(page, users, `toast-restore-${width}`);
    await editorBody(page).click();
    await page.keyboard.press('Control+Alt+s');
    const save = page.getByRole('dialog', { name: 'Save version' });
    await save.getByLabel('Version name').fill('Spring draft');
    await save.getByRole('button', { name: 'Save version' }).click();
    // By its text: the open history panel hides the rest of the page from the accessibility tree.
    const toast = page.getByText('Version saved', { exact: true }).locator('xpath=ancestor::li[1]');
    await expect(toast).toBeVisible();

    await page.getByRole('button', { name: 'History', exact: true }).click();
    const panel = page.getByTestId('history-panel');
    await panel.getByTestId('version-item').filter({ hasText: 'Spring draft' }).click();
    const restore = panel.getByRole('button', { name: 'Restore this version' });
    await expect(restore).toBeVisible();
    await expect(toast).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/history-toast-${width}.png` });
    const [a, b] = await Promise.all([restore.boundingBox(), toast.boundingBox()]);
    if (!a || !b) throw new Error('Restore or the toast has no box');
    const overlaps =
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlaps, `Restore ${JSON.stringify(a)} vs toast ${JSON.stringify(b)}`).toBe(false);
  });
}

type Rect = { x: number; y: number; width: number; height: number };
const overlaps = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The client rects of the text of the editor's paragraph `index` (each line a rect). */
async function lineRects(page: Page, index: number): Promise<Rect[]> {
  return editorBody(page).evaluate((body, at) => {
    const range = document.createRange();
    range.selectNodeContents(body.children[at]!);
    return [...range.getClientRects()].map(({ x, y, width, height }) => ({ x, y, width, height }));
  }, index);
}

test('on a phone the AI helper for a selection docks to the screen’s edge, clear of the lines around it', async ({
  page,
  users,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openOwnDocument(page, users, 'helper-phone');
  // Select the middle paragraph: the lines above and below it are what a bar under the selection would cover.
  await editorBody(page).locator('p').nth(1).click();
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+End');
  const helper = page.getByTestId('ai-selection-helper');
  await expect(helper).toBeVisible();
  await expect(helper).toHaveAttribute('data-docked', 'bottom');
  await expect(helper).toBeInViewport({ ratio: 1 });
  const helperBox = (await helper.boundingBox())!;
  for (const index of [0, 1, 2])
    for (const line of await lineRects(page, index))
      expect(overlaps(helperBox, line), `the helper is clear of paragraph ${index + 1}`).toBe(false);
  await page.screenshot({ path: `${SHOTS}/ai-helper-docked-390.png` });

  // Its buttons still act on the selection: Rewrite opens its dialog.
  await helper.getByRole('button', { name: 'Rewrite' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
});

test('on a desktop the AI helper for a selection stays under the selection’s end', async ({
  page,
  users,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openOwnDocument(page, users, 'helper-desktop');
  await editorBody(page).locator('p').nth(1).click();
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+End');
  const helper = page.getByTestId('ai-selection-helper');
  await expect(helper).toBeVisible();
  await expect(helper).not.toHaveAttribute('data-docked');
  const selected = await lineRects(page, 1);
  const helperBox = (await helper.boundingBox())!;
  expect(helperBox.y).toBeGreaterThanOrEqual(selected.at(-1)!.y + selected.at(-1)!.height);
  for (const line of selected) expect(overlaps(helperBox, line)).toBe(false);
});
