import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import {
  createDocumentViaApi,
  createTestUser,
  editorBody,
  expectStored,
  openDocument,
  signInContext,
  typeAtEnd,
} from './editor-helpers';

/**
 * Images in the editor: one inserted with the toolbar's file chooser and given alt text, one pasted from the
 * clipboard (a screenshot) and left without; both survive a reload and load through their access token.
 */

const picture = (r: number, g: number, b: number) =>
  sharp({ create: { width: 640, height: 360, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

/** Whether every image in the editor has loaded (its bytes came through the access token). */
async function imagesLoaded(page: Page): Promise<boolean[]> {
  return editorBody(page)
    .locator('img')
    .evaluateAll((images) => images.map((image) => (image as HTMLImageElement).naturalWidth > 0));
}

test('insert by the toolbar, paste a screenshot, add alt text, reload: the images are still there', async ({
  browser,
  request,
}) => {
  const user = await createTestUser(request, 'images');
  const { id } = await createDocumentViaApi(request, user, 'Holiday pictures');
  const context = await browser.newContext();
  await signInContext(context, user);
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await openDocument(page, id);
  await typeAtEnd(page, 'The view from the hotel:');
  await page.keyboard.press('Enter');

  // The toolbar's Insert image opens the file chooser; the upload asks for the alt text at once.
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Insert image' }).click();
  await (
    await chooser
  ).setFiles({ name: 'view.png', mimeType: 'image/png', buffer: await picture(40, 120, 200) });
  const dialog = page.getByRole('dialog', { name: 'Image' });
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await dialog.getByLabel('Alt text').fill('A blue sea under a clear sky');
  await dialog.getByRole('radio', { name: '75%' }).click();
  await page.screenshot({ path: '/tmp/shots/images-dialog-1280.png' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const first = editorBody(page).getByRole('img', { name: 'A blue sea under a clear sky' });
  await expect(first).toBeVisible();
  await expect.poll(() => imagesLoaded(page)).toEqual([true]);

  // A screenshot pasted from the clipboard is uploaded the same way; closing the dialog leaves it without alt.
  // (Clicking the image itself would select it, and typing would replace it, as with any block.)
  await editorBody(page).getByText('The view from the hotel:').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('And a screenshot:');
  const screenshot = [...(await picture(220, 80, 40))];
  await page.evaluate((bytes) => {
    const file = new File([new Uint8Array(bytes)], 'screenshot.png', { type: 'image/png' });
    const data = new DataTransfer();
    data.items.add(file);
    const target = document.querySelector('.ProseMirror')!;
    target.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, screenshot);
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await page.keyboard.press('Escape');
  await expect(editorBody(page).locator('img')).toHaveCount(2);
  const warning = editorBody(page).getByRole('button', { name: 'Add alt text (this image has none)' });
  await expect(warning).toHaveCount(1);
  await expect.poll(() => imagesLoaded(page)).toEqual([true, true]);
  await page.screenshot({ path: '/tmp/shots/images-editor-1280.png', fullPage: true });

  // Stored, and kept by a reload.
  await expectStored(request, user, id, 'A blue sea under a clear sky');
  await expectStored(request, user, id, `/api/documents/${id}/images/`);
  await page.reload();
  await expect(editorBody(page).locator('img')).toHaveCount(2, { timeout: 15_000 });
  await expect(first).toBeVisible();
  await expect(editorBody(page).locator('figure[data-type="image"]').first()).toHaveAttribute(
    'data-width',
    '75',
  );
  await expect.poll(() => imagesLoaded(page)).toEqual([true, true]);

  // The badge's dialog gives the pasted image its alt text.
  await editorBody(page).getByRole('button', { name: 'Add alt text (this image has none)' }).click();
  await dialog.getByLabel('Alt text').fill('The booking page');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(editorBody(page).getByRole('img', { name: 'The booking page' })).toBeVisible();
  await expect(editorBody(page).getByRole('button', { name: /Add alt text/ })).toHaveCount(0);
  await expectStored(request, user, id, 'The booking page');

  // '/image' opens the same file chooser.
  await editorBody(page).getByText('And a screenshot:').click();
  await page.keyboard.press('Control+End');
  const slashChooser = page.waitForEvent('filechooser');
  await page.keyboard.type('/image');
  await expect(page.getByRole('option', { name: /Image/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await (
    await slashChooser
  ).setFiles({
    name: 'map.png',
    mimeType: 'image/png',
    buffer: await picture(60, 160, 60),
  });
  await dialog.getByLabel('Alt text').fill('A map of the coast');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(editorBody(page).locator('img')).toHaveCount(3);
  await expect(editorBody(page).getByRole('img', { name: 'A map of the coast' })).toBeVisible();
  await page.screenshot({ path: '/tmp/shots/images-after-reload-1280.png', fullPage: true });
  await context.close();
});

test("a share-link reader sees the document's images; turning sharing off ends it", async ({
  browser,
  request,
}) => {
  const user = await createTestUser(request, 'images-share');
  const auth = { Authorization: `Bearer ${user.session.access_token}` };
  const { id } = await createDocumentViaApi(request, user, 'Field notes');
  const uploaded = await request.post(`/api/documents/${id}/images`, {
    headers: auth,
    multipart: { file: { name: 'heron.png', mimeType: 'image/png', buffer: await picture(90, 90, 90) } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const { src } = (await uploaded.json()) as { src: string };
  const saved = await request.patch(`/api/documents/${id}`, {
    headers: auth,
    data: {
      content: {
        type: 'doc',
        content: [
          { type: 'paragraph', content: [{ type: 'text', text: 'A heron at the pond.' }] },
          {
            type: 'image',
            attrs: { src, alt: 'A grey heron', title: 'Early morning, the north bank', width: 50 },
          },
        ],
      },
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const shared = await request.put(`/api/documents/${id}/share`, {
    headers: auth,
    data: { isPublic: true, allowEditing: false, allowSuggesting: false },
  });
  expect(shared.status()).toBe(200);

  const visitor = await (await browser.newContext()).newPage();
  await visitor.setViewportSize({ width: 1280, height: 800 });
  await visitor.goto(`/shared/${id}`);
  const image = visitor.getByTestId('shared-document').getByRole('img', { name: 'A grey heron' });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(640);
  // Its caption shows under it.
  await expect(visitor.getByTestId('shared-document').locator('figure > figcaption')).toHaveText(
    'Early morning, the north bank',
  );
  await visitor.screenshot({ path: '/tmp/shots/images-shared-1280.png' });

  // The address the page used stops working once the owner turns sharing off.
  const address = await image.getAttribute('src');
  expect(address).toMatch(/\?access=/);
  expect((await visitor.request.get(address!)).status()).toBe(200);
  await request.put(`/api/documents/${id}/share`, {
    headers: auth,
    data: { isPublic: false, allowEditing: false, allowSuggesting: false },
  });
  expect((await visitor.request.get(address!)).status()).toBe(404);
});
