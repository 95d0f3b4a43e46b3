import type { Browser, Locator, Page } from '@playwright/test';
import { expect, test, testClientAddress, type Users } from './fixtures';
import { documentText, editorBody, typeAtEnd, waitForLive } from './editor-helpers';

const CONTENT = {
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Our shared plans for spring.' }] }],
};

/** An editor's text without other people's caret labels. */
function textWithoutCarets(editor: Locator): Promise<string> {
  return editor.evaluate((element) => {
    const clone = element.cloneNode(true) as HTMLElement;
    for (const caret of clone.querySelectorAll('.collaboration-carets__caret')) caret.remove();
    return clone.textContent ?? '';
  });
}

/** Double-clicks a word of an editor, as a person selecting it would. */
async function doubleClickWord(editor: Locator, word: string): Promise<void> {
  const box = await editor.evaluate((element, target) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const index = node.textContent?.indexOf(target) ?? -1;
      if (index < 0) continue;
      const range = document.createRange();
      range.setStart(node, index);
      range.setEnd(node, index + target.length);
      const rect = range.getBoundingClientRect();
      return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
    }
    return null;
  }, word);
  if (!box) throw new Error(`"${word}" is not in the editor`);
  await editor.page().mouse.dblclick(box.x, box.y);
}

async function openShareMenu(page: Page) {
  await page.getByRole('button', { name: 'Share' }).click();
  return page.getByRole('dialog');
}

/** Signs a new owner in and opens their new document (with CONTENT) in the editor, live. */
async function openOwnDocument(page: Page, users: Users, prefix: string, title: string): Promise<string> {
  const owner = await users.create({ prefix });
  const created = await users.api(owner).post('/api/documents', { title, content: CONTENT });
  const { id } = (await created.json()) as { id: string };
  await users.login(owner);
  await page.goto(`/editor/${id}`);
  await waitForLive(page);
  return id;
}

/** A visitor: a fresh browser context that has never signed in, from its own client address. */
async function visitorPage(browser: Browser) {
  const context = await browser.newContext({
    extraHTTPHeaders: { 'x-forwarded-for': testClientAddress() },
  });
  return context.newPage();
}

test('a password-protected link: the visitor is asked for the password, reads, and loses access when it turns private', async ({
  page,
  users,
  browser,
}) => {
  const id = await openOwnDocument(page, users, 'sharer', 'Spring plans');

  const menu = await openShareMenu(page);
  await menu.getByRole('switch', { name: 'Public link' }).click();
  await menu.getByLabel('Password').fill('lantern');
  await menu.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Document is now public').first()).toBeVisible();
  await expect(menu.getByText('Password (set)')).toBeVisible();
  const linkInput = menu.getByRole('textbox', { name: 'Link', exact: true });
  await expect(linkInput).toHaveValue(`${new URL(page.url()).origin}/shared/${id}?protected=true`);
  const link = await linkInput.inputValue();
  await page.screenshot({ path: '/tmp/shots/share-menu-1280.png' });

  const visitor = await visitorPage(browser);
  await visitor.goto(link);
  await expect(visitor.getByRole('heading', { name: 'This document is protected' })).toBeVisible();
  await expect(visitor.getByText('Our shared plans')).toHaveCount(0);
  await visitor.getByLabel('Password').fill('guess');
  await visitor.getByRole('button', { name: 'Open document' }).click();
  await expect(visitor.getByText('Incorrect password.')).toBeVisible();
  await visitor.getByLabel('Password').fill('lantern');
  await visitor.getByRole('button', { name: 'Open document' }).click();
  await expect(visitor.getByRole('heading', { name: 'Spring plans' })).toBeVisible();
  await expect(visitor.getByTestId('shared-document')).toContainText('Our shared plans for spring.');
  await visitor.screenshot({ path: '/tmp/shots/shared-read-1280.png' });

  // The owner turns sharing off (the menu is still open): the visitor's next visit finds nothing.
  await menu.getByRole('switch', { name: 'Public link' }).click();
  await expect(page.getByText('Document is now private').first()).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByRole('heading', { name: 'This document is not available' })).toBeVisible();
  await expect(visitor.getByText('Our shared plans')).toHaveCount(0);
  await visitor.context().close();
});

