import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import {
  createDocumentViaApi,
  createTestUser,
  editorBody,
  signInContext,
  storedContentJson,
  waitForLive,
} from './editor-helpers';

/**
 * The Outline: a book of two chapters with scenes, long enough to scroll. Opens the panel, jumps by click, watches
 * the highlight follow the scrolling, moves sections by keyboard and by drag (stored through the collaboration
 * socket) and undoes each move in one step.
 */
const SHOTS = '/tmp/outline-shots';

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const heading = (level: number, text: string) => ({
  type: 'heading',
  attrs: { level },
  content: [{ type: 'text', text }],
});
/** Ten paragraphs of twelve words: a scene fills more than a screen. */
const filler = (name: string) =>
  Array.from({ length: 10 }, (_, index) =>
    paragraph(`${name} paragraph ${index + 1} goes on with words that fill the page nicely.`),
  );

const BOOK = {
  type: 'doc',
  content: [
    heading(1, 'Chapter One'),
    ...filler('Opening'),
    heading(2, 'Scene A'),
    ...filler('Alpha'),
    heading(2, 'Scene B'),
    ...filler('Bravo'),
    heading(1, 'Chapter Two'),
    heading(2, 'Scene C'),
    ...filler('Charlie'),
  ],
};

async function shoot(page: Page, name: string, dark: boolean) {
  await page.evaluate((on) => document.documentElement.classList.toggle('dark', on), dark);
  await page.waitForTimeout(200);
  await page.screenshot({ path: `${SHOTS}/${name}-${dark ? 'dark' : 'light'}.png` });
}

/** The headings in the outline, top to bottom. */
async function outlineOrder(tree: Locator): Promise<string[]> {
  return tree
    .getByRole('treeitem')
    .evaluateAll((items) => items.map((item) => item.querySelector('.truncate')?.textContent ?? ''));
}

/** The top-level headings of the document as the editor shows them. */
async function documentHeadings(page: Page): Promise<string[]> {
  return editorBody(page)
    .locator(':scope > h1, :scope > h2, :scope > h3')
    .evaluateAll((items) => items.map((item) => item.textContent ?? ''));
}

