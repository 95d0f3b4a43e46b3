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
 * Typewriter scrolling and focus dimming, from the toolbar's Typewriter and dimming button: both off at first, turned on by
 * keyboard and by mouse, the caret's line held near the typewriter line while typing many lines, only the
 * current sentence (then paragraph) at full strength and readable dimmed text in both themes, and the choices
 * still there after a reload.
 */
const SHOTS = '/tmp/focus-shots';
/** The typewriter line (typewriter.ts) and how far from it the caret may sit once the page has scrolled. */
const TYPEWRITER_LINE = 0.45;
const TOLERANCE = 0.06;

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const DOCUMENT = {
  type: 'doc',
  content: [
    { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'The walled garden' }] },
    paragraph('Every spring we plant tomatoes. The beans go along the south wall. Sunflowers come last.'),
    paragraph('In March the compost is turned. By April the seedlings are out.'),
  ],
};

/** Where the caret's line is, as a share of the window's height from its top. */
function caretHeight(page: Page): Promise<number> {
  return page.evaluate(() => {
    const selection = window.getSelection();
    if (!selection || selection.rangeCount === 0) return -1;
    let rect = selection.getRangeAt(0).getBoundingClientRect();
    if (rect.height === 0) {
      const node = selection.focusNode;
      const element = node instanceof Element ? node : node?.parentElement;
      if (!element) return -1;
      rect = element.getBoundingClientRect();
    }
    return (rect.top + rect.bottom) / 2 / window.innerHeight;
  });
}

/** The text colour of an element, as the browser draws it. */
const colorOf = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((element) => getComputedStyle(element).color);

async function shoot(page: Page, name: string, dark: boolean) {
  await page.evaluate((on) => {
    document.documentElement.classList.toggle('dark', on);
    window.scrollTo({ top: 0, behavior: 'instant' });
  }, dark);
  await page.waitForTimeout(200);
  await page.screenshot({ path: `${SHOTS}/${name}-${dark ? 'dark' : 'light'}.png` });
}

