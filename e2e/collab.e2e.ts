import { expect, test } from '@playwright/test';
import {
  createDocumentViaApi,
  createTestUser,
  documentText,
  editorBody,
  expectStored,
  openDocument,
  openLive,
  signedInContext,
  signInContext,
  storedContentJson,
  typeAtEnd,
  waitForLive,
} from './editor-helpers';

/**
 * Live collaboration in the browser (docs/collaboration.md): two sessions on one document, and going offline.
 */

test('two browser sessions on one document see each other type, and offline edits sync on reconnect', async ({
  browser,
  request,
}) => {
  const user = await createTestUser(request, 'collab');
  const { id } = await createDocumentViaApi(request, user, 'Shared draft');

  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  await signInContext(contextA, user);
  await signInContext(contextB, user);
  const pageA = await contextA.newPage();
  const pageB = await contextB.newPage();
  await pageA.goto(`/editor/${id}`);
  await pageB.goto(`/editor/${id}`);
  await waitForLive(pageA);
  await waitForLive(pageB);

  // A types, B sees it live; B types, A sees it.
  await typeAtEnd(pageA, 'Alpha writes first.');
  await expect(editorBody(pageB)).toContainText('Alpha writes first.');
  await typeAtEnd(pageB, ' Beta answers.');
  await expect(editorBody(pageA)).toContainText('Alpha writes first. Beta answers.');

  // B's caret is shown in A with B's name (the local part of the e-mail).
  const name = user.email.split('@')[0] ?? '';
  await expect(editorBody(pageA).locator('.collaboration-carets__label', { hasText: name })).toBeVisible();
  await pageA.screenshot({ path: '/tmp/shots/collab-a-1280.png' });

  // A goes offline and keeps writing: the badge says Offline, nothing reaches B yet.
  await contextA.setOffline(true);
  await expect(pageA.getByTestId('connection-badge')).toHaveText('Offline', { timeout: 20_000 });
  await typeAtEnd(pageA, ' Written while offline.');
  await expect(pageA.getByTestId('save-status').first()).toHaveText('Saving...');
  await pageA.screenshot({ path: '/tmp/shots/collab-offline-1280.png' });
  await expect(editorBody(pageB)).not.toContainText('Written while offline.');
  // Meanwhile B keeps writing too.
  await typeAtEnd(pageB, ' Beta again.');

  // Back online: both sides converge, nothing lost or duplicated, and the server has it.
  await contextA.setOffline(false);
  await expect(pageA.getByTestId('connection-badge')).toHaveText('Live', { timeout: 30_000 });
  await expect(editorBody(pageB)).toContainText('Written while offline.', { timeout: 15_000 });
  await expect(editorBody(pageA)).toContainText('Beta again.');
  await expect.poll(() => documentText(pageB)).toBe(await documentText(pageA));
  const textA = await documentText(pageA);
  expect(textA.split('Written while offline.').length).toBe(2);
  expect(textA.split('Alpha writes first.').length).toBe(2);
  await expect(pageA.getByTestId('save-status').first()).toHaveText('Saved', { timeout: 15_000 });
  await expectStored(request, user, id, 'Written while offline.');

  await contextA.close();
  await contextB.close();
});

test('edits made offline survive a reload and reach the server once back online', async ({
  browser,
  request,
}) => {
  const user = await createTestUser(request, 'offline');
  const { id } = await createDocumentViaApi(request, user, 'Offline notes');
  const context = await signedInContext(browser, user);
  const page = await openLive(context, id);
  await typeAtEnd(page, 'Online line.');
  await expect(page.getByTestId('save-status').first()).toHaveText('Saved', { timeout: 15_000 });

  await context.setOffline(true);
  await expect(page.getByTestId('connection-badge')).toHaveText('Offline', { timeout: 20_000 });
  await page.keyboard.press('Enter');
  await page.keyboard.type('Kept in IndexedDB.');
  // Give y-indexeddb a moment to write, then reload while still offline (the app shell is cached by the
  // browser's memory cache only, so reload online but with the socket blocked instead).
  await page.waitForTimeout(500);
  // Block the socket (WebSockets are not HTTP routes: routeWebSocket, not route) until `blocked` is cleared.
  let blocked = true;
  await page.routeWebSocket(/\/api\/collab/, (socket) => {
    if (blocked) socket.close({ code: 1011, reason: 'unavailable' });
    else socket.connectToServer();
  });
  await context.setOffline(false);
  await page.reload();
  await expect(page.getByTestId('connection-badge')).toHaveText('Offline');
  await expect(editorBody(page)).toContainText('Kept in IndexedDB.');
  await expect(editorBody(page)).toContainText('Online line.');

  // Unblock the socket: the offline edit reaches the server.
  blocked = false;
  await page.reload();
  await waitForLive(page);
  await expectStored(request, user, id, 'Kept in IndexedDB.');
  const text = await documentText(page);
  expect(text.split('Online line.').length).toBe(2);
  expect(text.split('Kept in IndexedDB.').length).toBe(2);
  await context.close();
});

test('when the live connection fails the page shows the saved content read-only and says Offline', async ({
  browser,
  request,
}) => {
  const user = await createTestUser(request, 'nosocket');
  const response = await request.post('/api/documents', {
    headers: { Authorization: `Bearer ${user.session.access_token}` },
    data: {
      title: 'Saved before',
      content: {
        type: 'doc',
        content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Text from the server.' }] }],
      },
    },
  });
  expect(response.status()).toBe(201);
  const { id } = (await response.json()) as { id: string };
  const context = await signedInContext(browser, user);
  const page = await context.newPage();
  // The socket never reaches the server (WebSockets are not HTTP routes: routeWebSocket, not route).
  await page.routeWebSocket(/\/api\/collab/, (socket) => socket.close({ code: 1011, reason: 'unavailable' }));
  await page.goto(`/editor/${id}`);
  await expect(page.getByTestId('content-preview')).toContainText('Text from the server.');
  await expect(page.getByTestId('connection-badge')).toHaveText('Offline');
  await expect(page.getByTestId('title-input')).toHaveValue('Saved before');
  await context.close();
});

