import { expect, test, type Page } from '@playwright/test';
import {
  createTestUser,
  documentText,
  editorBody,
  openNewDocument,
  signInContext,
  typeAtEnd,
  waitForLive,
} from './editor-helpers';

/**
 * The AI assistant in the editor, against the fake OpenAI-compatible provider e2e/serve.ts starts
 * (it answers "The improved text." and numbered lists for alternatives).
 */

/**
 * Selects `text` inside the editor body. The text may span several DOM text nodes (grammar underlines and
 * marks split them), so the nodes are joined and the match mapped back to a DOM range.
 */
async function selectText(page: Page, text: string) {
  await editorBody(page).evaluate((element, needle) => {
    const nodes: Text[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node as Text);
    const joined = nodes.map((n) => n.data).join('');
    const start = joined.indexOf(needle);
    if (start < 0) throw new Error(`text not found: ${needle}`);
    const locate = (offset: number, end: boolean): [Text, number] => {
      let seen = 0;
      for (const node of nodes) {
        const len = node.data.length;
        if (offset < seen + len || (end && offset === seen + len)) return [node, offset - seen];
        seen += len;
      }
      const last = nodes.at(-1)!;
      return [last, last.data.length];
    };
    const range = document.createRange();
    range.setStart(...locate(start, false));
    range.setEnd(...locate(start + needle.length, true));
    const selection = window.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
  }, text);
  // Let ProseMirror read the DOM selection.
  await page.waitForTimeout(100);
}

test('Improve: the card streams, Accept proposes the answer as tracked changes, reviewed one by one', async ({
  page,
  context,
  request,
}) => {
  const user = await createTestUser(request, 'ai');
  await signInContext(context, user);
  await openNewDocument(page);
  await typeAtEnd(page, 'Intro sentence. A rough improved copy');
  await expect(page.getByTestId('ai-provider-label')).toHaveText('AI provider: OpenAI');

  await selectText(page, 'A rough improved copy');
  await page.getByTestId('ai-toolbar-improve').click();
  const card = page.getByTestId('ai-suggestion-card');
  await expect(card).toBeVisible();
  await expect(card.getByTestId('ai-suggestion-text')).toHaveText('The improved text.');
  await expect(card.getByTestId('ai-suggestion-original')).toHaveText('A rough improved copy');
  await page.screenshot({ path: '/tmp/shots/ai-suggestion-card.png' });
  await card.getByTestId('ai-suggestion-accept').click();
  await expect(card).toBeHidden();
  await expect(page.getByText('Text improved', { exact: true })).toBeVisible();

  // Word-level changes: "A rough" → "The", "copy" → "text."; "improved" is untouched.
  const body = editorBody(page);
  await expect(body.locator('del.tracked-change')).toHaveText(['A rough', 'copy']);
  await expect(body.locator('ins.tracked-change')).toHaveText(['The', 'text.']);
  const bar = page.getByTestId('suggestion-bar');
  await expect(bar).toContainText('2 suggestions');
  await page.screenshot({ path: '/tmp/shots/suggestions-pending.png' });

  // The text before the AI change was kept as a version first (version history).
  const documentId = page.url().split('/').pop() ?? '';
  const headers = { Authorization: `Bearer ${user.session.access_token}` };
  const versions = (await (
    await request.get(`/api/documents/${documentId}/versions`, { headers })
  ).json()) as {
    id: string;
    reason: string;
  }[];
  const before = versions.find((version) => version.reason === 'ai');
  expect(before, JSON.stringify(versions)).toBeDefined();
  const kept = await request.get(`/api/documents/${documentId}/versions/${before!.id}`, { headers });
  expect(JSON.stringify(await kept.json())).toContain('A rough improved copy');

  // Accept the first change from its bubble.
  await body.locator('ins.tracked-change', { hasText: 'The' }).click();
  const bubble = page.getByTestId('suggestion-bubble');
  await expect(bubble).toBeVisible();
  await bubble.getByRole('button', { name: 'Accept' }).click();
  await expect(bar).toContainText('1 suggestion');
  // Reject the other with the keyboard: move to it, then Alt+Shift+Enter.
  await page.keyboard.press('Alt+ArrowDown');
  await page.keyboard.press('Alt+Shift+Enter');
  await expect(bar).toBeHidden();
  await expect.poll(() => documentText(page)).toBe('Intro sentence. The improved copy');
  await expect(body.locator('ins, del')).toHaveCount(0);

  // Decisions are stored like any edit.
  await page.reload();
  await waitForLive(page);
  await expect.poll(() => documentText(page)).toBe('Intro sentence. The improved copy');
  await expect(editorBody(page).locator('ins, del')).toHaveCount(0);
});

