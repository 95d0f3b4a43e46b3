import type { Page } from '@playwright/test';
import { expect, openHome, shoot, test, type TestUser, type Users } from './fixtures';

/** Finding and bringing in documents: dashboard search and sort, the quick switcher, and file import. */

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });

async function createDocument(users: Users, user: TestUser, title: string, text: string): Promise<string> {
  const res = await users
    .api(user)
    .post('/api/documents', { title, content: { type: 'doc', content: [paragraph(text)] } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/ });

async function dropFiles(page: Page, files: { name: string; type: string; content: string }[]) {
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const file of list) transfer.items.add(new File([file.content], file.name, { type: file.type }));
    return transfer;
  }, files);
  const zone = page.getByTestId('file-drop-zone');
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('dragover', { dataTransfer });
  await expect(page.getByText('Drop to import')).toBeVisible();
  await shoot(page, 'import-drop-overlay', 1280);
  await zone.dispatchEvent('drop', { dataTransfer });
}

test('dragging two files onto the dashboard makes two documents', async ({ page, users }) => {
  const user = await users.create({ prefix: 'import' });
  await users.login(user);
  await openHome(page);
  await expect(page.getByRole('heading', { name: 'No documents yet' })).toBeVisible();

  await dropFiles(page, [
    {
      name: 'field-notes.md',
      type: 'text/markdown',
      content:
        '# Field Notes\n\n#### Birds\n\n| Bird | Count |\n| --- | --- |\n| Wren | 3 |\n\nA **wren** sang.',
    },
    { name: 'packing_list.txt', type: 'text/plain', content: 'Boots\nRope\n\nMap and compass' },
  ]);

  await expect(toasts(page).getByText('2 documents imported')).toBeVisible();
  await expect(toasts(page).getByText('1 heading below level 3 became level 3')).toBeVisible();
  const cards = page.getByTestId('document-card');
  await expect(cards).toHaveCount(2);
  await expect(cards.filter({ hasText: 'Field Notes' }).getByTestId('document-preview')).toHaveText(
    'Birds Bird Count Wren 3 A wren sang.',
  );
  await expect(cards.filter({ hasText: 'packing list' })).toBeVisible();
  await expect(page.getByTestId('document-count')).toHaveText('2 documents');
  await shoot(page, 'import-done', 1280);

  // The imported document opens in the editor with its content.
  await cards.filter({ hasText: 'Field Notes' }).getByRole('link', { name: 'Field Notes' }).click();
  await expect(page.locator('.ProseMirror table td')).toHaveText(['Wren', '3']);
  await expect(page.locator('.ProseMirror h3')).toHaveText('Birds');
});

