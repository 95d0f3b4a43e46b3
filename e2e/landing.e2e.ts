import { expect, test, type Page } from '@playwright/test';
import { TYPING_MS_PER_CHAR, TYPING_PAUSE_MS } from '../src/shared/constants';
import { openHome, PRERENDERED_ATTRIBUTE, SESSION_STORAGE_KEY, test as withUsers } from './fixtures';

/** The signed-out home page (landing page), as a visitor uses it. */

const TAGLINE = 'AI-powered writing that feels like your own thoughts.';

async function openLanding(page: Page) {
  await openHome(page);
  await expect(page.getByRole('heading', { level: 1, name: 'The modern writer’s workshop' })).toBeVisible();
}

test('a signed-out visitor sees the landing copy, sections and footer', async ({ page }) => {
  await openLanding(page);
  await expect(page.getByText('No credit card needed to start.').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Context-aware completion' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Instant document refactor' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Always-on autosave' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Transform Your Writing Today' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start Writing for Free' })).toBeVisible();
  for (const label of ['Cloud drive', 'Notes', 'Team chat', 'Automation', 'Code host', 'Design']) {
    await expect(page.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(page.getByRole('heading', { name: 'Get Started' })).toBeVisible();
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
  await expect(footer.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
  await expect(footer).toContainText(`© ${new Date().getFullYear()} Quillwright`);
  await expect(footer.getByRole('link', { name: 'Status' })).toHaveAttribute('href', '/status');
  // Nothing on the landing page may pull in the editor.
  const scripts = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((entry) => entry.name),
  );
  expect(scripts.filter((name) => /EditorPage|tiptap|prosemirror|yjs/i.test(name))).toEqual([]);
});

test('the page is readable from its HTML alone, before any of the app’s code has arrived', async ({
  page,
}) => {
  // A visitor on a slow link sees the page as soon as the HTML is in; the scripts come after the first paint.
  await page.route('**/*.js', (route) => route.abort());
  await page.goto('/#pricing');
  await expect(page.getByRole('heading', { level: 1, name: 'The modern writer’s workshop' })).toBeVisible();
  await expect(page.getByTestId('typing-text')).toHaveText(TAGLINE);
  await expect(page.getByRole('heading', { name: 'Context-aware completion' })).toBeVisible();
  // The link named a section far down the page: the browser is there without the app's help.
  await expect(page.locator('#pricing')).toBeInViewport();
  await expect(page.getByRole('contentinfo')).toContainText(`© ${new Date().getFullYear()} Quillwright`);
  await expect(page.locator(`[${PRERENDERED_ATTRIBUTE}]`)).toHaveCount(1);
});

test('the app takes the page over without moving anything, and its buttons then work', async ({ page }) => {
  // The app's code is held back until the page as the HTML draws it has been measured.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  // The interface font arriving re-flows the text as on any page: measured from after it, this is the take-over.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const heading = page.getByRole('heading', { level: 1 });
  const before = await heading.boundingBox();
  expect(before).not.toBeNull();
  await expect(page.locator(`[${PRERENDERED_ATTRIBUTE}]`)).toHaveCount(1);
  const releasedAt = await page.evaluate(() => performance.now());
  release();
  await expect(page.locator(`[${PRERENDERED_ATTRIBUTE}]`)).toHaveCount(0);
  expect(await heading.boundingBox()).toEqual(before);
  const shifts = await page.evaluate(
    (since) =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) {
            if (entry.startTime >= since) total += (entry as unknown as { value: number }).value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 300);
      }),
    releasedAt,
  );
  expect(shifts).toBeLessThan(0.01);
  await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
});

test('a signed-in writer does not see the visitors’ page flash before the dashboard', async ({ page }) => {
  await page.addInitScript(
    (key) => localStorage.setItem(key, JSON.stringify({ stored: 'session' })),
    SESSION_STORAGE_KEY,
  );
  // Without the app's code, what the HTML alone shows a writer with a stored session: not the landing page.
  await page.route('**/*.js', (route) => route.abort());
  await page.goto('/');
  await expect(page.locator(`[${PRERENDERED_ATTRIBUTE}]`)).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 1, name: 'The modern writer’s workshop' })).toBeHidden();
});

