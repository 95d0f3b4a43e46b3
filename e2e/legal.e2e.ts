import { expect, test } from '@playwright/test';
import { openHome } from './fixtures';

/** /privacy, /terms and the 404 screen, as a visitor reaches them. */

function today(): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long' }).format(new Date());
}

test('the privacy policy covers the legal points and goes back home', async ({ page }) => {
  await openHome(page);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  await expect(page.getByText(`Last updated: ${today()}`)).toBeVisible();
  const main = page.getByRole('main');
  await expect(main).toContainText('is sent to an AI provider');
  await expect(main).toContainText('chooses which AI provider is used, or none at all');
  await expect(main).toContainText('at least 13 years old');
  await expect(main).toContainText('removed within 30 days');
  await expect(main).toContainText('at least 30 days before');
  await page.getByRole('link', { name: 'Back to home' }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'The modern writer’s workshop' })).toBeVisible();
});

test('the terms of service state the figures and describe the plans as sold', async ({ page }) => {
  await page.goto('/terms');
  await expect(page.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();
  await expect(page.getByText(`Last updated: ${today()}`)).toBeVisible();
  const main = page.getByRole('main');
  await expect(main).toContainText('at least 13 years old');
  await expect(main).toContainText('99.9% uptime');
  await expect(main).toContainText('This is a target, not a guarantee');
  await expect(main).toContainText('14-day money-back guarantee');
  await expect(main).toContainText('30 days’ notice');
  await expect(main).toContainText('removed within 30 days');
  await expect(main).toContainText('Gratis: free; up to 3 documents');
  await expect(main).toContainText('Creator: $12 per month or $120 per year; up to 500 documents');
  await expect(main).toContainText('Professional: $24 per month or $240 per year; unlimited documents');
  await page.getByRole('link', { name: 'Back to home' }).last().click();
  await expect(page).toHaveURL(/\/$/);
});

test('an unknown path answers 404 with the 404 screen and a way home; known routes answer 200', async ({
  page,
  request,
}) => {
  for (const known of ['/privacy', '/terms/', '/editor', '/shared/abc']) {
    expect((await request.get(known)).status(), known).toBe(200);
  }
  const api = await request.get('/api/no-such-route');
  expect(api.status()).toBe(404);
  expect(await api.json()).toMatchObject({ code: 'not_found' });

  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  expect(response?.headers()['content-type']).toContain('text/html');
  await expect(page.getByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
  await page.getByRole('link', { name: 'Back to home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

for (const width of [1280, 390]) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`legal and 404 screenshots at ${width} px, ${scheme}`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      for (const [name, path, heading] of [
        ['privacy', '/privacy', 'Privacy Policy'],
        ['terms', '/terms', 'Terms of Service'],
        ['404', '/missing-page', '404 Page Not Found'],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        await page.screenshot({
          path: `/tmp/shots/${name}-${width}-${scheme}.png`,
          fullPage: name !== 'terms',
        });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      }
    });
  }
}