test('with editing allowed, owner and visitor see each other write live', async ({
  page,
  users,
  browser,
}) => {
  const id = await openOwnDocument(page, users, 'cowriter', 'Together');
  const menu = await openShareMenu(page);
  await menu.getByRole('switch', { name: 'Public link' }).click();
  await menu.getByRole('radio', { name: 'Can edit' }).click();
  await menu.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Document is now public').first()).toBeVisible();
  await expect(menu.getByText('Anyone with the link can edit this document.')).toBeVisible();
  const linkInput = menu.getByRole('textbox', { name: 'Link', exact: true });
  await expect(linkInput).toHaveValue(`${new URL(page.url()).origin}/shared/${id}`);
  const link = await linkInput.inputValue();

  const visitor = await visitorPage(browser);
  await visitor.goto(link);
  await expect(visitor.getByTestId('connection-badge')).toHaveText('Live', { timeout: 15_000 });
  const visitorEditor = visitor.getByTestId('shared-editor').locator('.ProseMirror');
  await expect(visitorEditor).toContainText('Our shared plans for spring.');
  await visitorEditor.click();
  await visitor.keyboard.press('Control+End');
  await visitor.keyboard.type(' Visitor was here.');
  await expect.poll(() => documentText(page)).toContain('Visitor was here.');

  await page.getByRole('button', { name: 'Share' }).click();
  await expect(menu).toBeHidden();
  await typeAtEnd(page, ' Owner replies.');
  await expect(visitorEditor).toContainText('Owner replies.');
  await expect(editorBody(page)).toContainText('Visitor was here.');
  await visitor.screenshot({ path: '/tmp/shots/shared-edit-1280.png' });
  await visitor.context().close();
});

