import { expect, test } from '@playwright/test';
import { expectAccessible } from './axe';
import {
  createDocumentViaApi,
  createTestUser,
  signInContext,
  typeAtEnd,
  waitForLive,
} from './editor-helpers';

/**
 * Writing goals: the progress ring in the editor header, the Goals popover (target, deadline, today's words,
 * streak, chart), the ring moving as the writer types, and the session summary on leaving.
 */
const SHOTS = '/tmp/goals-shots';

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });

test('set a target, type, and watch the ring and today’s words move', async ({ browser, request }) => {
  const user = await createTestUser(request, 'goals');
  const { id } = await createDocumentViaApi(request, user, 'Novel', {
    type: 'doc',
    content: [paragraph('One two three four five six seven eight nine ten')],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await signInContext(context, user);
  const page = await context.newPage();
  await page.goto(`/editor/${id}`);
  await waitForLive(page);

  const ring = page.getByRole('button', { name: /writing goal/iu });
  await expect(ring).toHaveAccessibleName('Writing goal: none set');
  await ring.click();
  const popover = page.getByTestId('goals-popover');
  await expect(popover.getByRole('heading', { name: 'Goals' })).toBeVisible();
  await expect(popover.getByTestId('goal-today')).toHaveText('0');
  await expect(popover.getByTestId('goal-chart')).toBeVisible();

  // A deadline nine days after today: 10 words left over ten days is one word a day.
  const today = await popover.getByLabel('Deadline').getAttribute('min');
  const deadline = new Date(Date.parse(`${today}T00:00:00Z`) + 9 * 86_400_000).toISOString().slice(0, 10);
  await popover.getByLabel('Word target').fill('20');
  await popover.getByLabel('Deadline').fill(deadline);
  await popover.getByRole('button', { name: 'Save goal' }).click();
  await expect(popover.getByTestId('goal-progress')).toContainText('10 of 20 words');
  await expect(popover.getByTestId('goal-progress')).toContainText('Daily target: 1 word');
  await expect(ring).toHaveAccessibleName('50% of writing goal: 10 of 20 words · Daily target: 1 word');
  await expect(ring).toHaveAttribute('data-progress', '50');
  await expectAccessible(page, 'goals popover', { focusTrapped: false });
  await page.screenshot({ path: `${SHOTS}/popover.png` });

  await page.keyboard.press('Escape');
  await expect(popover).toBeHidden();
  await typeAtEnd(page, ' eleven twelve thirteen fourteen fifteen');
  await expect(ring).toHaveAttribute('data-progress', '75');
  await expect(ring).toHaveAccessibleName(/^75% of writing goal: 15 of 20 words/u);
  await page.screenshot({ path: `${SHOTS}/ring.png`, clip: { x: 640, y: 0, width: 640, height: 120 } });

  // The server credits the words once it stores them; the open popover refreshes.
  await ring.click();
  await expect(popover.getByTestId('goal-today')).toHaveText('5', { timeout: 20_000 });
  await page.screenshot({ path: `${SHOTS}/popover-after.png` });
  await page.keyboard.press('Escape');

  // Leaving the editor sums up the session.
  await page.getByRole('link', { name: 'Documents' }).click();
  await expect(page.getByText('Writing session', { exact: true })).toBeVisible();
  await expect(page.getByText(/^\+5 words in 1 min/u)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/session-toast.png` });

  await context.close();
});

test('a folder’s goal counts the documents in it and in its sub-folders', async ({ browser, request }) => {
  const user = await createTestUser(request, 'goals-folder');
  const api = async (method: 'post' | 'put', path: string, data: unknown) => {
    const response = await request[method](path, {
      headers: { Authorization: `Bearer ${user.session.access_token}` },
      data,
    });
    expect(response.ok(), await response.text()).toBe(true);
    return (await response.json()) as { id: string };
  };
  const book = await api('post', '/api/folders', { name: 'My novel', parentId: null });
  const part = await api('post', '/api/folders', { name: 'Part one', parentId: book.id });
  const one = await createDocumentViaApi(request, user, 'Chapter one', {
    type: 'doc',
    content: [paragraph('It was a bright cold day')],
  });
  const two = await createDocumentViaApi(request, user, 'Chapter two', {
    type: 'doc',
    content: [paragraph('The clocks were striking thirteen')],
  });
  await api('put', `/api/documents/${one.id}/folder`, { folderId: part.id });
  await api('put', `/api/documents/${two.id}/folder`, { folderId: book.id });

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await signInContext(context, user);
  const page = await context.newPage();
  await page.goto(`/editor/${one.id}`);
  await waitForLive(page);
  await page.getByRole('button', { name: /writing goal/iu }).click();
  const section = page.getByTestId('folder-goal');
  // The document's own folder first; the book above it is one choice away.
  await expect(section.getByRole('combobox', { name: 'Folder' })).toHaveValue(part.id);
  await expect(section.getByTestId('folder-goal-progress')).toHaveText('6 words in this folder');
  await section.getByRole('combobox', { name: 'Folder' }).selectOption({ label: 'My novel' });
  await expect(section.getByTestId('folder-goal-progress')).toHaveText('11 words in this folder');
  const form = section.getByRole('form', { name: 'Folder goal' });
  await form.getByLabel('Word target').fill('80000');
  await form.getByRole('button', { name: 'Save goal' }).click();
  await expect(section.getByTestId('folder-goal-progress')).toHaveText('11 of 80,000 words');
  await expectAccessible(page, 'goals popover with a folder goal', { focusTrapped: false });
  await page.getByTestId('goals-popover').evaluate((element) => element.scrollTo(0, element.scrollHeight));
  await page.screenshot({ path: `${SHOTS}/folder-goal.png` });
  await context.close();
});
