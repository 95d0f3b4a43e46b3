import { expect, test } from '@playwright/test';
import {
  createDocumentViaApi,
  createTestUser,
  editorBody,
  expectStored,
  openLive,
  signedInContext,
  storedContentJson,
  typeAtEnd,
} from './editor-helpers';

/**
 * The browser's offline copy is written in batches, yet nothing typed is lost when the page goes away
 * mid-typing: with the server out of reach (the collaboration socket answers nothing), text typed just
 * before the tab closes is there when the document is opened again.
 */
test('text typed just before the tab closes is in the offline copy when the document reopens', async ({
  browser,
  request,
}) => {
  const user = await createTestUser(request, 'offline-copy');
  const { id } = await createDocumentViaApi(request, user, 'Night notes');
  const context = await signedInContext(browser, user);

  // Online first: the document and the browser's copy hold the opening line.
  const first = await openLive(context, id);
  await typeAtEnd(first, 'The opening line.');
  await expectStored(request, user, id, 'The opening line.');
  await first.close();

  // Now the collaboration socket reaches no server: whatever is typed lives only in this browser.
  await context.routeWebSocket(/\/api\/collab/, () => {});
  const second = await context.newPage();
  await second.goto(`/editor/${id}`);
  await expect(editorBody(second)).toContainText('The opening line.');
  await expect(second.getByTestId('connection-badge')).not.toHaveText('Live');
  await typeAtEnd(second, ' Typed while the server was out of reach');
  // Closed at once, well inside the offline copy's write batch.
  await second.close({ runBeforeUnload: true });

  const third = await context.newPage();
  await third.goto(`/editor/${id}`);
  await expect(editorBody(third)).toContainText('The opening line. Typed while the server was out of reach');
  // The server never saw it: the text came from the browser's copy.
  expect(await storedContentJson(request, user, id)).not.toContain('Typed while the server');
  await context.close();
});