test('Suggesting: the owner suggests and accepts; a "Can suggest" visitor proposes changes the owner reviews', async ({
  page,
  users,
  browser,
}) => {
  await openOwnDocument(page, users, 'suggester', 'Proposals');
  const body = editorBody(page);

  // The owner in Suggesting mode: typing is an insertion, typing over a word marks it and proposes the new one.
  await page.getByRole('radio', { name: 'Suggesting' }).click();
  await expect(page.getByRole('radio', { name: 'Suggesting' })).toBeChecked();
  await body.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' Summer too.');
  await expect(body.locator('ins.tracked-insertion')).toHaveText(' Summer too.');
  // Backspacing into one's own insertion withdraws those letters.
  for (let i = 0; i < 'too.'.length; i++) await page.keyboard.press('Backspace');
  await page.keyboard.type('ahead.');
  await expect(body.locator('ins.tracked-insertion')).toHaveText(' Summer ahead.');
  await doubleClickWord(body, 'shared');
  await page.keyboard.type('common');
  await expect(body.locator('del.tracked-deletion')).toHaveText('shared');
  await expect(body.locator('ins.tracked-insertion').first()).toHaveText('common');
  await expect(page.getByTestId('suggestion-bar')).toContainText('2 suggestions');
  await page.screenshot({ path: '/tmp/shots/suggesting-owner-1280.png' });
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await page.screenshot({ path: '/tmp/shots/suggesting-owner-dark-1280.png' });
  await page.setViewportSize({ width: 390, height: 800 });
  await page.screenshot({ path: '/tmp/shots/suggesting-owner-dark-390.png' });
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await page.screenshot({ path: '/tmp/shots/suggesting-owner-390.png' });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByTestId('suggestion-bar').getByRole('button', { name: 'Reject all' }).click();
  await expect(body.locator('ins, del')).toHaveCount(0);
  await expect.poll(() => documentText(page)).toBe('Our shared plans for spring.');

  // Back to Editing: typing changes the text directly.
  await page.getByRole('radio', { name: 'Editing' }).click();
  await body.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' Direct.');
  await expect.poll(() => documentText(page)).toBe('Our shared plans for spring. Direct.');
  await expect(body.locator('ins, del')).toHaveCount(0);

  // A "Can suggest" link: the visitor is in Suggesting mode for good.
  const menu = await openShareMenu(page);
  await menu.getByRole('switch', { name: 'Public link' }).click();
  await menu.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Document is now public').first()).toBeVisible();
  await menu.getByRole('radio', { name: 'Can suggest' }).click();
  await expect(page.getByText('Visitors can now suggest changes').first()).toBeVisible();
  await expect(menu.getByText('Anyone with the link can suggest changes to this document.')).toBeVisible();
  const linkInput = menu.getByRole('textbox', { name: 'Link', exact: true });
  await expect(linkInput).not.toHaveValue(/suggest=true/);
  const link = await linkInput.inputValue();
  await page.keyboard.press('Escape');

  const visitor = await visitorPage(browser);
  await visitor.goto(link);
  await expect(visitor.getByTestId('connection-badge')).toHaveText('Live', { timeout: 15_000 });
  await expect(visitor.getByTestId('suggesting-notice')).toBeVisible();
  const visitorEditor = visitor.getByTestId('shared-editor').locator('.ProseMirror');
  await visitorEditor.click();
  await visitor.keyboard.press('Control+End');
  await visitor.keyboard.type(' Visitor idea.');
  await doubleClickWord(visitorEditor, 'shared');
  await visitor.keyboard.type('joint');
  await expect(visitorEditor.locator('ins.tracked-insertion')).toHaveText(['joint', ' Visitor idea.']);
  await expect(visitorEditor.locator('del.tracked-deletion')).toHaveText('shared');
  await visitor.screenshot({ path: '/tmp/shots/suggesting-visitor-1280.png' });

  // The owner sees the visitor's suggestions live, with the visitor's name, and accepts them.
  await expect
    .poll(() => textWithoutCarets(body.locator('ins.tracked-insertion').last()))
    .toBe(' Visitor idea.');
  await expect.poll(() => textWithoutCarets(body.locator('ins.tracked-insertion').first())).toBe('joint');
  await expect.poll(() => textWithoutCarets(body.locator('del.tracked-deletion'))).toBe('shared');
  await expect(body.locator('ins.tracked-insertion').first()).toHaveAttribute(
    'data-author-name',
    /^Anonymous /,
  );
  await page.getByTestId('suggestion-bar').getByRole('button', { name: 'Accept all' }).click();
  await expect.poll(() => documentText(page)).toBe('Our joint plans for spring. Direct. Visitor idea.');
  await expect
    .poll(() => textWithoutCarets(visitorEditor))
    .toBe('Our joint plans for spring. Direct. Visitor idea.');
  await expect(visitorEditor.locator('ins, del')).toHaveCount(0);

  // Stored: a reload shows the accepted text.
  await visitor.context().close();
  await page.reload();
  await waitForLive(page);
  await expect.poll(() => documentText(page)).toBe('Our joint plans for spring. Direct. Visitor idea.');
});

test('Public turns on only when the owner publishes the chosen level and password', async ({
  page,
  users,
  browser,
}) => {
  const id = await openOwnDocument(page, users, 'publisher', 'Draft first');
  const menu = await openShareMenu(page);
  await menu.getByRole('switch', { name: 'Public link' }).click();
  // The choices come first; nothing is public yet.
  await expect(menu.getByText('Nothing is public until you do.')).toBeVisible();
  await expect(menu.getByRole('radio', { name: 'Can view' })).toBeChecked();
  await menu.getByLabel('Password').fill('secret pass');
  await page.screenshot({ path: '/tmp/shots/share-publish-form-1280.png' });

  const visitor = await visitorPage(browser);
  await visitor.goto(`/shared/${id}`);
  await expect(visitor.getByRole('heading', { name: 'This document is not available' })).toBeVisible();
  await expect(visitor.getByText('Our shared plans')).toHaveCount(0);

  // Cancel publishes nothing.
  await menu.getByRole('button', { name: 'Cancel' }).click();
  await expect(menu.getByRole('switch', { name: 'Public link' })).not.toBeChecked();
  await expect(menu.getByText('Only you can open this document.')).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByRole('heading', { name: 'This document is not available' })).toBeVisible();

  // Publishing puts the link out with its password already set.
  await menu.getByRole('switch', { name: 'Public link' }).click();
  await menu.getByLabel('Password').fill('secret pass');
  await menu.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Document is now public').first()).toBeVisible();
  await expect(menu.getByRole('switch', { name: 'Public link' })).toBeChecked();
  await expect(menu.getByText('Anyone with the link can view this document.')).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByRole('heading', { name: 'This document is protected' })).toBeVisible();
  await expect(visitor.getByText('Our shared plans')).toHaveCount(0);
  await visitor.context().close();
});

