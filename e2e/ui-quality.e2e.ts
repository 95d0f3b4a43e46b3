import { expect, test, type Page } from '@playwright/test';
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
import { openHome } from './fixtures';

/**
 * Screens as a careful reviewer walks them at several widths: each test here pins down a defect a writer
 * would notice (fonts, palette, header, titles, failed loads and saves, small screens, screen readers).
 */

const SHOTS = '/tmp/shots';

/** The visible elements a locator matches (Tailwind hides by display: none, so this is what a person sees). */
async function visibleCount(page: Page, selector: Parameters<Page['getByRole']>) {
  const all = await page.getByRole(...selector).all();
  let visible = 0;
  for (const element of all) if (await element.isVisible()) visible += 1;
  return visible;
}

test('the editor fonts are served by the app, swap in without blocking, and the picker shows each in itself', async ({
  page,
  context,
  request,
}) => {
  const user = await createTestUser(request, 'fonts');
  await signInContext(context, user);
  const fontRequests: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('.woff2')) fontRequests.push(new URL(r.url()).host);
  });
  await openNewDocument(page);

  const faces = await page.evaluate(async () => {
    await document.fonts.load('16px "Space Grotesk"');
    await document.fonts.load('16px Inter');
    await document.fonts.load('italic 16px Inter');
    return [...document.fonts].map((face) => ({
      family: face.family.replace(/"/gu, ''),
      style: face.style,
      display: face.display,
      status: face.status,
    }));
  });
  for (const [family, style] of [
    ['Inter', 'normal'],
    ['Inter', 'italic'],
    ['Space Grotesk', 'normal'],
  ] as const) {
    expect(faces).toContainEqual({ family, style, display: 'swap', status: 'loaded' });
  }
  // Self-hosted: every font file comes from this server, none from a font CDN.
  expect(fontRequests.length).toBeGreaterThan(0);
  expect(new Set(fontRequests)).toEqual(new Set([new URL(page.url()).host]));

  await page.getByRole('combobox', { name: 'Font family' }).click();
  const grotesk = page.getByRole('option', { name: 'Space Grotesk' });
  await expect(grotesk).toHaveCSS('font-family', /^"Space Grotesk"/u);
  await expect(page.getByRole('option', { name: 'Courier New' })).toHaveCSS('font-family', /^"Courier New"/u);
  await page.screenshot({ path: `${SHOTS}/font-picker-1280.png` });
  await grotesk.click();
  // The writer types on at once: the closed picker leaves focus in the text (a letter sent to the picker would
  // change the font by its typeahead instead).
  await expect(page.getByRole('listbox')).toBeHidden();
  await expect(editorBody(page)).toBeFocused();
  await page.keyboard.type('Grotesk words');
  await expect(editorBody(page).locator('span[style*="Space Grotesk"]')).toHaveText('Grotesk words');
  await expect(page.getByRole('combobox', { name: 'Font family' })).toHaveText('Space Grotesk');
  await page.screenshot({ path: `${SHOTS}/font-picked-1280.png` });
});

test('the slash palette takes spaces in its query and steps aside for ordinary prose', async ({
  page,
  context,
  request,
}) => {
  const user = await createTestUser(request, 'slash');
  await signInContext(context, user);
  await openNewDocument(page);

  const body = editorBody(page);
  await body.click();
  await page.keyboard.type('/heading 1');
  const palette = page.getByTestId('slash-palette');
  await expect(palette.getByRole('option')).toHaveCount(1);
  // Focus stays in the editor, which points screen readers at the highlighted command.
  await expect(body).toHaveAttribute('aria-activedescendant', 'slash-option-heading1');
  await expect(body).toHaveAttribute('aria-controls', 'slash-palette');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(body).not.toHaveAttribute('aria-activedescendant');
  await page.keyboard.type('Chapter one');
  await expect(body.locator('h1')).toHaveText('Chapter one');
  await expect(body).not.toContainText('/heading');

  // A '/' in a sentence: once nothing matches the palette goes, and Enter is a new paragraph again.
  await page.keyboard.press('Enter');
  await page.keyboard.type('salt /or sugar to taste');
  await expect(palette).toBeHidden();
  await page.keyboard.press('Enter');
  await page.keyboard.type('Next line');
  await expect(body.locator('p').nth(0)).toHaveText('salt /or sugar to taste');
  await expect(body.locator('p').nth(1)).toHaveText('Next line');
});

