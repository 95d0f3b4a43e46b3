import type { Page } from '@playwright/test';
import { expectAccessible, THEMES, useTheme } from './axe';
import { editorBody, waitForLive } from './editor-helpers';
import { expect, openHome, test, testClientAddress, type Users } from './fixtures';

/**
 * Accessibility checked by a machine: axe on every screen and on the palette, menus and dialogs opened over
 * them, in the light and the dark theme. Any serious or critical violation fails the run.
 */

const CONTENT = {
  type: 'doc',
  content: [
    { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Spring plans' }] },
    { type: 'paragraph', content: [{ type: 'text', text: 'Our shared plans for the garden this spring.' }] },
  ],
};

async function ownDocument(users: Users, prefix: string) {
  const owner = await users.create({ prefix });
  const created = await users.api(owner).post('/api/documents', { title: 'Garden notes', content: CONTENT });
  const { id } = (await created.json()) as { id: string };
  return { owner, id };
}

async function selectLastWordOfFirstParagraph(page: Page) {
  await editorBody(page).locator('p').first().click();
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Control+ArrowLeft');
}

/**
 * Opens a Radix menu or popover from its trigger and waits until it shows. A click that lands while the previous
 * layer is still leaving is taken by that layer as its outside click, so the trigger is clicked again until the
 * menu is there.
 */
async function open(page: Page, trigger: string, role: 'menu' | 'dialog') {
  const layer = page.getByRole(role).first();
  await expect(async () => {
    if (!(await layer.isVisible()))
      await page.getByRole('button', { name: trigger, exact: true }).first().click();
    await expect(layer).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
}

/** Closes the open menu or popover with Escape and waits until it has gone. */
async function close(page: Page, role: 'menu' | 'dialog') {
  await page.keyboard.press('Escape');
  await expect(page.getByRole(role)).toHaveCount(0);
}

for (const theme of THEMES) {
  test.describe(`${theme} theme`, () => {
    test.beforeEach(async ({ context }) => {
      // Every axe pass runs the experimental rules too: on a loaded two-core machine a few passes outlast a minute.
      test.slow();
      await useTheme(context, theme);
    });

    test(`landing, auth dialog, legal pages (${theme})`, async ({ page }) => {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await openHome(page);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/u : /^(?!.*dark)/u);
      await expectAccessible(page, 'landing');
      await page.getByRole('button', { name: 'Start Writing' }).first().click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectAccessible(page, 'auth dialog');
      await page.keyboard.press('Escape');
      await page.goto('/privacy');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectAccessible(page, 'privacy');
      await page.goto('/no-such-page');
      await expectAccessible(page, 'not found');
    });

    test(`dashboard empty and full, settings tabs (${theme})`, async ({ page, users }) => {
      const user = await users.create({ prefix: `a11y-dash-${theme}` });
      await users.login(user);
      await openHome(page);
      await expect(page.getByRole('heading', { name: /documents/iu }).first()).toBeVisible();
      await expect(page.getByTestId('document-skeleton')).toHaveCount(0);
      await expectAccessible(page, 'dashboard (empty)');

      for (const title of ['Garden notes', 'Letters', 'Recipes']) {
        await users.api(user).post('/api/documents', { title, content: CONTENT });
      }
      await page.reload();
      await expect(page.getByTestId('document-card')).toHaveCount(3);
      await expectAccessible(page, 'dashboard (full)');

      await page.getByRole('button', { name: 'Account settings' }).click();
      const dialog = page.getByRole('dialog');
      for (const tab of ['Profile', 'Preferences', 'Subscription', 'Notifications']) {
        await dialog.getByRole('tab', { name: tab }).click();
        await expect(dialog.getByRole('tabpanel')).toBeVisible();
        await expect(dialog.locator('[aria-busy="true"]')).toHaveCount(0);
        await expectAccessible(page, `settings: ${tab}`);
      }
    });

    test(`version history: the list, a version's diff and the Save version dialog (${theme})`, async ({
      page,
      users,
    }) => {
      const { owner, id } = await ownDocument(users, `a11y-history-${theme}`);
      await users.login(owner);
      await page.goto(`/editor/${id}`);
      await waitForLive(page);
      await page.keyboard.press('Control+Alt+s');
      const save = page.getByRole('dialog', { name: 'Save version' });
      await expect(save).toBeVisible();
      await expectAccessible(page, 'history: save version dialog');
      await save.getByLabel('Version name').fill('First draft');
      await save.getByRole('button', { name: 'Save version' }).click();
      await expect(save).toBeHidden();
      // The confirmation sits over the header's History button at this width, and stays while the pointer is on
      // it: the writer lets it go first.
      const saved = page.getByRole('region', { name: 'Notifications (F8)' }).getByText('Version saved');
      await expect(saved).toBeVisible();
      await expect(saved).toBeHidden({ timeout: 15_000 });

      await page.getByRole('button', { name: 'History' }).first().click();
      const panel = page.getByTestId('history-panel');
      await expect(panel.getByTestId('version-item').first()).toBeVisible();
      await expectAccessible(page, 'history: versions');
      await panel.getByTestId('version-item').filter({ hasText: 'First draft' }).click();
      await expect(panel.getByTestId('version-diff')).toBeVisible();
      await expectAccessible(page, 'history: a version and its diff');
    });

    test(`editor with its palette, menus and dialogs (${theme})`, async ({ page, users }) => {
      // Twelve axe passes over the full editor: on a loaded two-core machine this outlasts the default minute.
      test.slow();
      const { owner, id } = await ownDocument(users, `a11y-editor-${theme}`);
      await users.login(owner);
      await page.goto(`/editor/${id}`);
      await waitForLive(page);
      await expectAccessible(page, 'editor');

      // Document Stats → Analyze: the analysis section open in the stats column.
      await page.getByRole('button', { name: 'Analyze', exact: true }).click();
      await expect(page.getByTestId('analysis-suggestions')).toBeVisible();
      await expectAccessible(page, 'editor: analysis panel');
      await page.getByRole('button', { name: 'Close analysis' }).click();

      // The slash palette over the text.
      await editorBody(page).click();
      await page.keyboard.press('Control+End');
      await page.keyboard.press('Enter');
      await page.keyboard.type('/');
      await expect(page.getByTestId('slash-palette')).toBeVisible();
      await expectAccessible(page, 'editor: slash palette');
      await page.keyboard.press('Escape');
      await page.keyboard.press('Backspace');

      // The block menu beside an empty line.
      await page.getByRole('button', { name: 'Insert block' }).click();
      await expect(page.getByRole('menu')).toBeVisible();
      await expectAccessible(page, 'editor: block menu');
      await close(page, 'menu');

      // Selection toolbar and AI helper.
      await selectLastWordOfFirstParagraph(page);
      await expect(page.getByTestId('selection-toolbar')).toBeVisible();
      await expectAccessible(page, 'editor: selection toolbars');

      await open(page, 'Share', 'dialog');
      await expectAccessible(page, 'editor: share menu');
      await close(page, 'dialog');
      await open(page, 'Export', 'menu');
      await expectAccessible(page, 'editor: export menu');
      await close(page, 'menu');

      await page.getByRole('combobox', { name: 'Font family' }).click();
      await expect(page.getByRole('listbox')).toBeVisible();
      await expectAccessible(page, 'editor: font picker', { focusTrapped: true });
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: 'AI Assistant' }).first().click();
      await expect(page.getByTestId('ai-assistant-panel')).toBeVisible();
      await expectAccessible(page, 'editor: AI assistant panel');

      await selectLastWordOfFirstParagraph(page);
      await page.getByTestId('ai-toolbar-improve').click();
      await expect(page.getByTestId('ai-suggestion-accept')).toBeEnabled({ timeout: 15_000 });
      await expectAccessible(page, 'editor: AI suggestion card');
      await page.getByTestId('ai-suggestion-reject').click();

      await page.getByRole('button', { name: 'Rewrite', exact: true }).first().click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectAccessible(page, 'editor: rewrite dialog');
      await page.getByRole('dialog').getByRole('tab', { name: 'Tone Adjustment' }).click();
      await expectAccessible(page, 'editor: rewrite dialog, tones');
    });

    test(`shared page, payment pages, missing document (${theme})`, async ({ page, users, browser }) => {
      const { owner, id } = await ownDocument(users, `a11y-shared-${theme}`);
      const share = await users
        .api(owner)
        .put(`/api/documents/${id}/share`, { isPublic: true, allowEditing: false, expiresAt: null });
      expect(share.ok(), await share.text()).toBeTruthy();

      const visitor = await browser.newContext({
        extraHTTPHeaders: { 'x-forwarded-for': testClientAddress() },
      });
      await useTheme(visitor, theme);
      const visitorPage = await visitor.newPage();
      await visitorPage.goto(`/shared/${id}`);
      await expect(visitorPage.getByText('Our shared plans for the garden')).toBeVisible({ timeout: 15_000 });
      await expectAccessible(visitorPage, 'shared document');
      await visitor.close();

      await users.login(owner);
      await page.goto('/subscription-cancel');
      await expect(page.getByRole('heading', { name: 'Payment Cancelled' })).toBeVisible();
      await expectAccessible(page, 'payment cancelled');
      await page.goto('/subscription-success?session_id=cs_test_missing');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // The unknown session's error toast arrives after the server answers; axe measures it once it is in.
      await expect(
        page.getByText('Payment processed but failed to update account.', { exact: false }).first(),
      ).toBeVisible();
      await expectAccessible(page, 'payment success');
      await page.goto('/editor/00000000-0000-4000-8000-000000000000');
      await expect(page.getByText('Document not found')).toBeVisible();
      await expectAccessible(page, 'document not found');
    });
  });
}
