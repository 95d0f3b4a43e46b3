import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  createDocumentViaApi,
  createTestUser,
  editorBody,
  getDocumentViaApi,
  openNewDocument,
  signInContext,
  typeAtEnd,
  waitForLive,
} from './editor-helpers';
import { THEME_STORAGE_KEY } from './fixtures';

/**
 * The editor keeps the canvas first at every width: one toolbar row, the text near the top of a phone, a focus
 * mode with nothing but the text, and nothing floating over the text or the header's buttons. Bounding boxes
 * are measured the way a person sees the page.
 */

const SHOTS = '/tmp/shots';

type Box = { x: number; y: number; width: number; height: number };

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function box(locator: Locator): Promise<Box> {
  // Some controls arrive with the settings and AI status queries; wait for them rather than measure nothing.
  await expect(locator).toBeVisible();
  const found = await locator.boundingBox();
  expect(found, 'element has a box').not.toBeNull();
  return found!;
}

/** Every control of the editor's toolbars, by its accessible name. */
const TOOLBAR_ACTIONS = [
  'Focus',
  'AI Assistant',
  'Rewrite',
  'Chat',
  'Font family',
  'Font size',
  'Text colour',
  'Bold',
  'Italic',
  'Underline',
  'Align left',
  'Align center',
  'Align right',
  'Justify',
  'Complete',
  'Improve',
  'Professional',
  'Casual',
  'Grammar',
  'Summarize',
];

function toolbarControl(page: Page, name: string): Locator {
  return page
    .getByTestId('editor-toolbar')
    .getByRole(name.startsWith('Font') ? 'combobox' : 'button', { name, exact: true });
}

const TWO_PARAGRAPHS = {
  type: 'doc',
  content: [
    { type: 'paragraph', content: [{ type: 'text', text: 'The harbour was quiet that morning.' }] },
    { type: 'paragraph', content: [{ type: 'text', text: 'Gulls argued over the nets below.' }] },
  ],
};

const THREE_PARAGRAPHS = {
  type: 'doc',
  content: [
    ...TWO_PARAGRAPHS.content,
    { type: 'paragraph', content: [{ type: 'text', text: 'By noon the boats were out.' }] },
  ],
};

async function openDocument(page: Page, id: string) {
  await page.goto(`/editor/${id}`);
  await waitForLive(page);
}

/** The first line of the document's text, as the browser lays it out. */
async function firstLineBox(page: Page): Promise<Box> {
  return editorBody(page).evaluate((body) => {
    const range = document.createRange();
    range.selectNodeContents(body.firstElementChild!);
    const rect = range.getClientRects()[0]!;
    return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
  });
}

for (const width of [1280, 390]) {
  test(`the block menu opens beside its "+" and Heading takes what is typed next at ${width}px`, async ({
    page,
    context,
    request,
  }) => {
    await page.setViewportSize({ width, height: 844 });
    const user = await createTestUser(request, 'blockmenu');
    await signInContext(context, user);
    await openNewDocument(page);
    await editorBody(page).click();

    const plus = page.getByRole('button', { name: 'Insert block' });
    await expect(plus).toBeVisible();
    const plusBox = await box(plus);
    await plus.click();
    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    const menuBox = await box(menu);
    // Next to the "+": its top within a few pixels of the button's bottom, and not off to one side.
    expect(Math.abs(menuBox.y - (plusBox.y + plusBox.height))).toBeLessThan(16);
    expect(menuBox.x).toBeLessThan(plusBox.x + plusBox.width);
    expect(menuBox.x + menuBox.width).toBeGreaterThan(plusBox.x);
    await page.screenshot({ path: `${SHOTS}/block-menu-${width}.png` });

    await menu.getByRole('menuitem', { name: 'Heading' }).click();
    await expect(menu).toBeHidden();
    await expect(editorBody(page)).toBeFocused();
    await page.keyboard.type('Chapter One');
    await expect(editorBody(page).locator('h1')).toHaveText('Chapter One');
  });
}