test('the slash palette stays open when the menus and live grammar arrive while the writer types in it', async ({
  page,
  context,
  request,
}) => {
  const user = await createTestUser(request, 'slash-late');
  await signInContext(context, user, { liveGrammar: true });
  // The parts of the page that come after the editor is made, held back until the writer is in the palette.
  const late = /\/assets\/(LiveGrammar|SelectionToolbar|BlockMenu|SuggestionBubble)-[\w-]+\.js$/u;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(late, async (route) => {
    await released;
    await route.continue();
  });
  await openNewDocument(page);

  const body = editorBody(page);
  await body.click();
  await page.keyboard.type('/hea');
  const palette = page.getByTestId('slash-palette');
  await expect(palette).toBeVisible();

  release();
  // All four fetched and run, and React has mounted what they hold (a few frames later).
  await page.waitForFunction(
    (source) =>
      performance
        .getEntriesByType('resource')
        .filter(
          (entry) =>
            new RegExp(source, 'u').test(entry.name) && (entry as PerformanceResourceTiming).responseEnd > 0,
        ).length >= 4,
    late.source,
  );
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));

  await expect(palette).toBeVisible();
  await page.keyboard.type('ding 1');
  await expect(body).toHaveAttribute('aria-activedescendant', 'slash-option-heading1');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Chapter one');
  await expect(body.locator('h1')).toHaveText('Chapter one');
  await expect(body).not.toContainText('/hea');
});

test('a document opened over a slow link shows the loading spinner from its first paint, then the editor in its place', async ({
  page,
  context,
  request,
}) => {
  const user = await createTestUser(request, 'slow-open');
  await signInContext(context, user);
  const { id } = await createDocumentViaApi(request, user, 'Slow link', {
    type: 'doc',
    content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Arrives after its code.' }] }],
  });
  // All of the app's code held back: what shows meanwhile is the page's HTML alone.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/[\w-]+\.js$/u, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto(`/editor/${id}`, { waitUntil: 'commit' });
  const loading = page.getByRole('status').filter({ hasText: 'Loading…' });
  await expect(loading).toBeVisible();
  expect(
    await page.evaluate(
      () => getComputedStyle(document.querySelector('[role="status"] > span')!).animationName,
    ),
  ).toBe('spin');
  await page.screenshot({ path: `${SHOTS}/slow-open-loading.png` });

  release();
  await waitForLive(page);
  await expect(editorBody(page)).toHaveText('Arrives after its code.');
  await expect(loading).toHaveCount(0);
});