test('the outline lists the headings, jumps, follows the scrolling and moves sections', async ({
  browser,
  request,
}) => {
  const user = await createTestUser(request, 'outline');
  const { id } = await createDocumentViaApi(request, user, 'A book', BOOK);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await signInContext(context, user);
  const page = await context.newPage();
  await page.goto(`/editor/${id}`);
  await waitForLive(page);

  // The toolbar's Outline toggle opens the panel: the headings as a tree with words per section and in total.
  const toggle = page.getByTestId('outline-toggle');
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  const panel = page.getByRole('complementary', { name: 'Outline' });
  const tree = panel.getByRole('tree', { name: 'Document outline' });
  await expect(tree.getByRole('treeitem')).toHaveCount(5);
  expect(await outlineOrder(tree)).toEqual(['Chapter One', 'Scene A', 'Scene B', 'Chapter Two', 'Scene C']);
  // Twelve words a paragraph, ten paragraphs a scene; headings count too.
  await expect(tree.getByRole('treeitem', { name: 'Scene A 122 words' })).toHaveAttribute('aria-level', '2');
  await expect(tree.getByRole('treeitem', { name: 'Chapter One 366 words' })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await expect(panel.getByTestId('outline-total')).toHaveText('490 words in total');
  await expectAccessible(page, 'editor with the outline');
  await shoot(page, 'outline-open', false);
  await shoot(page, 'outline-open', true);
  await page.evaluate(() => document.documentElement.classList.toggle('dark', false));

  // A click jumps: the heading at the top of the page, the caret at its start, the row highlighted.
  const item = (name: string) => tree.getByRole('treeitem', { name: new RegExp(`^${name} \\d`, 'u') });
  await expect(item('Chapter One')).toHaveAttribute('aria-current', 'location');
  await item('Scene B').click();
  const sceneB = editorBody(page).locator('h2', { hasText: 'Scene B' });
  await expect(sceneB).toBeInViewport();
  // Below the sticky header, at the top of what is read.
  const top = await sceneB.evaluate((element) => element.getBoundingClientRect().top);
  expect(top).toBeGreaterThan(130);
  expect(top).toBeLessThan(180);
  await expect(item('Scene B')).toHaveAttribute('aria-current', 'location');
  await expect(item('Chapter One')).not.toHaveAttribute('aria-current', 'location');
  await page.keyboard.type('Late ');
  await expect(sceneB).toHaveText('Late Scene B');
  await page.keyboard.press('Control+z');
  await expect(sceneB).toHaveText('Scene B');

  // Scrolling moves the highlight to the section being read.
  await editorBody(page)
    .locator('p', { hasText: 'Alpha paragraph 5 ' })
    .evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await expect(item('Scene A')).toHaveAttribute('aria-current', 'location');
  await editorBody(page)
    .locator('p', { hasText: 'Bravo paragraph 3 ' })
    .evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await expect(item('Scene B')).toHaveAttribute('aria-current', 'location');
  await expect(item('Scene A')).not.toHaveAttribute('aria-current', 'location');
  await shoot(page, 'outline-scrolled', false);
  await shoot(page, 'outline-scrolled', true);
  await page.evaluate(() => document.documentElement.classList.toggle('dark', false));

  // Keyboard: arrows move through the tree, Left collapses, Right expands, Alt+↑ moves the focused section.
  await item('Chapter One').focus();
  await page.keyboard.press('ArrowDown');
  await expect(item('Scene A')).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(item('Chapter One')).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(item('Chapter One')).toHaveAttribute('aria-expanded', 'false');
  await expect(tree.getByRole('treeitem')).toHaveCount(3);
  await page.keyboard.press('ArrowRight');
  await expect(tree.getByRole('treeitem')).toHaveCount(5);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(item('Scene B')).toBeFocused();
  await page.keyboard.press('Alt+ArrowUp');
  expect(await outlineOrder(tree)).toEqual(['Chapter One', 'Scene B', 'Scene A', 'Chapter Two', 'Scene C']);
  await expect(item('Scene B')).toBeFocused();
  expect(await documentHeadings(page)).toEqual([
    'Chapter One',
    'Scene B',
    'Scene A',
    'Chapter Two',
    'Scene C',
  ]);
  // The whole section moved: its paragraphs follow its heading.
  await expect(editorBody(page).locator('h2', { hasText: 'Scene B' }).locator('+ p')).toHaveText(
    /^Bravo paragraph 1 /u,
  );
  // Stored through the collaboration socket like any edit.
  await expect
    .poll(async () => {
      const json = await storedContentJson(request, user, id);
      return json.indexOf('Scene B') < json.indexOf('Scene A');
    })
    .toBe(true);
  // Alt+↓ twice: back past Scene A, then down into Chapter Two, before its first scene.
  await page.keyboard.press('Alt+ArrowDown');
  await page.keyboard.press('Alt+ArrowDown');
  expect(await outlineOrder(tree)).toEqual(['Chapter One', 'Scene A', 'Chapter Two', 'Scene B', 'Scene C']);
  await expect(item('Scene B')).toHaveAttribute('aria-level', '2');

  // Each move is one undo step.
  await editorBody(page).focus();
  await page.keyboard.press('Control+z');
  await expect
    .poll(() => outlineOrder(tree))
    .toEqual(['Chapter One', 'Scene A', 'Scene B', 'Chapter Two', 'Scene C']);
  await page.keyboard.press('Control+z');
  await expect
    .poll(() => outlineOrder(tree))
    .toEqual(['Chapter One', 'Scene B', 'Scene A', 'Chapter Two', 'Scene C']);
  await page.keyboard.press('Control+z');
  await expect
    .poll(() => outlineOrder(tree))
    .toEqual(['Chapter One', 'Scene A', 'Scene B', 'Chapter Two', 'Scene C']);
  expect(await documentHeadings(page)).toEqual([
    'Chapter One',
    'Scene A',
    'Scene B',
    'Chapter Two',
    'Scene C',
  ]);

  // Drag: Chapter Two (with its scene) dropped on the upper half of Chapter One goes before it.
  await item('Chapter Two').dragTo(item('Chapter One'), { targetPosition: { x: 40, y: 4 } });
  await expect
    .poll(() => outlineOrder(tree))
    .toEqual(['Chapter Two', 'Scene C', 'Chapter One', 'Scene A', 'Scene B']);
  expect(await documentHeadings(page)).toEqual([
    'Chapter Two',
    'Scene C',
    'Chapter One',
    'Scene A',
    'Scene B',
  ]);
  await expect(panel.getByTestId('outline-total')).toHaveText('490 words in total');
  await editorBody(page).focus();
  await page.keyboard.press('Control+z');
  await expect
    .poll(() => outlineOrder(tree))
    .toEqual(['Chapter One', 'Scene A', 'Scene B', 'Chapter Two', 'Scene C']);
  await expect
    .poll(async () => {
      const json = await storedContentJson(request, user, id);
      return json.indexOf('Chapter One') < json.indexOf('Chapter Two');
    })
    .toBe(true);

  // The panel's open state is remembered: it is open again after a reload.
  await page.reload();
  await waitForLive(page);
  await expect(page.getByRole('tree', { name: 'Document outline' })).toBeVisible();

  // In Suggesting mode a move could not be reviewed as a suggestion: moving is off and the panel says so.
  await page.getByRole('radio', { name: 'Suggesting' }).click();
  await expect(panel.getByTestId('outline-move-hint')).toContainText('off in Suggesting mode');
  await expect(item('Scene B')).toHaveAttribute('draggable', 'false');
  await item('Scene B').focus();
  await page.keyboard.press('Alt+ArrowUp');
  expect(await outlineOrder(tree)).toEqual(['Chapter One', 'Scene A', 'Scene B', 'Chapter Two', 'Scene C']);
  await page.getByRole('radio', { name: 'Editing' }).click();

  // On a phone the outline sits above the text.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await shoot(page, 'outline-phone', false);
  await shoot(page, 'outline-phone', true);

  // The close button closes it and gives the focus back to the text.
  await page.setViewportSize({ width: 1280, height: 800 });
  await panel.getByRole('button', { name: 'Close outline' }).click();
  await expect(panel).toHaveCount(0);
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await context.close();
});