test('one link for every level: a link copied under "Can view" edits after the owner picks "Can edit", and the popover says so', async ({
  page,
  users,
  browser,
}) => {
  await openOwnDocument(page, users, 'leveler', 'Levels');
  const menu = await openShareMenu(page);
  await menu.getByRole('switch', { name: 'Public link' }).click();
  await menu.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Document is now public').first()).toBeVisible();
  await expect(menu.getByText('Anyone with the link can view this document.')).toBeVisible();
  const linkInput = menu.getByRole('textbox', { name: 'Link', exact: true });
  const copied = await linkInput.inputValue();

  const visitor = await visitorPage(browser);
  await visitor.goto(copied);
  await expect(visitor.getByTestId('shared-document')).toContainText('Our shared plans for spring.');
  await expect(visitor.getByTestId('shared-editor')).toHaveCount(0);

  await menu.getByRole('radio', { name: 'Can edit' }).click();
  await expect(page.getByText('Visitors can now edit').first()).toBeVisible();
  await expect(menu.getByText('Anyone with the link can edit this document.')).toBeVisible();
  await expect(menu.getByText('can view this document')).toHaveCount(0);
  await expect(linkInput).toHaveValue(copied);
  await page.screenshot({ path: '/tmp/shots/share-can-edit-1280.png' });

  // The same address, opened again, now edits live.
  await visitor.goto(copied);
  await expect(visitor.getByTestId('connection-badge')).toHaveText('Live', { timeout: 15_000 });
  const visitorEditor = visitor.getByTestId('shared-editor').locator('.ProseMirror');
  await visitorEditor.click();
  await visitor.keyboard.press('Control+End');
  await visitor.keyboard.type(' Edited through the view link.');
  await expect.poll(() => documentText(page)).toContain('Edited through the view link.');
  await visitor.screenshot({ path: '/tmp/shots/shared-view-link-edits-1280.png' });

  // Back to "Can view": the same address reads only.
  await menu.getByRole('radio', { name: 'Can view' }).click();
  await expect(page.getByText('Visitors can now only view').first()).toBeVisible();
  await expect(linkInput).toHaveValue(copied);
  // (The live edit reaches the stored text a moment after it reaches the owner.)
  await expect(async () => {
    await visitor.goto(copied);
    await expect(visitor.getByTestId('shared-document')).toContainText('Edited through the view link.', {
      timeout: 2_000,
    });
  }).toPass({ timeout: 20_000 });
  await expect(visitor.getByTestId('shared-editor')).toHaveCount(0);
  await visitor.context().close();
});

test('Reset link: the old address stops working at once, even for a visitor writing now; the new one works', async ({
  page,
  users,
  browser,
}) => {
  await openOwnDocument(page, users, 'resetter', 'Leaked');
  const menu = await openShareMenu(page);
  await menu.getByRole('switch', { name: 'Public link' }).click();
  await menu.getByRole('radio', { name: 'Can edit' }).click();
  await menu.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Document is now public').first()).toBeVisible();
  const linkInput = menu.getByRole('textbox', { name: 'Link', exact: true });
  const oldLink = await linkInput.inputValue();

  const visitor = await visitorPage(browser);
  await visitor.goto(oldLink);
  await expect(visitor.getByTestId('connection-badge')).toHaveText('Live', { timeout: 15_000 });

  await menu.getByRole('button', { name: 'Reset link' }).click();
  await expect(menu.getByText('The current one stops working at once')).toBeVisible();
  await page.screenshot({ path: '/tmp/shots/share-reset-confirm-1280.png' });
  await menu.getByRole('group', { name: 'Reset link' }).getByRole('button', { name: 'Reset link' }).click();
  await expect(page.getByText('Link reset: the old link no longer works').first()).toBeVisible();
  await expect(linkInput).not.toHaveValue(oldLink);
  const newLink = await linkInput.inputValue();
  expect(newLink).toMatch(/\/shared\/[0-9a-f-]+\?key=/);

  // The visitor writing through the old link is cut off at once, and the old address stays dead.
  await expect(visitor.getByRole('heading', { name: 'This link no longer works' })).toBeVisible({
    timeout: 15_000,
  });
  await expect(visitor.getByText('Our shared plans')).toHaveCount(0);
  await visitor.screenshot({ path: '/tmp/shots/shared-link-reset-1280.png' });
  await visitor.goto(oldLink);
  await expect(visitor.getByRole('heading', { name: 'This link no longer works' })).toBeVisible();

  await visitor.goto(newLink);
  await expect(visitor.getByTestId('connection-badge')).toHaveText('Live', { timeout: 15_000 });
  await expect(visitor.getByTestId('shared-editor')).toContainText('Our shared plans for spring.');
  await visitor.context().close();
});