test('Share and Export appear once at every width', async ({ page, context, request }) => {
  const user = await createTestUser(request, 'header');
  await signInContext(context, user);
  await openNewDocument(page);
  for (const width of [390, 640, 700, 767, 768, 1024, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    expect(await visibleCount(page, ['button', { name: 'Share' }]), `Share at ${width}px`).toBe(1);
    expect(await visibleCount(page, ['button', { name: /^Export/u }]), `Export at ${width}px`).toBe(1);
    if (width === 700) await page.screenshot({ path: `${SHOTS}/editor-header-700.png` });
  }
});

test('a cleared title is "Untitled Document" in the editor, on the dashboard and in the move-to-trash dialog', async ({
  page,
  context,
  request,
}) => {
  const user = await createTestUser(request, 'title');
  await signInContext(context, user);
  const { id } = await createDocumentViaApi(request, user, 'Draft');
  await page.goto(`/editor/${id}`);
  await waitForLive(page);
  await page.getByTestId('title-input').fill('');
  await expect(page.getByTestId('breadcrumb-title')).toHaveText('Untitled Document');
  await expect(page.getByTestId('save-status').first()).toHaveText('Saved', { timeout: 10_000 });
  await expect.poll(async () => (await getDocumentViaApi(request, user, id)).title).toBe('Untitled Document');

  await openHome(page);
  const card = page.getByTestId('document-card');
  await expect(card.getByRole('link')).toHaveText('Untitled Document');
  await card.hover();
  await card.getByRole('button', { name: 'Actions for Untitled Document' }).click();
  await page.getByRole('menuitem', { name: /Delete/u }).click();
  await expect(page.getByRole('alertdialog')).toContainText(
    "'Untitled Document' will be moved to the trash.",
  );
});

test('a title save that fails says "Unsaved changes" and is retried until the server stores it', async ({
  page,
  context,
  request,
}) => {
  const user = await createTestUser(request, 'retry');
  await signInContext(context, user);
  const { id } = await createDocumentViaApi(request, user, 'Before');
  await page.goto(`/editor/${id}`);
  await waitForLive(page);

  // The network drops every title save until we let it through again.
  const patchUrl = `**/api/documents/${id}`;
  await page.route(patchUrl, (route) =>
    route.request().method() === 'PATCH' ? route.abort('internetdisconnected') : route.fallback(),
  );
  await page.getByTestId('title-input').fill('Renamed offline');
  const status = page.getByTestId('save-status').first();
  await expect(page.getByText('Error saving document').first()).toBeVisible({ timeout: 10_000 });
  await expect(status).toContainText('Unsaved changes');
  // Still unsaved after the first retries: the indicator does not pretend.
  await page.waitForTimeout(1_500);
  await expect(status).toContainText('Unsaved changes');
  expect((await getDocumentViaApi(request, user, id)).title).toBe('Before');
  await page.screenshot({ path: `${SHOTS}/title-unsaved-1280.png` });

  await page.unroute(patchUrl);
  await expect(status).toHaveText('Saved', { timeout: 15_000 });
  expect((await getDocumentViaApi(request, user, id)).title).toBe('Renamed offline');
});

test('Share menu, Preferences and Notifications say so when their settings cannot be loaded', async ({
  page,
  context,
  request,
}) => {
  const user = await createTestUser(request, 'loadfail');
  await signInContext(context, user);
  const { id } = await createDocumentViaApi(request, user, 'Shared');
  await page.route('**/api/documents/*/share', (route) =>
    route.request().method() === 'GET'
      ? route.fulfill({ status: 500, json: { message: 'Database unavailable', code: 'internal' } })
      : route.fallback(),
  );
  await page.route('**/api/me/settings', (route) =>
    route.request().method() === 'GET'
      ? route.fulfill({ status: 503, json: { message: 'Settings unavailable', code: 'unavailable' } })
      : route.fallback(),
  );
  await page.goto(`/editor/${id}`);
  await waitForLive(page);

  await page.getByRole('button', { name: 'Share' }).click();
  const shareError = page.getByTestId('share-load-error');
  await expect(shareError).toContainText('Sharing settings could not be loaded.');
  await expect(shareError).toContainText('Database unavailable');
  await expect(page.getByRole('switch', { name: 'Public link' })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/share-load-error-1280.png` });

  // Try again reads the settings once the server answers.
  await page.unroute('**/api/documents/*/share');
  await shareError.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('switch', { name: 'Public link' })).not.toBeChecked();
  await page.keyboard.press('Escape');

  await page.getByTestId('user-chip').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('tab', { name: 'Preferences' }).click();
  await expect(dialog.getByTestId('settings-load-error')).toContainText('Preferences could not be loaded.');
  await expect(dialog.getByRole('switch')).toHaveCount(0);
  await dialog.getByRole('tab', { name: 'Notifications' }).click();
  await expect(dialog.getByTestId('settings-load-error')).toContainText('Notifications could not be loaded.');
  await expect(dialog.getByRole('switch')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/settings-load-error-1280.png` });
});

