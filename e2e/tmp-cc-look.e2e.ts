import { expect, test } from '@playwright/test';
import { createDocumentViaApi, createTestUser, editorBody, signedInContext, typeAtEnd, waitForLive } from './editor-helpers';

test('look', async ({ browser, request }) => {
  const user = await createTestUser(request, 'look');
  const { id } = await createDocumentViaApi(request, user, 'Harbour notes');
  const context = await signedInContext(browser, user);
  const page = await context.newPage();
  const threads: unknown[] = [];
  await page.route(`**/api/documents/${id}/threads**`, async (route) => {
    const req = route.request();
    if (req.method() === 'POST') {
      const body = req.postDataJSON() as { id: string; anchor: { quote: string }; body: string };
      const t = {
        id: body.id, documentId: id, anchor: { quote: body.anchor.quote, prefix: '', suffix: '' }, status: 'open',
        resolvedAt: null, resolvedBy: null, createdAt: new Date().toISOString(), canResolve: true,
        comments: [{ id: crypto.randomUUID(), threadId: body.id, author: { id: 'x', name: 'Olive Owner' }, body: body.body, createdAt: new Date().toISOString(), editedAt: null, mine: true }],
      };
      threads.push(t);
      threads.push({ ...t, id: crypto.randomUUID(), anchor: { quote: 'a passage that was deleted long ago', prefix: '', suffix: '' }, comments: [{ ...t.comments[0], id: 'c2', author: { id: 'y', name: 'Cora Commenter' }, body: 'Why was this cut? It set up the ending nicely, I thought.', mine: false }, { ...t.comments[0], id: 'c3', body: 'Too long.', mine: true }] });
      return route.fulfill({ status: 201, json: t });
    }
    return route.fulfill({ json: { threads, nextCursor: null } });
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/editor/${id}`);
  await waitForLive(page);
  await typeAtEnd(page, 'The harbour was quiet at dawn. Gulls circled the old pier.');
  await page.keyboard.press('Shift+Home');
  await expect(page.getByTestId('selection-toolbar')).toBeVisible();
  await page.screenshot({ path: '/tmp/cc-look-toolbar.png' });
  await page.keyboard.press('Control+Alt+m');
  await page.getByRole('textbox', { name: 'Comment' }).fill('Too calm for the opening?');
  await page.screenshot({ path: '/tmp/cc-look-composer.png' });
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('comments-panel')).toBeVisible();
  await page.screenshot({ path: '/tmp/cc-look-panel-1280.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: '/tmp/cc-look-panel-dark-1280.png' });
  await page.setViewportSize({ width: 390, height: 800 });
  await page.screenshot({ path: '/tmp/cc-look-panel-dark-390.png' });
  const boxes = await page.locator('header button:visible').evaluateAll((els) => els.map((e) => [e.getAttribute('aria-label') ?? e.textContent, Math.round(e.getBoundingClientRect().right)]));
  console.log(JSON.stringify(boxes));
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByTestId('comment-thread').nth(1).click();
  await page.screenshot({ path: '/tmp/cc-look-panel-390.png' });
});
