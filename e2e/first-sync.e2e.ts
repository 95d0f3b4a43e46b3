import {
  expect,
  test,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';
import {
  createDocumentViaApi,
  createTestUser,
  documentText,
  editorBody,
  getDocumentViaApi,
  openDocument,
  openLive,
  signedInContext,
  type TestUser,
  waitForLive,
} from './editor-helpers';

/**
 * The first sync with the server decides what the document is. Until it is done, a browser with nothing of
 * the document yet shows the stored text read-only: typing into an empty document that the server's state
 * then merges into would double the stored paragraphs. The server's state fetched over HTTP (a document that
 * has been open live has one) is that history itself, so a browser opens from it and takes typing at once. A browser's own copy of the document may be typed
 * into meanwhile, but only a copy of the server's current history is merged: after the text was replaced
 * while nobody had it open, the old copy would come back beside the new text. Once in sync, what is typed
 * reaches the server exactly once.
 */

const STORED_PARAGRAPHS = [
  'The lighthouse keeper counted the ships at dusk.',
  'Seven came in before the fog, and one did not.',
  'She wrote the missing name in the margin of the log.',
];

/** Hocuspocus message types (first varUint after the document name) and y-protocols sync steps. */
const MESSAGE_SYNC = 0;
const SYNC_STEP_2 = 1;
const SYNC_UPDATE = 2;

function paragraphs(texts: readonly string[]) {
  return {
    type: 'doc',
    content: texts.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
  };
}

async function createDocumentWithText(request: APIRequestContext, user: TestUser, texts: readonly string[]) {
  return (await createDocumentViaApi(request, user, 'Harbour log', paragraphs(texts))).id;
}

/** The stored document's text, block by block: what every later visitor of the document will get. */
async function storedBlocks(request: APIRequestContext, user: TestUser, id: string): Promise<string[]> {
  const { content } = (await getDocumentViaApi(request, user, id)) as {
    content: { content?: { content?: { text?: string }[] }[] };
  };
  return (content.content ?? []).map((block) => (block.content ?? []).map((inline) => inline.text).join(''));
}

/**
 * Text a page→server socket message inserts into the document, if it carries a document change at all.
 * Awareness (carets) and the first sync's state vector carry no text.
 */
function textInsertedBy(message: string | Buffer): string {
  if (typeof message === 'string') return '';
  const decoder = decoding.createDecoder(new Uint8Array(message));
  decoding.readVarString(decoder);
  if (decoding.readVarUint(decoder) !== MESSAGE_SYNC) return '';
  const step = decoding.readVarUint(decoder);
  if (step !== SYNC_STEP_2 && step !== SYNC_UPDATE) return '';
  const { structs } = Y.decodeUpdate(decoding.readVarUint8Array(decoder));
  return structs
    .map((struct) =>
      struct instanceof Y.Item && struct.content instanceof Y.ContentString ? struct.content.str : '',
    )
    .join('');
}

/**
 * The collaboration socket of a page, through a slow link: the page's messages reach the server at once, but
 * what the server answers is held back until `release()`. The hold is ended by the test rather than a timer,
 * so on a slow machine the not-yet-synced checks cannot run after the sync has already happened.
 */
async function slowCollabSocket(page: Page) {
  let holding = true;
  const held: (() => void)[] = [];
  const sent: (string | Buffer)[] = [];
  await page.routeWebSocket(/\/api\/collab/, (socket) => {
    const server = socket.connectToServer();
    socket.onMessage((message) => {
      sent.push(message);
      server.send(message);
    });
    server.onMessage((message) => {
      if (holding) held.push(() => socket.send(message));
      else socket.send(message);
    });
  });
  return {
    /** Server messages the page has not been given yet. */
    heldCount: () => held.length,
    /** What the page's messages so far insert into the document. */
    textSent: () => sent.map(textInsertedBy).join(''),
    /** The link is fast again: what was held arrives, in order. */
    release: () => {
      holding = false;
      for (const deliver of held.splice(0)) deliver();
    },
  };
}

/** A second person opening the document in a browser that has never seen it. */
async function textInFreshBrowser(browser: Browser, user: TestUser, id: string): Promise<string> {
  const context = await signedInContext(browser, user);
  const page = await openLive(context, id);
  const text = await documentText(page);
  await context.close();
  return text;
}

/** Adds a paragraph at the end of the document and waits until the server has stored it. */
async function addParagraph(page: Page, text: string): Promise<void> {
  await typeParagraphAtEnd(page, text);
  await expect(page.getByTestId('save-status').first()).toHaveText('Saved', { timeout: 15_000 });
}

/**
 * Opens the document in a new page of `context` over a slow socket, and waits until the server has answered and
 * its answer is held: the page is connected but not yet in sync.
 */
async function openOverSlowSocket(context: BrowserContext, id: string) {
  const page = await context.newPage();
  const socket = await slowCollabSocket(page);
  await page.goto(`/editor/${id}`);
  await expect.poll(socket.heldCount, { timeout: 15_000 }).toBeGreaterThan(0);
  return { page, socket };
}

/** The writer's other device opens the document and adds a paragraph, which the server stores. */
async function addParagraphOnAnotherDevice(browser: Browser, user: TestUser, id: string, text: string) {
  const otherContext = await signedInContext(browser, user);
  await addParagraph(await openLive(otherContext, id), text);
  await otherContext.close();
}

/** Types a new last paragraph and waits until the editor shows it (not until it is saved). */
async function typeParagraphAtEnd(page: Page, text: string): Promise<void> {
  await editorBody(page).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type(text);
  await expect(editorBody(page)).toContainText(text);
}

test('over a slow connection the stored text is shown read-only until it is in sync, and typing then is saved once', async ({
  browser,
  request,
}) => {
  const user = await createTestUser(request, 'first-sync');
  const id = await createDocumentWithText(request, user, STORED_PARAGRAPHS);
  const context = await signedInContext(browser, user);
  const { page, socket } = await openOverSlowSocket(context, id);
  const main = page.getByRole('main');
  for (const text of STORED_PARAGRAPHS) await expect(main.getByText(text)).toBeVisible();
  await expect(page.getByTestId('connection-badge')).toHaveText('Offline');
  await expect(main.locator('[contenteditable="true"]')).toHaveCount(0);

  // The writer does not wait: they click into the text and start typing.
  await main.getByText(STORED_PARAGRAPHS[2]!).click();
  await page.keyboard.press('End');
  await page.keyboard.type(' Premature');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Early bird');
  await expect(main).not.toContainText('Premature');
  await expect(main).not.toContainText('Early bird');
  await expect(page.getByTestId('title-input')).toHaveValue('Harbour log');
  for (const text of STORED_PARAGRAPHS) await expect(main.getByText(text)).toBeVisible();
  expect(socket.textSent()).toBe('');

  socket.release();
  await waitForLive(page);
  // The server's state arrived into the editor once, and nothing typed before it slipped in.
  expect(await documentText(page)).toBe(STORED_PARAGRAPHS.join('\n'));

  const sentence = 'At dawn the eighth ship came home.';
  await addParagraph(page, sentence);
  const expected = [...STORED_PARAGRAPHS, sentence];
  expect(await documentText(page)).toBe(expected.join('\n'));
  await expect.poll(() => storedBlocks(request, user, id), { timeout: 15_000 }).toEqual(expected);
  const sent = socket.textSent();
  expect(sent).toContain(sentence);
  expect(sent).not.toContain('Premature');
  expect(sent).not.toContain('Early bird');

  await page.reload();
  await waitForLive(page);
  await expect.poll(() => documentText(page)).toBe(expected.join('\n'));
  expect(await textInFreshBrowser(browser, user, id)).toBe(expected.join('\n'));
  expect(await storedBlocks(request, user, id)).toEqual(expected);
  await context.close();
});

test('a browser whose copy predates a replacement of the document shows the new text after the sync, not both', async ({
  browser,
  request,
}) => {
  const user = await createTestUser(request, 'first-sync-replaced');
  const id = await createDocumentWithText(request, user, STORED_PARAGRAPHS);
  const auth = { Authorization: `Bearer ${user.session.access_token}` };
  // A named version first, so that leaving the editor after a change records a `session_end` version below.
  const named = await request.post(`/api/documents/${id}/versions`, {
    headers: auth,
    data: { name: 'Draft' },
  });
  expect(named.status(), await named.text()).toBe(201);
  const context = await signedInContext(browser, user);

  // A first visit leaves the document's copy in this browser.
  const visit = await openLive(context, id);
  await addParagraph(visit, 'Noted on the first visit.');
  await visit.close({ runBeforeUnload: true });
  // The server is done with the document (its session_end version is written after it is unloaded), so the
  // replacement below builds the document's live state anew from the new text.
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/documents/${id}/versions`, { headers: auth });
        return ((await response.json()) as { reason: string }[]).map((version) => version.reason);
      },
      { timeout: 15_000 },
    )
    .toContain('session_end');

  // Meanwhile the whole text is replaced through the API (an import, another device).
  const replaced = [STORED_PARAGRAPHS[0]!, 'Eight came in before the fog.', 'Nobody was missing.'];
  const patch = await request.patch(`/api/documents/${id}`, {
    headers: auth,
    data: { content: paragraphs(replaced) },
  });
  expect(patch.status(), await patch.text()).toBe(200);

  const { page, socket } = await openOverSlowSocket(context, id);
  await expect(page.getByTestId('connection-badge')).toHaveText('Offline');
  socket.release();

  await expect.poll(() => documentText(page), { timeout: 15_000 }).toBe(replaced.join('\n'));
  await waitForLive(page);
  expect(await documentText(page)).toBe(replaced.join('\n'));
  // The old copy never went to the server, so nobody else gets the old text back either.
  expect(socket.textSent()).not.toContain('Seven came in');
  expect(socket.textSent()).not.toContain('first visit');
  expect(await storedBlocks(request, user, id)).toEqual(replaced);

  await addParagraph(page, 'The keeper slept.');
  const expected = [...replaced, 'The keeper slept.'];
  await expect.poll(() => storedBlocks(request, user, id), { timeout: 15_000 }).toEqual(expected);
  await page.reload();
  await waitForLive(page);
  await expect.poll(() => documentText(page)).toBe(expected.join('\n'));
  await context.close();
});

test('text typed into the browser’s copy while the socket is slow arrives once, beside what another device added', async ({
  browser,
  request,
}) => {
  const user = await createTestUser(request, 'first-sync-copy');
  const id = await createDocumentWithText(request, user, STORED_PARAGRAPHS);
  const context = await signedInContext(browser, user);
  const visit = await openLive(context, id);
  await visit.close({ runBeforeUnload: true });

  // Another device adds a paragraph while this browser is away: the same document, carried on.
  const fromOther = 'Added on the other device.';
  await addParagraphOnAnotherDevice(browser, user, id, fromOther);

  // Back in this browser, over a slow socket: its copy is there at once and takes typing.
  const { page, socket } = await openOverSlowSocket(context, id);
  await expect(editorBody(page)).toContainText(STORED_PARAGRAPHS[2]!);
  const typed = 'Typed before the sync.';
  await typeParagraphAtEnd(page, typed);
  await expect(page.getByTestId('connection-badge')).toHaveText('Offline');
  socket.release();
  await waitForLive(page);

  // Both new paragraphs follow the stored ones, each once (which comes first is Yjs' choice).
  const settled = (blocks: string[]) => [...blocks.slice(0, 3), ...blocks.slice(3).sort()];
  const expected = [...STORED_PARAGRAPHS, ...[fromOther, typed].sort()];
  await expect.poll(async () => settled((await documentText(page)).split('\n'))).toEqual(expected);
  await expect(page.getByTestId('save-status').first()).toHaveText('Saved', { timeout: 15_000 });
  await expect
    .poll(async () => settled(await storedBlocks(request, user, id)), { timeout: 15_000 })
    .toEqual(expected);
  await page.reload();
  await waitForLive(page);
  await expect.poll(async () => settled((await documentText(page)).split('\n'))).toEqual(expected);
  await context.close();
});

test('a browser without a copy opens a document that has been live from the server’s state, takes typing over a slow socket, and the text arrives once', async ({
  browser,
  request,
}) => {
  const user = await createTestUser(request, 'first-sync-state');
  const id = await createDocumentWithText(request, user, STORED_PARAGRAPHS);
  // Another device has had the document open: the server keeps its live state from then on.
  const fromOther = 'Added on the other device.';
  await addParagraphOnAnotherDevice(browser, user, id, fromOther);

  // A browser that has never seen the document, over a slow socket: the server's state comes over HTTP.
  const context = await signedInContext(browser, user);
  const { page, socket } = await openOverSlowSocket(context, id);
  await expect(page.getByTestId('connection-badge')).toHaveText('Offline');
  await expect(editorBody(page)).toHaveAttribute('contenteditable', 'true');
  await expect.poll(() => documentText(page)).toBe([...STORED_PARAGRAPHS, fromOther].join('\n'));

  const typed = 'Typed before the sync.';
  await typeParagraphAtEnd(page, typed);
  // Held back until the socket's first sync shows the state is the server's history.
  expect(socket.textSent()).toBe('');

  socket.release();
  await waitForLive(page);
  const expected = [...STORED_PARAGRAPHS, fromOther, typed];
  expect(await documentText(page)).toBe(expected.join('\n'));
  await expect(page.getByTestId('save-status').first()).toHaveText('Saved', { timeout: 15_000 });
  await expect.poll(() => storedBlocks(request, user, id), { timeout: 15_000 }).toEqual(expected);
  expect(socket.textSent().split(typed)).toHaveLength(2);
  expect(await textInFreshBrowser(browser, user, id)).toBe(expected.join('\n'));
  await context.close();
});

test('the document’s state is asked for once, by the page’s first script, before the app’s code has run', async ({
  browser,
  request,
}) => {
  const user = await createTestUser(request, 'first-sync-early');
  const id = await createDocumentWithText(request, user, STORED_PARAGRAPHS);
  const fromOther = 'Added on the other device.';
  await addParagraphOnAnotherDevice(browser, user, id, fromOther);

  const context = await signedInContext(browser, user);
  const page = await context.newPage();
  // Who asked for the state: the browser names the script that made each request.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const stateRequests: { script: string | undefined }[] = [];
  cdp.on('Network.requestWillBeSent', ({ request: sent, initiator }) => {
    if (new URL(sent.url).pathname === `/api/documents/${id}/state`) {
      stateRequests.push({ script: initiator.stack?.callFrames[0]?.url });
    }
  });
  await openDocument(page, id);
  expect(await documentText(page)).toBe([...STORED_PARAGRAPHS, fromOther].join('\n'));
  // Once, from the page itself (its inline script, allowed by the Content-Security-Policy), not from the app's
  // code, which would have asked only after it was fetched and run.
  expect(stateRequests).toEqual([{ script: page.url() }]);
  await context.close();
});
