import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { waitForLive } from './editor-helpers';
import { expect, openHome, shoot, test } from './fixtures';

/**
 * Compile a book: a folder of three documents becomes an EPUB whose contents list the three chapters in folder
 * order, a chapter's footnote at the end of its file; the editor's Export menu downloads a real PDF made on the
 * server.
 */

const paragraph = (text: string) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

/** A paragraph with a footnote, and the note, as the editor stores them. */
const noted = (text: string, note: string) => ({
  type: 'doc',
  content: [
    {
      type: 'paragraph',
      content: [
        { type: 'text', text },
        { type: 'footnoteReference', attrs: { id: 'fnMill' } },
      ],
    },
    {
      type: 'footnotes',
      content: [{ type: 'footnote', attrs: { id: 'fnMill' }, content: [paragraph(note).content[0]] }],
    },
  ],
});

const tree = (page: Page) => page.getByTestId('folder-tree');

test('a folder of three documents compiles to an EPUB listing its chapters in order', async ({
  page,
  users,
}) => {
  const user = await users.create({ prefix: 'compile' });
  const api = users.api(user);
  const folder = ((await (await api.post('/api/folders', { name: 'The Mill' })).json()) as { id: string }).id;
  for (const title of ['Spring Floods', 'Ledgers', 'Thaw']) {
    const content =
      title === 'Ledgers'
        ? noted('Ledgers begins here.', 'Kept in the mill office.')
        : paragraph(`${title} begins here.`);
    const made = await api.post('/api/documents', { title, content });
    const id = ((await made.json()) as { id: string }).id;
    expect((await api.put(`/api/documents/${id}/folder`, { folderId: folder })).status()).toBe(200);
  }
  await users.login(user);
  await openHome(page, '/');
  await tree(page)
    .getByRole('button', { name: /^The Mill\b/ })
    .hover();
  await tree(page).getByRole('button', { name: 'Actions for folder The Mill' }).click();
  await page.getByRole('menuitem', { name: 'Compile book…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Compile book' })).toBeVisible();
  await expect(dialog.getByLabel('Title', { exact: true })).toHaveValue('The Mill');
  await expect(dialog.getByLabel('Author', { exact: true })).toHaveValue(user.fullName);
  await expect(dialog.getByRole('checkbox', { name: /^Include / })).toHaveCount(3);
  await expect(dialog.getByText('Chapters (3 of 3)')).toBeVisible();
  await shoot(page, 'compile-dialog', 1280);
  await shoot(page, 'compile-dialog', 390);
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, 'compile-dialog-dark', 390);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });

  await dialog.getByLabel('Chapter numbers').selectOption('number');
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Compile EPUB' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^the_mill_\d{4}-\d{2}-\d{2}\.epub$/);
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Book compiled').first()).toBeVisible();

  const files = unzipSync(new Uint8Array(readFileSync((await download.path())!)));
  expect(strFromU8(files.mimetype!)).toBe('application/epub+zip');
  const nav = strFromU8(files['OEBPS/nav.xhtml']!);
  const titles = [...nav.matchAll(/<li><a href="chapter-\d+\.xhtml">([^<]+)<\/a><\/li>/g)].map((m) => m[1]);
  expect(titles).toEqual(['Chapter 1: Spring Floods', 'Chapter 2: Ledgers', 'Chapter 3: Thaw']);
  const ledgers = strFromU8(files['OEBPS/chapter-002.xhtml']!);
  expect(ledgers).toContain('Ledgers begins here.<sup><a class="noteref" epub:type="noteref" href="#fn-1"');
  expect(ledgers).toMatch(
    /<aside class="footnote" epub:type="footnote" id="fn-1">.*Kept in the mill office\./,
  );
});

test("the editor's Export menu downloads a PDF made on the server", async ({ page, users }) => {
  const user = await users.create({ prefix: 'compile-pdf' });
  const made = await users.api(user).post('/api/documents', {
    title: 'Field Notes',
    content: paragraph('Our plans for spring.'),
  });
  const { id } = (await made.json()) as { id: string };
  await users.login(user);
  await page.goto(`/editor/${id}`);
  await waitForLive(page);
  await page.getByRole('button', { name: 'Export' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'PDF', exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^field_notes_\d{4}-\d{2}-\d{2}\.pdf$/);
  expect(
    readFileSync((await download.path())!)
      .subarray(0, 5)
      .toString('latin1'),
  ).toBe('%PDF-');
  await expect(page.getByText('Document exported as PDF').first()).toBeVisible();
});