test('the hero types its tagline and the demos animate', async ({ page }) => {
  await openLanding(page);
  const typed = page.getByTestId('typing-text');
  // Screen readers get the whole sentence at once.
  await expect(page.locator('.sr-only', { hasText: TAGLINE })).toHaveCount(1);
  // The tagline is whole at first, then after the pause it is typed again from the start: forward, one
  // character at a time, every state a prefix of the tagline.
  await expect(typed).toHaveText(TAGLINE);
  // The first nine characters last under a second, so look often; a page that loads slowly starts the loop
  // late, so allow two whole rounds (pause, then one character per step).
  const round = TYPING_PAUSE_MS + TAGLINE.length * TYPING_MS_PER_CHAR;
  await expect
    .poll(async () => ((await typed.textContent()) ?? '').length, { timeout: 2 * round, intervals: [50] })
    .toBeLessThan(10);
  const lengths: number[] = [];
  for (let i = 0; i < 4; i++) {
    const text = (await typed.textContent()) ?? '';
    expect(TAGLINE.startsWith(text)).toBe(true);
    lengths.push(text.length);
    await page.waitForTimeout(250);
  }
  expect(lengths.at(-1)!).toBeGreaterThan(lengths[0]!);
  await expect(typed).toHaveText(TAGLINE, { timeout: TAGLINE.length * 100 * 3 });

  // Demos below the fold hold still until they are scrolled into view, then animate.
  const status = page.getByTestId('autosave-status');
  await expect(status).toHaveText('Saved 1 second ago');
  await status.scrollIntoViewIfNeeded();
  await expect(status).toHaveText(/^Saved ([2-9]|10) seconds ago$/, { timeout: 3_000 });

  const suggestion = page.getByTestId('completion-suggestion');
  await suggestion.scrollIntoViewIfNeeded();
  const visible = await suggestion.getAttribute('data-visible');
  await expect(suggestion).not.toHaveAttribute('data-visible', visible ?? '', { timeout: 3_500 });

  const refactor = page.getByTestId('refactor-demo');
  await refactor.scrollIntoViewIfNeeded();
  await expect(refactor).toHaveAttribute('data-state', 'summary', { timeout: 4_500 });

  // The pause button stops everything.
  await page.getByRole('button', { name: 'Pause animations' }).click();
  await status.scrollIntoViewIfNeeded();
  const frozen = await status.textContent();
  await page.waitForTimeout(1_500);
  await expect(status).toHaveText(frozen ?? '');
  await expect(typed).toHaveText(TAGLINE);
});

test('with reduced motion the tagline and demos hold still', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await openLanding(page);
  await expect(page.getByTestId('typing-text')).toHaveText(TAGLINE);
  const status = page.getByTestId('autosave-status');
  await status.scrollIntoViewIfNeeded();
  const text = await status.textContent();
  await page.waitForTimeout(1_500);
  await expect(status).toHaveText(text ?? '');
  await expect(page.getByTestId('typing-text')).toHaveText(TAGLINE);
  await expect(page.getByRole('button', { name: 'Pause animations' })).toHaveCount(0);
});

