import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { THEMES, useTheme } from './axe';
import { waitForLive } from './editor-helpers';
import { expect, test, type Users } from './fixtures';

/**
 * The share menu used from the keyboard (the focus never falls back to the page when a control it was on goes
 * away), and its states photographed on a phone and in both themes for the screenshot review.
 */

const SHOTS = '/tmp/shots';
mkdirSync(SHOTS, { recursive: true });

const CONTENT = {
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Minutes of the garden committee.' }] }],
};

async function openOwnDocument(page: Page, users: Users, prefix: string): Promise<void> {
  const owner = await users.create({ prefix });
  const created = await users.api(owner).post('/api/documents', { title: 'Committee', content: CONTENT });
  const { id } = (await created.json()) as { id: string };
  await users.login(owner);
  await page.goto(`/editor/${id}`);
  await waitForLive(page);
}

test('after Publish, Cancel, Reset link and Keep link the focus lands on the next sensible control', async ({
  page,
  users,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openOwnDocument(page, users, 'focus-share');
  await page.getByRole('button', { name: 'Share', exact: true }).focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('dialog');
  const publicSwitch = menu.getByRole('switch', { name: 'Public link' });
  await expect(publicSwitch).toBeVisible();
  await publicSwitch.focus();

  // Cancel takes the form away: back to the switch that opened it.
  await page.keyboard.press('Space');
  const cancel = menu.getByRole('button', { name: 'Cancel' });
  await cancel.focus();
  await page.keyboard.press('Enter');
  await expect(menu.getByText('Only you can open this document.')).toBeVisible();
  await expect(publicSwitch).toBeFocused();

  // Publish takes the form away: on to Copy link, the next thing an owner does.
  await page.keyboard.press('Space');
  await menu.getByRole('button', { name: 'Publish' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Document is now public').first()).toBeVisible();
  const copyLink = menu.getByRole('button', { name: 'Copy link' });
  await expect(copyLink).toBeFocused();

  // Reset link asks first, from the safe answer; Keep link goes back to Reset link.
  const resetLink = menu.getByRole('button', { name: 'Reset link', exact: true });
  await resetLink.focus();
  await page.keyboard.press('Enter');
  const confirm = menu.getByRole('group', { name: 'Reset link' });
  await expect(confirm.getByRole('button', { name: 'Keep link' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(confirm).toHaveCount(0);
  await expect(resetLink).toBeFocused();

  // A reset link is copied next.
  await page.keyboard.press('Enter');
  await confirm.getByRole('button', { name: 'Reset link' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Link reset: the old link no longer works').first()).toBeVisible();
  await expect(copyLink).toBeFocused();
});

for (const theme of THEMES) {
  test(`the share menu's states at 390 and 1280 px (${theme})`, async ({ page, users, context }) => {
    await useTheme(context, theme);
    await page.setViewportSize({ width: 390, height: 844 });
    await openOwnDocument(page, users, `share-shots-${theme}`);
    const menu = page.getByRole('dialog');
    const shoot = async (state: string, width: number) => {
      // The popover's entry animation ends before the picture.
      await page.evaluate(() =>
        Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null))),
      );
      await page.screenshot({ path: `${SHOTS}/share-${state}-${width}-${theme}.png` });
    };
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await page.getByRole('button', { name: 'Share', exact: true }).click();
      const publicSwitch = menu.getByRole('switch', { name: 'Public link' });
      await expect(publicSwitch).toBeEnabled();
      if (!(await publicSwitch.isChecked())) {
        await shoot('private', width);
        await publicSwitch.click();
        await menu.getByLabel('Password').fill('secret pass');
        await shoot('publish-form', width);
        // Everything of the form is on the screen, down to Publish.
        await expect(menu.getByRole('button', { name: 'Publish' })).toBeInViewport({ ratio: 1 });
        await menu.getByRole('button', { name: 'Publish' }).click();
        await expect(page.getByText('Document is now public').first()).toBeVisible();
      }
      await expect(menu.getByRole('button', { name: 'Copy link' })).toBeVisible();
      // The menu keeps a margin from the screen's edges.
      const box = await menu.boundingBox();
      expect(box?.x).toBeGreaterThanOrEqual(8);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width - 8);
      await shoot('public', width);
      await menu.getByRole('button', { name: 'Reset link', exact: true }).click();
      const keep = menu.getByRole('group', { name: 'Reset link' }).getByRole('button', { name: 'Keep link' });
      await expect(keep).toBeVisible();
      await keep.scrollIntoViewIfNeeded();
      await expect(keep).toBeInViewport({ ratio: 1 });
      await shoot('reset-confirm', width);
      await keep.click();
      // Escape closes the newest layer first: the "Sharing Updated" toast, then the menu.
      await expect(async () => {
        await page.keyboard.press('Escape');
        await expect(menu).toHaveCount(0, { timeout: 1_000 });
      }).toPass({ timeout: 10_000 });
    }
  });
}