test('with auto-save off, changes stay in the draft until Save, survive a reload, and then reach the other session', async ({
  browser,
  request,
}) => {
  const user = await createTestUser(request, 'manual');
  const { id } = await createDocumentViaApi(request, user, 'Manual saving');
  // The reader is a visitor with an editing link: they save as they type.
  const share = await request.put(`/api/documents/${id}/share`, {
    headers: { Authorization: `Bearer ${user.session.access_token}` },
    data: { isPublic: true, allowEditing: true },
  });
  expect(share.status(), await share.text()).toBe(200);
  const writerContext = await browser.newContext();
  const readerContext = await browser.newContext();
  await signInContext(writerContext, user);
  const writer = await writerContext.newPage();
  const reader = await readerContext.newPage();
  await openDocument(writer, id);

  // The writer turns auto-save off in the account settings.
  await writer.getByTestId('user-chip').click();
  const dialog = writer.getByRole('dialog');
  await dialog.getByRole('tab', { name: 'Preferences' }).click();
  await dialog.getByRole('switch', { name: 'Auto-save' }).click();
  await expect(dialog.getByRole('switch', { name: 'Auto-save' })).not.toBeChecked();
  await expect(dialog.getByTestId('settings-save-status')).toHaveText('All changes saved');
  await writer.keyboard.press('Escape');
  await waitForLive(writer);

  await reader.goto(`/shared/${id}?edit=true`);
  await expect(reader.getByTestId('connection-badge')).toHaveText('Live', { timeout: 15_000 });
  const readerBody = reader.getByTestId('shared-editor').locator('.ProseMirror');
  await typeAtEnd(writer, 'A private first draft.');
  await expect(writer.locator('[data-testid="save-status"]:visible')).toContainText('Unsaved changes');
  await writer.screenshot({ path: '/tmp/shots/editor-unsaved-1280.png' });
  await writer.setViewportSize({ width: 390, height: 844 });
  await writer.screenshot({ path: '/tmp/shots/editor-unsaved-390.png' });
  await writer.setViewportSize({ width: 1280, height: 720 });
  // The writer's own caret is never drawn as someone else's.
  const ownName = user.email.split('@')[0] ?? '';
  await expect(editorBody(writer).locator('.collaboration-carets__label', { hasText: ownName })).toHaveCount(
    0,
  );
  // Other people's changes still arrive live while the writer's own wait.
  await readerBody.click();
  await reader.keyboard.press('Control+End');
  await reader.keyboard.type('Reader was here.');
  await expect(editorBody(writer)).toContainText('Reader was here.');
  await writer.waitForTimeout(1_500);
  await expect(readerBody).not.toContainText('A private first draft.');
  expect(await storedContentJson(request, user, id)).not.toContain('private');

  // The draft is kept in this browser: a reload still has it, still unsaved.
  await writer.reload();
  await waitForLive(writer);
  await expect(editorBody(writer)).toContainText('A private first draft.');
  await expect(writer.locator('[data-testid="save-status"]:visible')).toContainText('Unsaved changes');

  // Ctrl+S saves: stored on the server, shown to the reader, and the status says Saved.
  await editorBody(writer).click();
  await writer.keyboard.press('Control+s');
  await expect(writer.locator('[data-testid="save-status"]:visible')).toHaveText('Saved', {
    timeout: 15_000,
  });
  await expect(readerBody).toContainText('A private first draft.');
  await expect.poll(() => storedContentJson(request, user, id)).toContain('A private first draft.');

  // The Save button does the same.
  await typeAtEnd(writer, ' Second thoughts.');
  await writer.locator('[data-testid="save-button"]:visible').click();
  await expect(readerBody).toContainText('Second thoughts.');
  await expect(writer.locator('[data-testid="save-status"]:visible')).toHaveText('Saved', {
    timeout: 15_000,
  });
  await writerContext.close();
  await readerContext.close();
});

test('the browser’s collaboration socket is compressed, and a long document arrives whole over it', async ({
  browser,
  request,
}) => {
  const user = await createTestUser(request, 'collab-deflate');
  const paragraphs = Array.from(
    { length: 300 },
    (_, p) =>
      `Paragraph ${p + 1}: ${Array.from({ length: 60 }, (__, w) => `word${(p * 31 + w) % 211}`).join(' ')}.`,
  );
  const { id } = await createDocumentViaApi(request, user, 'Long draft', {
    type: 'doc',
    content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
  });
  const context = await signedInContext(browser, user);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const extensions: string[] = [];
  cdp.on('Network.webSocketHandshakeResponseReceived', ({ response }) => {
    const header = Object.entries(response.headers).find(
      ([name]) => name.toLowerCase() === 'sec-websocket-extensions',
    );
    extensions.push(header ? String(header[1]) : '');
  });
  await openDocument(page, id);
  expect(extensions[0]).toContain('permessage-deflate');
  expect((await documentText(page)).split('\n')).toEqual(paragraphs);

  // What the browser sends compressed is read back by the server: typing is stored.
  await typeAtEnd(page, ' The end.');
  await expectStored(request, user, id, 'The end.');
  await context.close();
});