test('the file picker imports a file and an unsupported one is refused with a message', async ({
  page,
  users,
}) => {
  const user = await users.create({ prefix: 'picker' });
  await createDocument(users, user, 'Existing', 'Already here.');
  await users.login(user);
  await openHome(page);
  await expect(page.getByTestId('document-card')).toHaveCount(1);
  await page.getByTestId('import-file-input').setInputFiles([
    {
      name: 'letter.html',
      mimeType: 'text/html',
      buffer: Buffer.from('<h1>Dear Editor</h1><p onclick="x()">Thanks<script>alert(1)</script></p>'),
    },
    { name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7') },
  ]);
  await expect(page.getByText('Document imported', { exact: true })).toBeVisible();
  await expect(toasts(page).getByText(/Not imported: scan\.pdf/)).toBeVisible();
  await expect(page.getByTestId('document-card')).toHaveCount(2);
  await expect(page.getByTestId('document-card').filter({ hasText: 'Dear Editor' })).toContainText('Thanks');
});

test('the quick switcher finds a word from a body and opens the document', async ({ page, users }) => {
  const user = await users.create({ prefix: 'switch' });
  const target = await createDocument(
    users,
    user,
    'Harbour diary',
    'At dawn a cormorant dried its wings on the mast.',
  );
  await createDocument(users, user, 'Shopping', 'Bread, milk and apples.');
  await createDocument(users, user, 'Letters', 'Dear friend, the weather turned.');
  await users.login(user);
  await openHome(page);
  await expect(page.getByTestId('document-card')).toHaveCount(3);

  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Recent documents')).toBeVisible();
  // The three documents, then "New from template…".
  await expect(dialog.getByRole('option')).toHaveCount(4);
  await expect(dialog.getByRole('option').last()).toHaveText('New from template…');
  await shoot(page, 'quick-switcher-recent', 1280);

  await dialog.getByRole('combobox', { name: 'Search documents' }).fill('cormor');
  await expect(dialog.getByRole('option')).toHaveCount(1);
  await expect(dialog.getByRole('option').locator('mark')).toHaveText('cormorant');
  await shoot(page, 'quick-switcher-results', 1280);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/editor/${target}$`));
  await expect(page.locator('.ProseMirror')).toContainText('cormorant');

  // In the editor it is Ctrl+K too, even from the text; arrows choose, Enter opens.
  await page.locator('.ProseMirror').click();
  await page.keyboard.press('Control+k');
  await expect(page.getByRole('dialog').getByText('Recent documents')).toBeVisible();
  await page.getByRole('combobox', { name: 'Search documents' }).fill('weather');
  await expect(page.getByRole('option')).toHaveCount(1);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.locator('.ProseMirror')).toContainText('the weather turned');
});

test('dashboard search and sort', async ({ page, users }) => {
  const user = await users.create({ prefix: 'sort' });
  await createDocument(users, user, 'banana bread', 'Mash three ripe bananas with butter.');
  await createDocument(users, user, 'Apple pie', 'Slice the apples thinly and bake slowly.');
  await createDocument(users, user, 'Cherry jam', 'Stone the cherries, then bake the jars dry.');
  await users.login(user);
  await openHome(page);
  const titles = page.getByTestId('document-card').getByRole('heading');
  await expect(titles).toHaveText(['Cherry jam', 'Apple pie', 'banana bread']);
  await expect(page.getByTestId('document-count')).toHaveText('3 documents');

  await page.getByRole('combobox', { name: 'Sort documents' }).click();
  await page.getByRole('option', { name: 'Title' }).click();
  await expect(titles).toHaveText(['Apple pie', 'banana bread', 'Cherry jam']);
  await page.getByRole('combobox', { name: 'Sort documents' }).click();
  await page.getByRole('option', { name: 'Date created' }).click();
  await expect(titles).toHaveText(['Cherry jam', 'Apple pie', 'banana bread']);

  // "baking" stems to "bake": two recipes match, with the word marked.
  await page.getByRole('searchbox', { name: 'Search documents' }).fill('baking');
  const results = page.getByRole('list', { name: 'Search results' }).getByRole('listitem');
  await expect(results).toHaveCount(2);
  await expect(results.locator('mark').first()).toHaveText('bake');
  await shoot(page, 'dashboard-search', 1280);
  await shoot(page, 'dashboard-search', 390);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('searchbox', { name: 'Search documents' }).fill('nothing-like-this');
  await expect(page.getByText('No documents match “nothing-like-this”.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(page.getByTestId('document-card')).toHaveCount(3);
});

test('a file dropped onto an open document is inserted where it was dropped', async ({ page, users }) => {
  const user = await users.create({ prefix: 'insert' });
  const id = await createDocument(users, user, 'Chapter', 'The opening line.');
  await users.login(user);
  await page.goto(`/editor/${id}`);
  const body = page.locator('.ProseMirror');
  await expect(body).toContainText('The opening line.');

  const box = (await body.locator('p').first().boundingBox())!;
  const dataTransfer = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(
      new File(['## Inserted part\n\nSome *inserted* text.'], 'insert.md', { type: 'text/markdown' }),
    );
    return transfer;
  });
  await body.dispatchEvent('drop', {
    dataTransfer,
    clientX: box.x + box.width - 2,
    clientY: box.y + box.height / 2,
  });
  await expect(body.locator('h2')).toHaveText('Inserted part');
  await expect(body).toContainText('Some inserted text.');
  await expect(body.locator('em')).toHaveText('inserted');
  await expect(toasts(page).getByText('File inserted')).toBeVisible();
  await shoot(page, 'editor-file-inserted', 1280);
  // The opening line stays first: the file went where it was dropped, after it.
  await expect(body.locator('> *').first()).toHaveText('The opening line.');

  // It is stored like any edit.
  await expect
    .poll(async () => JSON.stringify(await (await users.api(user).get(`/api/documents/${id}`)).json()), {
      timeout: 15_000,
    })
    .toContain('Inserted part');

  // Version history kept the document as it was before the file went in.
  const versions = (await (await users.api(user).get(`/api/documents/${id}/versions`)).json()) as {
    id: string;
    reason: string;
  }[];
  const before = versions.find((version) => version.reason === 'import');
  expect(before, JSON.stringify(versions)).toBeDefined();
  const kept = JSON.stringify(
    await (await users.api(user).get(`/api/documents/${id}/versions/${before!.id}`)).json(),
  );
  expect(kept).toContain('The opening line.');
  expect(kept).not.toContain('Inserted part');
});