test('a new document has an empty title with "Untitled Document" as its placeholder, and Enter moves into the text', async ({
  page,
  context,
  request,
}) => {
  const user = await createTestUser(request, 'title');
  await signInContext(context, user);
  const { id } = await createDocumentViaApi(request, user, 'Untitled Document', TWO_PARAGRAPHS);
  await openDocument(page, id);

  const title = page.getByTestId('title-input');
  await expect(title).toHaveValue('');
  await expect(title).toHaveAttribute('placeholder', 'Untitled Document');
  await expect(page.getByTestId('breadcrumb-title')).toHaveText('Untitled Document');

  await title.click();
  await page.keyboard.type('Harbour notes');
  await expect(title).toHaveValue('Harbour notes');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Dawn. ');
  await expect(editorBody(page).locator('p').first()).toHaveText('Dawn. The harbour was quiet that morning.');
  await expect(title).toHaveValue('Harbour notes');
  await expect
    .poll(async () => (await getDocumentViaApi(request, user, id)).title, { timeout: 10_000 })
    .toBe('Harbour notes');
});

test("on a phone the document's first line is in the top 40 % of the screen and every toolbar action is reachable", async ({
  page,
  context,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const user = await createTestUser(request, 'phone-toolbar');
  await signInContext(context, user);
  const { id } = await createDocumentViaApi(request, user, 'Harbour notes', TWO_PARAGRAPHS);
  await openDocument(page, id);

  const line = await firstLineBox(page);
  expect(line.y + line.height).toBeLessThanOrEqual(844 * 0.4);

  // Each control can be reached and clicked by a person (scrolled into view, not covered, enabled).
  for (const name of TOOLBAR_ACTIONS) await toolbarControl(page, name).click({ trial: true });

  // And they act: Bold formats the selection, Improve proposes a change to it.
  await editorBody(page).locator('p').first().dblclick();
  await toolbarControl(page, 'Bold').click();
  await expect(editorBody(page).locator('p').first().locator('strong')).toHaveCount(1);
  await toolbarControl(page, 'Improve').click();
  await expect(page.getByTestId('ai-suggestion-accept')).toBeEnabled({ timeout: 15_000 });
  await page.screenshot({ path: `${SHOTS}/phone-toolbar-390.png` });
});

for (const width of [1280, 390]) {
  test(`the suggestion bubble leaves the next line readable and clickable at ${width}px`, async ({
    page,
    context,
    request,
  }) => {
    await page.setViewportSize({ width, height: 844 });
    const user = await createTestUser(request, 'bubble');
    await signInContext(context, user);
    const { id } = await createDocumentViaApi(request, user, 'Harbour notes', THREE_PARAGRAPHS);
    await openDocument(page, id);

    await page.getByRole('radio', { name: 'Suggesting' }).click();
    const changed = editorBody(page).locator('p').nth(1);
    await changed.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Still');
    await page.keyboard.press('ArrowLeft');
    const bubble = page.getByTestId('suggestion-bubble');
    await expect(bubble).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/suggestion-bubble-${width}.png` });

    // Neither the line with the change nor the next one is covered; a click on the next line lands in the text.
    const bubbleBox = await box(bubble);
    const next = editorBody(page).locator('p').nth(2);
    expect(overlaps(bubbleBox, await box(changed))).toBe(false);
    expect(overlaps(bubbleBox, await box(next))).toBe(false);
    const nextBox = await box(next);
    await page.mouse.click(nextBox.x + 20, nextBox.y + nextBox.height / 2);
    await page.keyboard.type('X');
    await expect(next).toContainText('X');
  });
}

for (const width of [1280, 390]) {
  test(`toasts keep clear of the header's Share, History and Export at ${width}px`, async ({
    page,
    context,
    request,
  }) => {
    await page.setViewportSize({ width, height: 844 });
    const user = await createTestUser(request, 'toasts');
    await signInContext(context, user);
    await openNewDocument(page);
    // Opening a new document says "Document created".
    const toast = page.locator('[data-slot="toast"]').filter({ hasText: 'Document created' });
    await expect(toast).toBeVisible();
    // Hovered, the toast stays while it is measured.
    await toast.hover();
    const toastBox = await box(toast);
    for (const name of ['Share', 'History', 'Export']) {
      const button = page.getByRole('banner').getByRole('button', { name, exact: true });
      await expect(button).toBeVisible();
      expect(overlaps(toastBox, await box(button)), `${name} is clear of the toast`).toBe(false);
    }
    expect(overlaps(toastBox, await box(page.getByTestId('title-input')))).toBe(false);
    await page.screenshot({ path: `${SHOTS}/toast-${width}.png` });
  });
}