test('with "Apply directly" chosen, Accept replaces the selection and Ctrl+Z restores it', async ({
  page,
  context,
  request,
}) => {
  const user = await createTestUser(request, 'ai');
  const saved = await request.put('/api/me/settings', {
    headers: { Authorization: `Bearer ${user.session.access_token}` },
    data: { preferences: { aiChanges: 'apply' } },
  });
  expect(saved.status()).toBe(200);
  await signInContext(context, user);
  await openNewDocument(page);
  await typeAtEnd(page, 'Intro sentence. teh draft is bad. Closing sentence.');
  await selectText(page, 'teh draft is bad.');
  await page.getByTestId('ai-toolbar-improve').click();
  const card = page.getByTestId('ai-suggestion-card');
  await expect(card.getByTestId('ai-suggestion-text')).toHaveText('The improved text.');
  await card.getByTestId('ai-suggestion-accept').click();
  await expect.poll(() => documentText(page)).toBe('Intro sentence. The improved text. Closing sentence.');
  await expect(editorBody(page).locator('ins, del')).toHaveCount(0);
  await editorBody(page).click();
  await page.keyboard.press('Control+z');
  await expect.poll(() => documentText(page)).toBe('Intro sentence. teh draft is bad. Closing sentence.');
});

test('Modify edits the suggestion before it is accepted', async ({ page, context, request }) => {
  const user = await createTestUser(request, 'ai');
  await signInContext(context, user);
  await openNewDocument(page);
  await typeAtEnd(page, 'Some rough words.');
  await selectText(page, 'rough words.');
  await page.getByTestId('ai-toolbar-improve').click();
  const card = page.getByTestId('ai-suggestion-card');
  await expect(card.getByTestId('ai-suggestion-text')).toHaveText('The improved text.');
  await card.getByTestId('ai-suggestion-modify').click();
  await card.getByLabel('Edit the suggestion').fill('polished words.');
  await card.getByRole('button', { name: 'Done' }).click();
  await card.getByTestId('ai-suggestion-accept').click();
  await expect(editorBody(page).locator('ins.tracked-change')).toHaveText('polished');
  await expect(editorBody(page).locator('del.tracked-change')).toHaveText('rough');
  await page.getByTestId('suggestion-bar').getByRole('button', { name: 'Accept all' }).click();
  await expect.poll(() => documentText(page)).toBe('Some polished words.');
  await expect(editorBody(page).locator('ins, del')).toHaveCount(0);
});

