import { expect, test, type Page } from '@playwright/test';
import {
  createDocumentViaApi,
  createTestUser,
  editorBody,
  storedContentJson,
  signInContext,
  typeAtEnd,
  waitForLive,
} from './editor-helpers';
import { GHOST_COMPLETION_STORAGE_KEY } from './fixtures';

/** The text the document holds: without the grey ghost (a new one may appear at each pause). */
function keptText(page: Page): Promise<string> {
  return editorBody(page).evaluate((element) => {
    const clone = element.cloneNode(true) as HTMLElement;
    for (const extra of clone.querySelectorAll('.ghost-text, .collaboration-carets__caret')) extra.remove();
    return [...clone.children].map((block) => block.textContent ?? '').join('\n');
  });
}

/**
 * Ghost-text completion against the local OpenAI-compatible server, which continues any text with "The
 * improved text." (e2e/serve.ts).
 */
test('a pause shows a grey continuation: Tab keeps it, Ctrl+→ keeps a word, Esc dismisses, others never see it', async ({
  browser,
  request,
}) => {
  const user = await createTestUser(request, 'ghost');
  const turnedOn = await request.put('/api/me/settings', {
    headers: { Authorization: `Bearer ${user.session.access_token}` },
    data: { preferences: { ghostCompletion: 'quick' } },
  });
  expect(turnedOn.ok(), await turnedOn.text()).toBeTruthy();
  const { id } = await createDocumentViaApi(request, user, 'Ghosts');

  const writerContext = await browser.newContext();
  const readerContext = await browser.newContext();
  await signInContext(writerContext, user);
  await signInContext(readerContext, user);
  await writerContext.addInitScript(
    (key) => window.localStorage.setItem(key, 'on'),
    GHOST_COMPLETION_STORAGE_KEY,
  );
  const writer = await writerContext.newPage();
  const reader = await readerContext.newPage();
  await writer.goto(`/editor/${id}`);
  await reader.goto(`/editor/${id}`);
  await waitForLive(writer);
  await waitForLive(reader);

  const ghost = editorBody(writer).getByTestId('ghost-text');
  await typeAtEnd(writer, 'Our garden plans for this spring');
  await expect(ghost).toHaveText(' The improved text.', { timeout: 15_000 });
  await writer.screenshot({ path: '/tmp/shots/ghost-text-1280.png' });
  // Only grey text in this editor: the other session and the stored document have none of it.
  await expect(editorBody(reader)).toContainText('Our garden plans for this spring');
  await expect(editorBody(reader)).not.toContainText('improved');
  await expect(editorBody(reader).getByTestId('ghost-text')).toHaveCount(0);

  await writer.keyboard.press('Tab');
  await expect.poll(() => keptText(writer)).toBe('Our garden plans for this spring The improved text.');
  await expect(editorBody(reader)).toContainText('spring The improved text.');

  // Escape dismisses the next one and leaves the text alone.
  await writer.keyboard.type(' And then');
  await expect(ghost).toBeVisible({ timeout: 15_000 });
  await writer.keyboard.press('Escape');
  await expect(ghost).toHaveCount(0);
  // Dismissed for this pause: no new request until the writer does something.
  await writer.waitForTimeout(1_000);
  await expect(ghost).toHaveCount(0);
  await expect
    .poll(() => keptText(writer))
    .toBe('Our garden plans for this spring The improved text. And then');

  // Ctrl+→ keeps one word; the rest stays grey. Typing dismisses it.
  await writer.keyboard.type(' more');
  await expect(ghost).toHaveText(' The improved text.', { timeout: 15_000 });
  await writer.keyboard.press('Control+ArrowRight');
  await expect(ghost).toHaveText('improved text.');
  await writer.keyboard.type('x');
  await expect
    .poll(() => keptText(writer))
    .toBe('Our garden plans for this spring The improved text. And then more The x');

  await expect
    .poll(() => storedContentJson(request, user, id), {
      timeout: 15_000,
    })
    .toContain('And then more The x');
  await writerContext.close();
  await readerContext.close();
});