test('typewriter scrolling and focus dimming: off at first, on from the toolbar, remembered', async ({
  browser,
  request,
}) => {
  // Some 1,400 keystrokes into a live document, with polls between them: past the default minute when the suite's
  // other worker is busy (it failed on time, not on a check).
  test.slow();
  const user = await createTestUser(request, 'focus');
  const { id } = await createDocumentViaApi(request, user, 'The garden', DOCUMENT);
  // Reduced motion: the page jumps to the typewriter line instead of gliding there, so where the caret sits is
  // measured without racing a smooth scroll that each keystroke restarts (on a loaded machine it never settled).
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    reducedMotion: 'reduce',
  });
  await signInContext(context, user);
  const page = await context.newPage();
  await page.goto(`/editor/${id}`);
  await waitForLive(page);
  const body = editorBody(page);

  // Both off by default: nothing dimmed, no typewriter room under the text.
  await expect(body).not.toHaveClass(/qw-focus-dimming/u);
  await expect(body).not.toHaveClass(/qw-typewriter/u);
  const trigger = page.getByTestId('focus-options');
  await trigger.click();
  const typewriter = page.getByRole('switch', { name: 'Typewriter scrolling' });
  const dimming = page.getByRole('switch', { name: 'Focus dimming' });
  await expect(typewriter).toHaveAttribute('aria-checked', 'false');
  await expect(dimming).toHaveAttribute('aria-checked', 'false');
  await page.screenshot({ path: `${SHOTS}/options-open.png` });
  await expectAccessible(page, 'focus options');
  await page.keyboard.press('Escape');
  await expect(typewriter).toBeHidden();

  // By keyboard: the trigger opens the options, Space turns typewriter scrolling on, Escape closes them.
  await trigger.focus();
  await page.keyboard.press('Enter');
  await expect(typewriter).toBeFocused();
  await page.keyboard.press('Space');
  await expect(typewriter).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Escape');
  await expect(body).toHaveClass(/qw-typewriter/u);

  // Many lines typed at the end: once there is text above, the caret's line stays near the typewriter line.
  await body.getByText('By April').click();
  await page.keyboard.press('Control+End');
  for (let line = 1; line <= 40; line += 1) {
    await page.keyboard.press('Enter');
    await page.keyboard.type(`Line ${line} of the long session.`);
    if (line >= 20 && line % 5 === 0) {
      await expect
        .poll(() => caretHeight(page), { message: `caret of line ${line}` })
        .toBeGreaterThan(TYPEWRITER_LINE - TOLERANCE);
      await expect.poll(() => caretHeight(page)).toBeLessThan(TYPEWRITER_LINE + TOLERANCE);
    }
  }
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
  // Moving the caret with the keys scrolls too: ten lines up, the line comes back to the typewriter line.
  for (let step = 0; step < 10; step += 1) await page.keyboard.press('ArrowUp');
  await expect.poll(() => caretHeight(page)).toBeGreaterThan(TYPEWRITER_LINE - TOLERANCE);
  await expect.poll(() => caretHeight(page)).toBeLessThan(TYPEWRITER_LINE + TOLERANCE);

  // Focus dimming by sentence, turned on with the mouse; the caret goes into the first paragraph's second sentence.
  await trigger.click();
  await dimming.click();
  await expect(dimming).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByRole('radio', { name: 'Sentence' })).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Escape');
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  // The caret goes into "The beans go along the south wall." (a click would do; placed exactly here).
  await body.focus();
  await page.evaluate(() => {
    const walker = document.createTreeWalker(
      document.querySelector('[data-testid="editor-body"]')!,
      NodeFilter.SHOW_TEXT,
    );
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf('beans') ?? -1;
      if (at >= 0) return window.getSelection()?.collapse(node, at);
    }
  });
  await expect(body).toHaveClass(/qw-focus-dimming/u);
  const current = body.locator('.qw-focus-current');
  await expect(current).toHaveCount(1);
  await expect(current).toContainText('The beans go along the south wall.');
  // Lit: the sentence itself (the paragraph's own text); dimmed: its other sentences and every other block.
  const dimmedInCurrent = current.locator('.qw-focus-dimmed');
  await expect(dimmedInCurrent).toHaveText(['Every spring we plant tomatoes. ', ' Sunflowers come last.']);
  const lit = await colorOf(page, '.qw-focus-current');
  const dimmedColor = await colorOf(page, '.qw-focus-current .qw-focus-dimmed');
  expect(dimmedColor).not.toBe(lit);
  expect(await colorOf(page, '[data-testid="editor-body"] > h2')).toBe(dimmedColor);
  expect(await colorOf(page, '[data-testid="editor-body"] > p:nth-of-type(2)')).toBe(dimmedColor);
  for (const dark of [false, true]) {
    await shoot(page, 'dimming-sentence', dark);
    await expectAccessible(page, `dimming by sentence (${dark ? 'dark' : 'light'})`);
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));

  // By paragraph: the whole paragraph is lit, the rest dimmed.
  await trigger.click();
  await page.getByRole('radio', { name: 'Paragraph' }).click();
  await page.keyboard.press('Escape');
  await body.focus();
  await expect(dimmedInCurrent).toHaveCount(0);
  await expect(current).toContainText('Every spring we plant tomatoes.');
  expect(await colorOf(page, '[data-testid="editor-body"] > h2')).toBe(dimmedColor);
  for (const dark of [false, true]) await shoot(page, 'dimming-paragraph', dark);
  await page.evaluate(() => document.documentElement.classList.remove('dark'));

  // The choices survive a reload.
  await page.reload();
  await waitForLive(page);
  await expect(body).toHaveClass(/qw-focus-dimming/u);
  await expect(body).toHaveClass(/qw-typewriter/u);
  await trigger.click();
  await expect(typewriter).toHaveAttribute('aria-checked', 'true');
  await expect(dimming).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByRole('radio', { name: 'Paragraph' })).toHaveAttribute('aria-checked', 'true');

  // Off again: nothing dimmed.
  await dimming.click();
  await typewriter.click();
  await page.keyboard.press('Escape');
  await expect(body).not.toHaveClass(/qw-focus-dimming/u);
  await expect(body).not.toHaveClass(/qw-typewriter/u);
  await expect(body.locator('.qw-focus-dimmed')).toHaveCount(0);
  await context.close();
});