for (const width of [1280, 768, 390]) {
  for (const theme of ['light', 'dark'] as const) {
    test(`at ${width}px in ${theme} the toolbar is one row and the text starts in the top 40 %`, async ({
      page,
      context,
      request,
    }) => {
      await page.setViewportSize({ width, height: 844 });
      await context.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [
        THEME_STORAGE_KEY,
        theme,
      ] as const);
      const user = await createTestUser(request, 'one-row');
      await signInContext(context, user);
      const { id } = await createDocumentViaApi(request, user, 'Harbour notes', TWO_PARAGRAPHS);
      await openDocument(page, id);

      const rows = new Set<number>();
      for (const name of TOOLBAR_ACTIONS) {
        const control = await box(toolbarControl(page, name));
        rows.add(Math.round((control.y + control.height / 2) / 8));
      }
      expect([...rows].length, 'toolbar rows').toBe(1);
      const line = await firstLineBox(page);
      expect(line.y + line.height).toBeLessThanOrEqual(844 * 0.4);
      await page.screenshot({ path: `${SHOTS}/editor-${width}-${theme}.png` });
    });
  }
}

test('focus mode shows nothing but the text; Escape or moving the mouse brings the rest back', async ({
  page,
  context,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 844 });
  const user = await createTestUser(request, 'focus');
  await signInContext(context, user);
  const { id } = await createDocumentViaApi(request, user, 'Harbour notes', TWO_PARAGRAPHS);
  await openDocument(page, id);
  await page.mouse.move(640, 400);

  const chrome = [
    page.getByRole('banner'),
    page.getByTestId('editor-toolbar'),
    page.getByRole('button', { name: 'Hide document stats' }),
    page.getByTestId('shortcuts-hint'),
  ];
  await toolbarControl(page, 'Focus').click();
  for (const part of chrome) await expect(part).toBeHidden();
  await expect(editorBody(page)).toBeVisible();
  await typeAtEnd(page, ' Quiet.');
  await expect(editorBody(page)).toContainText('below. Quiet.');
  for (const part of chrome.slice(0, 2)) await expect(part).toBeHidden();
  await page.screenshot({ path: `${SHOTS}/focus-mode-1280.png` });

  // Escape leaves focus mode.
  await page.keyboard.press('Escape');
  for (const part of chrome) await expect(part).toBeVisible();
  await expect(toolbarControl(page, 'Focus')).toHaveAttribute('aria-pressed', 'false');

  // Moving the mouse shows the header and toolbar again (still in focus mode); typing hides them.
  await toolbarControl(page, 'Focus').click();
  await editorBody(page).click();
  await page.keyboard.type('!');
  await expect(page.getByRole('banner')).toBeHidden();
  await page.mouse.move(300, 300, { steps: 5 });
  await page.mouse.move(600, 200, { steps: 5 });
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByTestId('editor-toolbar')).toBeVisible();
  await expect(toolbarControl(page, 'Focus')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.type('?');
  await expect(page.getByRole('banner')).toBeHidden();
});
