import { expect, test } from '@playwright/test';
import { openHome } from './fixtures';

test('the app shell loads in the browser', async ({ page }) => {
  await openHome(page);
  await expect(page.getByText('Quillwright').first()).toBeVisible();
});