test('readers see pending suggestions only when the owner shows them, with a legend', async ({
  page,
  users,
  browser,
}) => {
  const owner = await users.create({ prefix: 'legend' });
  const by = {
    id: 's1',
    author_id: 'visitor-1',
    author_name: 'Anonymous Otter',
    source: 'user',
    created_at: new Date().toISOString(),
  };
  const created = await users.api(owner).post('/api/documents', {
    title: 'Proposed',
    content: {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'Our ' },
            { type: 'text', text: 'shared', marks: [{ type: 'deletion', attrs: by }] },
            { type: 'text', text: 'joint', marks: [{ type: 'insertion', attrs: by }] },
            { type: 'text', text: ' plans for spring.' },
          ],
        },
      ],
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await users.login(owner);
  await page.goto(`/editor/${id}`);
  await waitForLive(page);
  const menu = await openShareMenu(page);
  await menu.getByRole('switch', { name: 'Public link' }).click();
  await expect(menu.getByRole('switch', { name: 'Show suggested changes to readers' })).not.toBeChecked();
  await menu.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Document is now public').first()).toBeVisible();
  const link = await menu.getByRole('textbox', { name: 'Link', exact: true }).inputValue();

  // By default a reader gets the text as it stands, with no marks and no proposed words.
  const visitor = await visitorPage(browser);
  await visitor.goto(link);
  const article = visitor.getByTestId('shared-document');
  await expect(article).toHaveText('Our shared plans for spring.');
  await expect(article.locator('ins, del')).toHaveCount(0);
  await expect(visitor.getByTestId('suggestion-legend')).toHaveCount(0);

  // Shown on purpose: the marks come with a legend that says what they are.
  await menu.getByRole('switch', { name: 'Show suggested changes to readers' }).click();
  await expect(page.getByText('Readers now see suggested changes').first()).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByTestId('suggestion-legend')).toContainText(
    'This document has suggested changes the owner has not reviewed yet.',
  );
  await expect(article.locator('ins')).toHaveText('joint');
  await expect(article.locator('del')).toHaveText('shared');
  await visitor.screenshot({ path: '/tmp/shots/shared-suggestions-legend-1280.png' });
  await visitor.context().close();
});

test('Export downloads every format named after the title and date', async ({ page, users }) => {
  await openOwnDocument(page, users, 'exporter', 'Field Notes #3');
  const date = new Date().toISOString().slice(0, 10);
  for (const [label, extension, name] of [
    ['Markdown', 'md', 'MARKDOWN'],
    ['HTML', 'html', 'HTML'],
    ['Plain text', 'txt', 'TXT'],
    ['Word (.docx)', 'docx', 'DOCX'],
  ] as const) {
    // A menu still fading out dismisses itself on the next press anywhere, the Export button's included, so the
    // button is pressed once the last menu has gone.
    await expect(page.getByRole('menu')).toHaveCount(0);
    await page.getByRole('button', { name: 'Export' }).click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: label }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`field_notes__3_${date}.${extension}`);
    await expect(page.getByText(`Document exported as ${name}`).first()).toBeVisible();
  }
  // Print… opens the print view with the document in it.
  await expect(page.getByRole('menu')).toHaveCount(0);
  await page.getByRole('button', { name: 'Export' }).click();
  const opening = page.waitForEvent('popup');
  await page.getByRole('menuitem', { name: 'Print…' }).click();
  const printView = await opening;
  await expect(printView.locator('h1')).toHaveText('Field Notes #3');
  await expect(printView.locator('body')).toContainText('Our shared plans for spring.');
});
