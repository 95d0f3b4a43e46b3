import { expect, test } from '@playwright/test';

test('the app shell loads in the browser', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByText('Quillwright').first()).toBeVisible();
});
