import { expect, test, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import {
  createDocumentViaApi,
  createTestUser,
  editorBody,
  expectStored,
  openDocument,
  signInContext,
} from './editor-helpers';

/**
 * Resizing an image with its handles: a drag lets go on the nearest width step, the arrow keys on a focused
 * handle move one step; the width is stored, kept by a reload, and seen by a second session live. Its caption
 * (the Image dialog) shows under it the same way.
 */

const picture = () =>
  sharp({ create: { width: 800, height: 400, channels: 3, background: { r: 30, g: 110, b: 170 } } })
    .png()
    .toBuffer();

/** The image's width as a share of the text column, as the reader sees it. */
async function shownPercent(page: Page): Promise<number> {
  const figure = editorBody(page).locator('figure[data-type="image"]');
  return figure.evaluate((element) => {
    const image = element.querySelector('img')!;
    return Math.round((image.getBoundingClientRect().width / element.getBoundingClientRect().width) * 100);
  });
}

async function dragBy(page: Page, handle: Locator, dx: number) {
  const box = (await handle.boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  // Several steps, as a hand would move.
  await page.mouse.move(x + dx / 2, y, { steps: 5 });
  await page.mouse.move(x + dx, y, { steps: 5 });
  await page.mouse.up();
}

test('drag a handle to resize an image and give it a caption: both are stored, survive a reload and show in a second session', async ({
  browser,
  request,
}) => {
  const user = await createTestUser(request, 'image-resize');
  const auth = { Authorization: `Bearer ${user.session.access_token}` };
  const { id } = await createDocumentViaApi(request, user, 'Sketches');
  const uploaded = await request.post(`/api/documents/${id}/images`, {
    headers: auth,
    multipart: { file: { name: 'sketch.png', mimeType: 'image/png', buffer: await picture() } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const { src } = (await uploaded.json()) as { src: string };
  const saved = await request.patch(`/api/documents/${id}`, {
    headers: auth,
    data: {
      content: {
        type: 'doc',
        content: [
          { type: 'paragraph', content: [{ type: 'text', text: 'A first sketch of the bridge.' }] },
          { type: 'image', attrs: { src, alt: 'A pencil sketch of a bridge', width: 100, align: 'left' } },
          { type: 'paragraph', content: [{ type: 'text', text: 'More to come.' }] },
        ],
      },
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  const context = await browser.newContext();
  await signInContext(context, user);
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await openDocument(page, id);
  const other = await context.browser()!.newContext();
  await signInContext(other, user);
  const second = await other.newPage();
  await second.setViewportSize({ width: 1280, height: 900 });
  await openDocument(second, id);
  const image = editorBody(page).getByRole('img', { name: 'A pencil sketch of a bridge' });
  await expect(image).toBeVisible();
  expect(await shownPercent(page)).toBe(100);

  // Selecting the image shows its handles; the right one dragged left by about half the column.
  await image.click();
  const right = editorBody(page).locator('.qw-image-handle[data-side="right"]');
  await expect(right).toBeVisible();
  await expect(right).toHaveCSS('opacity', '1');
  const column = (await editorBody(page).locator('figure[data-type="image"]').boundingBox())!.width;
  await dragBy(page, right, -column * 0.48);
  await expect.poll(() => shownPercent(page)).toBe(50);
  await expect(right).toHaveAttribute('aria-valuenow', '50');
  await page.screenshot({ path: '/tmp/shots/image-resize-1280.png' });

  await expectStored(request, user, id, '"width":50');
  // The other session sees it without reloading.
  await expect.poll(() => shownPercent(second)).toBe(50);

  // Keyboard: the focused handle takes the arrow keys, one width step each.
  await right.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => shownPercent(page)).toBe(75);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => shownPercent(page)).toBe(25);
  await expect.poll(() => shownPercent(second)).toBe(25);
  await expectStored(request, user, id, '"width":25');

  // A caption from the Image dialog shows under the image, here and in the other session.
  await editorBody(page).getByRole('button', { name: 'Edit image' }).click();
  const dialog = page.getByRole('dialog', { name: 'Image' });
  await dialog.getByLabel('Caption').fill('The bridge from the east bank, first draft');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const caption = editorBody(page).locator('figure figcaption');
  await expect(caption).toHaveText('The bridge from the east bank, first draft');
  await expect(editorBody(second).locator('figure figcaption')).toHaveText(
    'The bridge from the east bank, first draft',
  );
  await expectStored(request, user, id, 'The bridge from the east bank, first draft');
  await page.screenshot({ path: '/tmp/shots/image-caption-1280.png' });

  await page.reload();
  await expect(editorBody(page).getByRole('img', { name: 'A pencil sketch of a bridge' })).toBeVisible({
    timeout: 15_000,
  });
  expect(await shownPercent(page)).toBe(25);
  await expect(editorBody(page).locator('figure figcaption')).toHaveText(
    'The bridge from the east bank, first draft',
  );
  // The text around the image is untouched.
  await expect(editorBody(page)).toContainText('A first sketch of the bridge.');
  await expect(editorBody(page)).toContainText('More to come.');

  // On a phone, in the dark theme: the handles sit on the image's edges, inside the screen.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 390, height: 844 });
  await editorBody(page).getByRole('img', { name: 'A pencil sketch of a bridge' }).click();
  const handle = editorBody(page).locator('.qw-image-handle[data-side="right"]');
  await expect(handle).toBeVisible();
  const edge = (await handle.boundingBox())!;
  expect(edge.x + edge.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: '/tmp/shots/image-resize-390-dark.png' });
  await context.close();
  await other.close();
});
