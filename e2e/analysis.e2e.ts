import { editorBody, waitForLive } from './editor-helpers';
import { expect, test } from './fixtures';

/**
 * Document Stats → Analyze: the offline analysis of the document, with its long sentences and passive
 * constructions highlighted in the text. No AI provider: the page is told none is configured and any AI
 * call fails the test.
 */

const SHORT = 'We met again today.';
// 39 words: over the 30-word threshold.
const LONG =
  'When the committee finally met on Tuesday afternoon after weeks of delay the members argued about the ' +
  'budget and the schedule and the venue for so long that nobody remembered what the original question had ' +
  'been about at all.';
const PASSIVE = 'The minutes were written by the new intern.';
const FIX = 'The committee met on Tuesday.';

test('Analyze highlights a long sentence and a passive one with no provider, and follows the edits', async ({
  page,
  users,
}) => {
  const aiRequests: string[] = [];
  await page.route('**/api/ai/**', (route) => {
    const url = route.request().url();
    if (url.endsWith('/api/ai/health'))
      return route.fulfill({ json: { openai: false, anthropic: false, providers: [] } });
    // Reading settings (custom commands) is fine; any AI call (a POST) is what this feature must not make.
    if (route.request().method() === 'GET') return route.continue();
    aiRequests.push(url);
    return route.abort();
  });
  const user = await users.create({ prefix: 'analysis' });
  const created = await users.api(user).post('/api/documents', { title: 'Committee notes' });
  const { id } = (await created.json()) as { id: string };
  await users.login(user);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/editor/${id}`);
  await waitForLive(page);

  const body = editorBody(page);
  await body.click();
  await page.keyboard.type(`${SHORT} ${LONG} ${PASSIVE}`);

  await page.getByRole('button', { name: 'Analyze', exact: true }).click();
  const panel = page.getByTestId('analysis-panel');
  const longItems = panel.getByTestId('analysis-long-sentences').getByRole('button');
  await expect(longItems).toHaveCount(1);
  await expect(longItems.first()).toContainText('39 words');
  const passiveItems = panel.getByTestId('analysis-passive').getByRole('button');
  await expect(passiveItems).toHaveText(['were written']);
  await expect(panel.getByTestId('analysis-suggestions')).toContainText(
    'Split the 39-word sentence beginning “When the committee finally met on…”.',
  );
  await expect(panel.getByTestId('analysis-sentence-lengths')).toContainText('31+ words: 1 sentence');

  // Exactly that sentence is highlighted, and the passive construction.
  const longHighlight = body.locator('[data-analysis="long-sentence"]');
  await expect(longHighlight).toHaveCount(1);
  await expect(longHighlight).toHaveText(LONG);
  await expect(longHighlight).toHaveAttribute('title', 'Long sentence: 39 words');
  await expect(body.locator('[data-analysis="passive-voice"]')).toHaveText(['were written']);

  // A highlight brings its panel item forward.
  await body.locator('[data-analysis="passive-voice"]').click();
  await expect(passiveItems.first()).toHaveAttribute('aria-current', 'true');

  // The panel item selects its sentence in the text.
  await longItems.first().click();
  await expect(body).toBeFocused();
  await expect.poll(() => page.evaluate(() => window.getSelection()?.toString())).toBe(LONG);

  // Replacing the sentence with a short one: after the pause in typing the panel and highlights follow.
  await page.keyboard.type(FIX);
  await expect(panel.getByTestId('analysis-long-sentences')).toHaveCount(0);
  await expect(panel).toContainText('None over 30 words.');
  await expect(longHighlight).toHaveCount(0);
  await expect(body.locator('[data-analysis="passive-voice"]')).toHaveText(['were written']);

  // Closing the analysis removes the highlights.
  await page.getByRole('button', { name: 'Close analysis' }).click();
  await expect(panel).toBeHidden();
  await expect(body.locator('[data-analysis]')).toHaveCount(0);
  expect(aiRequests).toEqual([]);
});