test('on a phone the stats and their AI tools are reachable, and a selection offers Improve once over the text', async ({
  page,
  context,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const user = await createTestUser(request, 'phone');
  await signInContext(context, user);
  await openNewDocument(page);

  await page.getByRole('button', { name: 'Show document stats' }).click();
  const stats = page.getByRole('complementary', { name: 'Document Stats' });
  await expect(stats.getByTestId('document-stats')).toBeVisible();
  await expect(stats.getByRole('button', { name: 'Smart Improve' })).toBeVisible();
  await stats.getByRole('button', { name: 'Smart Improve' }).click();
  await expect(page.getByTestId('ai-assistant-panel')).toBeInViewport();
  await page.screenshot({ path: `${SHOTS}/editor-stats-390.png` });
  await page.getByRole('button', { name: 'Close AI Writing Assistant' }).click();
  await stats.getByRole('button', { name: 'Hide document stats' }).click();

  await typeAtEnd(page, 'Some words to polish');
  await page.keyboard.press('Shift+Control+ArrowLeft');
  await expect(page.getByTestId('selection-toolbar')).toBeVisible();
  await expect(page.getByTestId('ai-selection-helper')).toBeVisible();
  // Once over the text (the toolbar row has its own Improve, which the phone keeps too).
  const floating = page.locator('[data-testid="selection-toolbar"], [data-testid="ai-selection-helper"]');
  let offered = 0;
  for (const button of await floating.getByRole('button', { name: /Improve$/u }).all())
    if (await button.isVisible()) offered += 1;
  expect(offered).toBe(1);
  await page.screenshot({ path: `${SHOTS}/editor-selection-390.png` });
});

for (const width of [390, 1024, 1280]) {
  test(`the suggestion card's Accept is not covered by the assistant panel at ${width}px`, async ({
    page,
    context,
    request,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    const user = await createTestUser(request, 'accept');
    await signInContext(context, user);
    await openNewDocument(page);
    await typeAtEnd(page, 'A sentence that needs work');
    await page.keyboard.press('Control+/');
    const panel = page.getByTestId('ai-assistant-panel');
    await expect(panel).toBeVisible();
    await page.keyboard.press('Shift+Control+ArrowLeft');
    await panel.getByRole('button', { name: 'Improve Writing' }).click();
    const accept = page.getByTestId('ai-suggestion-accept');
    await expect(accept).toBeEnabled({ timeout: 15_000 });
    await expect(accept).toBeInViewport();
    // The element a click at Accept's centre would reach is Accept itself.
    const box = (await accept.boundingBox())!;
    const hit = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x!, y!)?.closest('[data-testid]')?.getAttribute('data-testid'),
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(hit).toBe('ai-suggestion-accept');
    // The streamed text is no live region (it would be re-read on every token).
    await expect(page.getByTestId('ai-suggestion-text')).not.toHaveAttribute('aria-live', /.+/u);
    await page.screenshot({ path: `${SHOTS}/suggestion-accept-${width}.png` });
    await accept.click();
    await expect(editorBody(page)).toContainText('The improved text.');
  });
}

test('the landing Get Started form hands what was typed to the sign-up dialog', async ({ page }) => {
  await openHome(page);
  const form = page.locator('#get-started form');
  await form.getByLabel('Full name').fill('Ada Lovelace');
  await form.getByLabel('Email').fill('ada@example.test');
  await form.getByLabel('Password').fill('analytical-engine-1843');
  await form.getByRole('button', { name: /Create Account/u }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await expect(dialog.getByLabel('Full name')).toHaveValue('Ada Lovelace');
  await expect(dialog.getByLabel('Email')).toHaveValue('ada@example.test');
  await expect(dialog.getByLabel('Password')).toHaveValue('analytical-engine-1843');
});

test('choices are radio groups the arrow keys move through', async ({ page, context, request }) => {
  const user = await createTestUser(request, 'radios');
  await signInContext(context, user);
  await openHome(page);
  await page.getByRole('button', { name: 'Account settings' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('tab', { name: 'Preferences' }).click();
  const light = dialog.getByRole('radio', { name: 'Light' });
  await light.click();
  await expect(light).toBeChecked();
  // Keys are held as a person holds them: Radix chooses on the focus that follows while the arrow is down.
  const dark = dialog.getByRole('radio', { name: 'Dark' });
  await page.keyboard.down('ArrowRight');
  await expect(dark).toBeChecked();
  await page.keyboard.up('ArrowRight');
  await expect(dark).toBeFocused();
  await expect(page.locator('html')).toHaveClass(/dark/u);
  await page.keyboard.down('ArrowLeft');
  await expect(light).toBeChecked();
  await page.keyboard.up('ArrowLeft');
  await expect(page.locator('html')).not.toHaveClass(/dark/u);
});