test('Start Writing and the other calls to action open the auth dialog in the right mode', async ({
  page,
}) => {
  await openLanding(page);
  const dialog = page.getByRole('dialog');

  await page.getByRole('button', { name: 'Start Writing', exact: true }).click();
  await expect(dialog.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: 'Start Writing for Free' }).click();
  await expect(dialog.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Create Account & Start Writing' }).click();
  await expect(dialog.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByRole('region', { name: 'Get Started' }).getByRole('button', { name: 'Sign in' }).click();
  await expect(dialog.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
  await expect(dialog.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
});

test('the pricing anchor shows three plans, Most Popular on Creator, and a period switch', async ({
  page,
}) => {
  await openHome(page, '/#pricing');
  const pricing = page.locator('#pricing');
  await expect(pricing.getByRole('heading', { level: 3 })).toHaveText(['Gratis', 'Creator', 'Professional']);
  await expect(pricing.getByText('Most Popular')).toHaveCount(1);
  await expect(page.getByTestId('plan-creator').getByText('Most Popular')).toBeVisible();
  await expect(page.getByTestId('plan-creator')).toContainText('$12/month');
  await expect(pricing).toContainText('14-day money-back guarantee');
  await expect(pricing.getByRole('link', { name: 'Contact sales' })).toHaveAttribute(
    'href',
    /^mailto:sales@/,
  );

  await pricing.getByRole('radio', { name: /Annual/ }).click();
  await expect(pricing.getByRole('radio', { name: /Annual/ })).toBeChecked();
  await expect(page.getByTestId('plan-creator')).toContainText('$120/year');
  await expect(page.getByTestId('plan-professional')).toContainText('$240/year');

  await page
    .getByTestId('plan-creator')
    .getByRole('button', { name: /Choose Creator/ })
    .click();
  await expect(page.getByRole('dialog').getByRole('heading', { name: 'Create your account' })).toBeVisible();
});

for (const width of [1280, 390]) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`landing screenshot at ${width} px, ${scheme}`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await openLanding(page);
      await expect(page.locator('html')).toHaveClass(scheme === 'dark' ? /dark/ : /^(?!.*dark)/);
      await page.screenshot({ path: `/tmp/shots/landing-${width}-${scheme}.png`, fullPage: true });
      // The same page in readable slices, to look at the details.
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      const slice = width > 600 ? 1000 : 1100;
      for (let y = 0, i = 0; y < height; y += slice, i++) {
        await page.screenshot({
          path: `/tmp/shots/landing-${width}-${scheme}-part${i}.png`,
          fullPage: true,
          clip: { x: 0, y, width, height: Math.min(slice, height - y) },
        });
      }
      // Nothing may overflow sideways on a phone.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });
  }
}

test('the Status link shows the service’s health check', async ({ page }) => {
  await openHome(page);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Status' }).click();
  await expect(page).toHaveURL(/\/status$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Service status' })).toBeVisible();
  await expect(page.getByTestId('service-status')).toHaveText('All systems operational');
  // When the health check fails, the page says so.
  await page.route('**/api/health', (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: '{"status":"error"}' }),
  );
  await page.getByRole('button', { name: 'Check again' }).click();
  await expect(page.getByTestId('service-status')).toHaveText('The service is not answering as it should');
});

test('on a phone the menu reaches Features and Pricing', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openHome(page);
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: 'Pricing' })).toBeHidden();
  const menu = header.getByRole('button', { name: 'Menu' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await page.screenshot({ path: '/tmp/shots/landing-menu-390.png' });
  await header.getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/#pricing$/);
  await expect(page.locator('#pricing')).toBeInViewport();
  await expect(header.getByRole('link', { name: 'Pricing' })).toBeHidden();

  await menu.click();
  await header.getByRole('link', { name: 'Features' }).click();
  await expect(page).toHaveURL(/#features$/);
  await expect(page.locator('#features')).toBeInViewport();

  // Escape closes it too; nothing in the header is wider than the phone.
  await menu.click();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expect(header.getByRole('button', { name: 'Sign In' })).toBeVisible();
});

withUsers('a wrong password is reported once, in the dialog', async ({ page, users }) => {
  const user = await users.create({ prefix: 'wrong-password' });
  await openHome(page);
  await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email').fill(user.email);
  await dialog.getByLabel('Password').fill('not-the-password-123');
  await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText('Invalid login credentials');
  // No toast repeats it: the toasts' container is read every half second for the seconds a toast would show.
  for (let sample = 0; sample < 8; sample++) {
    const toasts = await page.evaluate(
      () => document.querySelector('[data-slot="toaster-root"]')?.textContent ?? '',
    );
    expect(toasts).not.toContain('Invalid login credentials');
    expect(toasts).not.toContain('Authentication failed');
    await page.waitForTimeout(500);
  }
  await page.screenshot({ path: '/tmp/shots/auth-wrong-password-1280.png' });
});
