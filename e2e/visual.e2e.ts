import type { Locator, Page } from '@playwright/test';
import { THEMES, useTheme, type Theme } from './axe';
import { waitForLive } from './editor-helpers';
import { expect, openHome, test, testClientAddress, type TestUser, type Users } from './fixtures';

/**
 * Visual regression: each screen at 390, 768, 1024 and 1280 px, light and dark, compared pixel by pixel with
 * the baselines in e2e/__screenshots__/visual.e2e.ts/. Regenerate them after an intended change with
 * `npm run test:e2e:update-snapshots` and look at every changed PNG before committing it.
 *
 * Deterministic by construction: fixed titles and text, the bundled fonts (awaited), animations off, reduced
 * motion, the caret hidden, and whatever depends on the clock or the random test e-mail masked.
 */

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const;

const CONTENT = {
  type: 'doc',
  content: [
    { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'The walled garden' }] },
    {
      type: 'paragraph',
      content: [
        { type: 'text', text: 'Every spring we plant ' },
        { type: 'text', marks: [{ type: 'bold' }], text: 'tomatoes' },
        { type: 'text', text: ', beans and a row of sunflowers along the south wall.' },
      ],
    },
    {
      type: 'bulletList',
      content: ['Compost in March', 'Seedlings in April', 'Harvest from July'].map((text) => ({
        type: 'listItem',
        content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
      })),
    },
  ],
};

/** Elements whose text follows the clock or the per-test e-mail address. */
function unstable(page: Page): Locator[] {
  return [
    page.getByTestId('last-edited'),
    page.getByTestId('user-chip'),
    page.getByTestId('user-email'),
    page.locator('time'),
  ];
}

async function settle(page: Page) {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null))));
}

async function expectScreen(page: Page, name: string) {
  await settle(page);
  await expect(page).toHaveScreenshot(`${name}.png`, { mask: unstable(page) });
}

async function seededUser(users: Users, prefix: string): Promise<{ user: TestUser; documentId: string }> {
  const user = await users.create({ prefix, fullName: 'Ada Gardener' });
  let documentId = '';
  for (const title of ['The walled garden', 'Letters to a young gardener', 'Seed catalogue']) {
    const created = await users.api(user).post('/api/documents', { title, content: CONTENT });
    expect(created.ok(), await created.text()).toBeTruthy();
    documentId ||= ((await created.json()) as { id: string }).id;
  }
  return { user, documentId };
}

/** Visits each width with a fresh load (layouts that read the width at start see the right one). */
async function eachWidth(page: Page, visit: () => Promise<void>, shoot: (width: number) => Promise<void>) {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await visit();
    await shoot(size.width);
  }
}

for (const theme of THEMES) {
  test.describe(`${theme}`, () => {
    test.beforeEach(async ({ context, page }) => {
      await useTheme(context, theme);
      await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: theme });
    });

    test(`landing (${theme})`, async ({ page }) => {
      await eachWidth(
        page,
        async () => {
          await openHome(page);
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        },
        (width) => expectScreen(page, `landing-${theme}-${width}`),
      );
    });

    test(`dashboard and settings (${theme})`, async ({ page, users }) => {
      const { user } = await seededUser(users, `visual-dash-${theme}`);
      await users.login(user);
      await eachWidth(
        page,
        async () => {
          await openHome(page);
          await expect(page.getByTestId('document-card')).toHaveCount(3);
        },
        async (width) => {
          await expectScreen(page, `dashboard-${theme}-${width}`);
          await page.getByRole('button', { name: 'Account settings' }).click();
          const dialog = page.getByRole('dialog');
          await dialog.getByRole('tab', { name: 'Preferences' }).click();
          await expect(dialog.getByRole('radio', { name: themeLabel(theme) })).toBeChecked();
          await expectScreen(page, `settings-${theme}-${width}`);
        },
      );
    });

    test(`editor (${theme})`, async ({ page, users }) => {
      const { user, documentId } = await seededUser(users, `visual-editor-${theme}`);
      await users.login(user);
      await eachWidth(
        page,
        async () => {
          await page.goto(`/editor/${documentId}`);
          await waitForLive(page);
          await expect(page.getByText('Harvest from July')).toBeVisible();
          await expect(page.getByTestId('save-status').filter({ visible: true })).toHaveText('Saved', {
            timeout: 15_000,
          });
        },
        (width) => expectScreen(page, `editor-${theme}-${width}`),
      );
    });

    test(`shared page and payment pages (${theme})`, async ({ page, users, browser }) => {
      const { user, documentId } = await seededUser(users, `visual-shared-${theme}`);
      const shared = await users
        .api(user)
        .put(`/api/documents/${documentId}/share`, { isPublic: true, allowEditing: false, expiresAt: null });
      expect(shared.ok(), await shared.text()).toBeTruthy();

      const visitor = await browser.newContext({
        extraHTTPHeaders: { 'x-forwarded-for': testClientAddress() },
      });
      await useTheme(visitor, theme);
      const visitorPage = await visitor.newPage();
      await visitorPage.emulateMedia({ reducedMotion: 'reduce', colorScheme: theme });
      await eachWidth(
        visitorPage,
        async () => {
          await visitorPage.goto(`/shared/${documentId}`);
          await expect(visitorPage.getByText('Harvest from July')).toBeVisible({ timeout: 15_000 });
        },
        (width) => expectScreen(visitorPage, `shared-${theme}-${width}`),
      );
      await visitor.close();

      await users.login(user);
      await eachWidth(
        page,
        async () => {
          await page.goto('/subscription-cancel');
          await expect(page.getByRole('heading', { name: 'Payment Cancelled' })).toBeVisible();
        },
        (width) => expectScreen(page, `payment-cancelled-${theme}-${width}`),
      );
    });
  });
}

function themeLabel(theme: Theme): string {
  return theme === 'dark' ? 'Dark' : 'Light';
}
