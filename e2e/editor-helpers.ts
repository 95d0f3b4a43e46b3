import {
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import {
  keepLiveGrammarOff,
  SESSION_STORAGE_KEY,
  signUpViaApi,
  testClientAddress,
  type Session,
} from './fixtures';

/** Helpers for the editor's browser tests: users made through the API, signed in without the UI. */

export interface TestUser {
  email: string;
  password: string;
  session: Session;
}

export async function createTestUser(request: APIRequestContext, prefix = 'editor'): Promise<TestUser> {
  const email = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const password = 'correct-horse-battery-staple-42';
  // Its own client address, so parallel tests don't share the per-IP sign-up limit (see e2e/serve.ts).
  const session = await signUpViaApi(
    request,
    { email, password, fullName: 'Editor Tester' },
    { 'x-forwarded-for': testClientAddress() },
  );
  return { email, password, session };
}

/**
 * Puts the session where AuthProvider reads it, before any page script runs (first navigation only). Live
 * grammar stays off unless `liveGrammar` (see keepLiveGrammarOff).
 */
export async function signInContext(
  context: BrowserContext,
  user: TestUser,
  options: { liveGrammar?: boolean } = {},
): Promise<void> {
  if (!options.liveGrammar) await keepLiveGrammarOff(context);
  await context.addInitScript(
    ([key, value]) => {
      if (!window.localStorage.getItem(key)) window.localStorage.setItem(key, value);
    },
    [SESSION_STORAGE_KEY, JSON.stringify(user.session)] as const,
  );
}

/** A browser context of its own (another device, or one a test takes offline), signed in as the user. */
export async function signedInContext(browser: Browser, user: TestUser): Promise<BrowserContext> {
  const context = await browser.newContext();
  await signInContext(context, user);
  return context;
}

export async function createDocumentViaApi(
  request: APIRequestContext,
  user: TestUser,
  title = 'Untitled Document',
  content?: unknown,
) {
  const response = await request.post('/api/documents', {
    headers: { Authorization: `Bearer ${user.session.access_token}` },
    data: content === undefined ? { title } : { title, content },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string };
}

export async function getDocumentViaApi(request: APIRequestContext, user: TestUser, id: string) {
  const response = await request.get(`/api/documents/${id}`, {
    headers: { Authorization: `Bearer ${user.session.access_token}` },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { title: string; content: unknown };
}

/** The document's stored content as JSON text, read through the API (to look for a phrase in it). */
export async function storedContentJson(
  request: APIRequestContext,
  user: TestUser,
  id: string,
): Promise<string> {
  return JSON.stringify((await getDocumentViaApi(request, user, id)).content);
}

/** Waits until the server has stored a document whose content holds the text. */
export async function expectStored(request: APIRequestContext, user: TestUser, id: string, text: string) {
  await expect.poll(() => storedContentJson(request, user, id), { timeout: 15_000 }).toContain(text);
}

export function editorBody(page: Page) {
  return page.getByTestId('editor-body');
}

/** Waits until the editor is connected and synced ('Live'). */
export async function waitForLive(page: Page) {
  await expect(page.getByTestId('connection-badge')).toHaveText('Live', { timeout: 15_000 });
  await expect(editorBody(page)).toBeVisible();
}

/**
 * Opens a new document ('/editor' makes one and moves to its address), waits until it is live and returns its
 * id.
 */
export async function openNewDocument(page: Page): Promise<string> {
  await page.goto('/editor');
  await expect(page).toHaveURL(/\/editor\/[0-9a-f-]{36}$/u);
  await waitForLive(page);
  return page.url().split('/').pop() ?? '';
}

/** Opens the document and waits until it is live. */
export async function openDocument(page: Page, id: string) {
  await page.goto(`/editor/${id}`);
  await waitForLive(page);
}

/** Opens the document in a new page of the context and waits until it is live. */
export async function openLive(context: BrowserContext, id: string): Promise<Page> {
  const page = await context.newPage();
  await openDocument(page, id);
  return page;
}

/** Types at the end of the document. */
export async function typeAtEnd(page: Page, text: string) {
  const body = editorBody(page);
  await body.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
}

/** The document's text, block by block, without other people's caret labels. */
export async function documentText(page: Page): Promise<string> {
  return editorBody(page).evaluate((element) => {
    const clone = element.cloneNode(true) as HTMLElement;
    for (const caret of clone.querySelectorAll('.collaboration-carets__caret')) caret.remove();
    return [...clone.children].map((block) => block.textContent ?? '').join('\n');
  });
}
