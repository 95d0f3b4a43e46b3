import type { Page } from '@playwright/test';
import { Packer } from 'docx';
import { unzipSync, zipSync } from 'fflate';
import sharp from 'sharp';
import { imageSrc } from '../src/shared/editor/image-src';
import { documentToDocx, type DocxPicture } from '../src/shared/export/docx';
import type { RichTextNode } from '../src/shared/schemas/richText';
import { expect, openHome, shoot, test } from './fixtures';

/**
 * A Word file's pictures come in with it: imported from the dashboard, the document opens with its pictures
 * shown, their alt text and caption kept; a picture that is not an image (an SVG) is skipped and the toast
 * says so.
 */

const picture = (width: number, height: number, r: number, g: number, b: number) =>
  sharp({ create: { width, height, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

const paragraph = (text: string): RichTextNode => ({ type: 'paragraph', content: [{ type: 'text', text }] });

/** A Word file as our export writes it, its third picture's bytes swapped for an SVG with a script. */
async function wordFile(): Promise<Buffer> {
  const pictures = [
    {
      size: [800, 450],
      bytes: await picture(800, 450, 40, 120, 200),
      alt: 'A blue bay',
      caption: 'The bay from the lighthouse',
    },
    { size: [300, 300], bytes: await picture(300, 300, 220, 140, 30), alt: 'An orange square' },
    { size: [200, 100], bytes: await picture(200, 100, 10, 10, 10), alt: 'A vector drawing' },
  ];
  const map = new Map<string, DocxPicture>();
  const content: RichTextNode[] = [paragraph('Notes from the coast.')];
  pictures.forEach((item, index) => {
    const src = imageSrc(
      '00000000-0000-4000-8000-000000000000',
      `00000000-0000-4000-8000-00000000000${index}`,
    );
    const [width, height] = item.size as [number, number];
    map.set(src, { mime: 'image/png', width, height, bytes: new Uint8Array(item.bytes) });
    content.push({
      type: 'image',
      attrs: { src, alt: item.alt, ...(item.caption ? { title: item.caption } : {}) },
    });
  });
  content.push(paragraph('Back home the next day.'));
  const file = unzipSync(
    new Uint8Array(
      await Packer.toBuffer(documentToDocx('Coast', { type: 'doc', content }, { pictures: map })),
    ),
  );
  const media = Object.keys(file)
    .filter((name) => name.startsWith('word/media/'))
    .sort();
  file[media[2]!] = new TextEncoder().encode(
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
  );
  return Buffer.from(zipSync(file));
}

async function imagesLoaded(page: Page): Promise<boolean[]> {
  return page
    .locator('.ProseMirror img')
    .evaluateAll((images) => images.map((image) => (image as HTMLImageElement).naturalWidth > 0));
}

test('a Word file imported from the dashboard opens with its pictures and captions', async ({
  page,
  users,
}) => {
  const user = await users.create({ prefix: 'wordpics' });
  await users.login(user);
  await openHome(page);
  await page.getByTestId('import-file-input').setInputFiles([
    {
      name: 'coast.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: await wordFile(),
    },
  ]);
  await expect(page.getByText('Document imported', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(
    page.getByRole('region', { name: /Notifications/ }).getByText(/1 picture was skipped/),
  ).toBeVisible();
  await shoot(page, 'import-pictures-toast', 1280);

  const card = page.getByTestId('document-card').filter({ hasText: 'Coast' });
  await card.getByRole('link', { name: 'Coast' }).click();
  const editor = page.locator('.ProseMirror');
  await expect(editor.getByRole('img', { name: 'A blue bay' })).toBeVisible({ timeout: 15_000 });
  await expect(editor.getByRole('img', { name: 'An orange square' })).toBeVisible();
  await expect.poll(() => imagesLoaded(page)).toEqual([true, true]);
  await expect(editor.getByText('The bay from the lighthouse')).toBeVisible();
  // The skipped picture is its alt text.
  await expect(editor.getByText('A vector drawing')).toBeVisible();
  await shoot(page, 'import-pictures-editor', 1280);
});