test('rewrite dialog: Tone Adjustment → Friendly → Replace', async ({ page, context, request }) => {
  const user = await createTestUser(request, 'ai');
  await signInContext(context, user);
  await openNewDocument(page);
  await typeAtEnd(page, 'Please send the report now.');
  await selectText(page, 'Please send the report now.');
  await page.getByRole('button', { name: 'Rewrite', exact: true }).first().click();

  const dialog = page.getByTestId('ai-rewrite-dialog');
  await expect(dialog.getByRole('heading', { name: 'AI Content Rewriting' })).toBeVisible();
  await expect(dialog.getByTestId('ai-rewrite-original')).toHaveText('Please send the report now.');
  await dialog.getByRole('tab', { name: 'Tone Adjustment' }).click();
  await dialog.getByRole('radio', { name: /Friendly/ }).click();
  await dialog.getByRole('button', { name: 'Adjust Tone' }).click();
  await expect(dialog.getByTestId('ai-rewrite-result')).toHaveText('The improved text.');
  // Alternatives are a second model call, made only when asked for; they arrive with a word-level diff.
  await expect(dialog.locator('li')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Find alternatives' }).click();
  await expect(dialog.locator('li').first().locator('ins')).toHaveText('First alternative.');
  await expect(dialog.locator('li').first().locator('del')).toHaveText('Please send the report now.');
  await page.screenshot({ path: '/tmp/shots/ai-rewrite-dialog.png' });
  await dialog.getByTestId('ai-rewrite-replace').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Text Replaced', { exact: true })).toBeVisible();
  // Proposed as one change to review; Reject all gives the text back as it was.
  await expect(editorBody(page).locator('ins.tracked-change')).toHaveText('The improved text.');
  await page.getByTestId('suggestion-bar').getByRole('button', { name: 'Reject all' }).click();
  await expect.poll(() => documentText(page)).toBe('Please send the report now.');
});

test('AI actions without a selection say "No text selected"', async ({ page, context, request }) => {
  const user = await createTestUser(request, 'ai');
  await signInContext(context, user);
  await openNewDocument(page);
  await typeAtEnd(page, 'Nothing selected here.');
  await page.getByTestId('ai-toolbar-improve').click();
  await expect(page.getByText('No text selected', { exact: true })).toBeVisible();
  await expect(page.getByText('Please select some text to improve.', { exact: true })).toBeVisible();
  await expect(page.getByTestId('ai-suggestion-card')).toBeHidden();
});

test('Grammar fixes the selection offline and reports how many issues it fixed', async ({
  page,
  context,
  request,
}) => {
  const user = await createTestUser(request, 'ai');
  await signInContext(context, user);
  await openNewDocument(page);
  await typeAtEnd(page, 'This is an test of the editor.');
  await selectText(page, 'This is an test of the editor.');
  await page.getByTestId('ai-toolbar-grammar').click();
  await expect(page.getByText('Grammar corrected', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('Fixed 1 grammar issues', { exact: true })).toBeVisible();
  await expect(editorBody(page).locator('del.tracked-change')).toHaveText('an');
  await expect(editorBody(page).locator('ins.tracked-change')).toHaveText('a');
  await page.getByTestId('suggestion-bar').getByRole('button', { name: 'Accept all' }).click();
  await expect.poll(() => documentText(page)).toBe('This is a test of the editor.');
});

test('live grammar: a misspelled word is underlined as you type, checked in the browser, and the fix applies', async ({
  page,
  context,
  request,
}) => {
  // The check runs in a Web Worker of the page (Harper compiled to WebAssembly), not on the server.
  const serverChecks: string[] = [];
  const wasmRequests: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/ai/grammar') serverChecks.push(r.url());
    if (r.url().endsWith('.wasm')) wasmRequests.push(r.url());
  });
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  const user = await createTestUser(request, 'ai');
  await signInContext(context, user, { liveGrammar: true });
  await openNewDocument(page);
  await typeAtEnd(page, 'I recieved the letter.');
  const issue = editorBody(page).getByTestId('grammar-issue');
  await expect(issue).toHaveText('recieved', { timeout: 20_000 });
  await page.screenshot({ path: '/tmp/shots/ai-live-grammar.png' });
  await issue.click();
  const card = page.getByTestId('grammar-fix-card');
  await card.getByRole('button', { name: 'Replace with “received”' }).click();
  await expect.poll(() => documentText(page)).toBe('I received the letter.');
  await expect(editorBody(page).getByTestId('grammar-issue')).toHaveCount(0);
  expect(workers.some((url) => /grammar\.worker/u.test(url))).toBe(true);
  expect(wasmRequests).toHaveLength(1);
  expect(serverChecks).toEqual([]);

  // The assistant panel's switch turns it off.
  await page.getByRole('button', { name: 'AI Assistant' }).first().click();
  await page.getByTestId('live-grammar-switch').click();
  await typeAtEnd(page, ' Teh end.');
  await page.waitForTimeout(1_500);
  await expect(editorBody(page).getByTestId('grammar-issue')).toHaveCount(0);
  expect(serverChecks).toEqual([]);
});

test('live grammar falls back to the server when the worker cannot run Harper', async ({
  page,
  context,
  request,
}) => {
  // As in a browser that cannot fetch or compile the binary: the worker reports failure and the
  // underlines come from POST /api/ai/grammar instead.
  await context.route('**/*.wasm', (route) => route.abort());
  const serverChecks: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/ai/grammar') serverChecks.push(r.url());
  });
  const user = await createTestUser(request, 'ai');
  await signInContext(context, user, { liveGrammar: true });
  await openNewDocument(page);
  await typeAtEnd(page, 'I recieved the letter.');
  await expect(editorBody(page).getByTestId('grammar-issue')).toHaveText('recieved', { timeout: 20_000 });
  expect(serverChecks.length).toBeGreaterThan(0);
});
