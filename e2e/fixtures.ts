import {
  test as base,
  expect,
  type APIRequestContext,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { PRERENDERED_ATTRIBUTE, SESSION_STORAGE_KEY } from '../src/shared/first-paint';
import { E2E_DATA_DIR } from './env';

/**
 * Browser-test fixtures (cal.com style): users are created through the real API and signed in by writing the
 * session where the app keeps it, so each test spends its time on the screen it tests.
 */

export { PRERENDERED_ATTRIBUTE, SESSION_STORAGE_KEY, THEME_STORAGE_KEY } from '../src/shared/first-paint';
/** Same key as src/client/features/ai/live-grammar-preference.ts. */
const LIVE_GRAMMAR_STORAGE_KEY = 'quillwright.ai.liveGrammar';

/**
 * Opens `/` (or `/#pricing`…) and waits until the app has taken over the landing page's HTML from the build
 * (the server sends `/` with the page already in it; its buttons work once the app has started).
 */
export async function openHome(page: Page, url = '/'): Promise<void> {
  await page.goto(url);
  await page.waitForFunction((copy) => !document.querySelector(`[${copy}]`), PRERENDERED_ATTRIBUTE);
}
/**
 * Ghost-text completion asks the AI whenever a writer pauses at the end of a paragraph and shows grey text
 * there that Tab would keep; tests that type, pause and press keys have it off in their browser (the ghost
 * test turns it on).
 */
export const GHOST_COMPLETION_STORAGE_KEY = 'quillwright.ai.ghostCompletion';

/**
 * Browser tests run with live grammar off unless they test it: its WebAssembly (16 MB) compiles in every
 * editor page, and its underlines re-render the text a test is typing and selecting. The switch is only set
 * when the page has none, so a test that flips it keeps its choice across reloads.
 */
export async function keepLiveGrammarOff(context: BrowserContext): Promise<void> {
  await context.addInitScript(
    (keys) => {
      for (const key of keys)
        if (window.localStorage.getItem(key) === null) window.localStorage.setItem(key, 'off');
    },
    [LIVE_GRAMMAR_STORAGE_KEY, GHOST_COMPLETION_STORAGE_KEY],
  );
}
export const TEST_PASSWORD = 'quiet-harbour-lantern-58';

export interface Session {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  expires_at: number;
  token_type: string;
  user: { id: string; email: string; user_metadata: { full_name?: string } };
}

export interface TestUser {
  email: string;
  password: string;
  fullName: string;
  session: Session;
}

/**
 * Signs a new account up through the API and returns a session for it: sign-up's own, or a sign-in's where the
 * instance asks for a confirmed e-mail before it hands one out.
 */
export async function signUpViaApi(
  request: APIRequestContext,
  account: { email: string; password: string; fullName: string },
  headers: Record<string, string> = {},
): Promise<Session> {
  const { email, password, fullName } = account;
  const signUp = await request.post('/api/auth/signup', {
    headers,
    data: { email, password, data: { full_name: fullName } },
  });
  expect(signUp.ok(), await signUp.text()).toBeTruthy();
  const session = ((await signUp.json()) as { session: Session | null }).session;
  if (session) return session;
  const signIn = await request.post('/api/auth/token?grant_type=password', {
    headers,
    data: { email, password },
  });
  expect(signIn.ok(), await signIn.text()).toBeTruthy();
  return (await signIn.json()) as Session;
}

export function uniqueEmail(prefix = 'writer'): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@example.test`;
}

/** A named person signed up through the API (from their own made-up address), for tests with two people. */
export async function signUpPerson(request: APIRequestContext, fullName: string, prefix: string) {
  const email = uniqueEmail(prefix);
  const password = 'correct-horse-battery-staple-42';
  const session = await signUpViaApi(
    request,
    { email, password, fullName },
    { 'x-forwarded-for': testClientAddress() },
  );
  return { email, password, session };
}

/** The owner invites a person to the document in a role, through the API. */
export async function addDocumentMember(
  request: APIRequestContext,
  owner: { session: Session },
  documentId: string,
  email: string,
  role: 'editor' | 'suggester' | 'commenter' | 'viewer',
): Promise<void> {
  const invited = await request.post(`/api/documents/${documentId}/members`, {
    headers: { Authorization: `Bearer ${owner.session.access_token}` },
    data: { email, role },
  });
  expect(invited.status(), await invited.text()).toBe(201);
}

/** A made-up client address per test: the e2e server trusts X-Forwarded-For, so per-IP limits are per test. */
export function testClientAddress(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${((c ?? 0) % 250) + 2}`;
}

export interface Users {
  /** Signs up a new user through the API (no UI) and returns it with a fresh session. */
  create(options?: { fullName?: string; prefix?: string }): Promise<TestUser>;
  /** Signs the page in as the user: the session goes into localStorage before the app's scripts run. */
  login(user: TestUser): Promise<void>;
  /** The API with the user's bearer token. */
  api(user: TestUser): {
    get(url: string): ReturnType<APIRequestContext['get']>;
    post(url: string, data?: unknown): ReturnType<APIRequestContext['post']>;
    put(url: string, data?: unknown): ReturnType<APIRequestContext['put']>;
  };
}

export interface Mail {
  type: 'recovery' | 'signup' | 'email_change' | 'email_change_notice';
  to: string;
  subject: string;
  text: string;
  link: string;
  created_at: string;
}

interface Outbox {
  /** Waits for the newest mail of a type sent to an address (the server writes mails to DATA_DIR/outbox). */
  waitFor(to: string, type: Mail['type']): Promise<Mail>;
}

interface Fixtures {
  clientAddress: string;
  users: Users;
  outbox: Outbox;
}

export const test = base.extend<Fixtures>({
  // Playwright reads the fixture's dependencies from the destructuring pattern: an empty one means none.
  // eslint-disable-next-line no-empty-pattern
  clientAddress: async ({}, use) => {
    await use(testClientAddress());
  },
  // Every request of the test's browser context carries the test's client address.
  context: async ({ context, clientAddress }, use) => {
    await context.setExtraHTTPHeaders({ 'x-forwarded-for': clientAddress });
    await keepLiveGrammarOff(context);
    await use(context);
  },
  users: async ({ playwright, baseURL, page, clientAddress }, use) => {
    const request = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { 'x-forwarded-for': clientAddress },
    });
    const users: Users = {
      async create({ fullName = 'Test Writer', prefix = 'writer' } = {}) {
        const email = uniqueEmail(prefix);
        const session = await signUpViaApi(request, { email, password: TEST_PASSWORD, fullName });
        return { email, password: TEST_PASSWORD, fullName, session };
      },
      async login(user) {
        await page.addInitScript(
          ([key, value]) => {
            // Only on the first load: later reloads keep whatever the app stored (refreshed or signed out).
            if (!window.sessionStorage.getItem('e2e.seeded')) {
              window.sessionStorage.setItem('e2e.seeded', '1');
              window.localStorage.setItem(key, value);
            }
          },
          [SESSION_STORAGE_KEY, JSON.stringify(user.session)] as const,
        );
      },
      api(user) {
        const headers = { Authorization: `Bearer ${user.session.access_token}` };
        return {
          get: (url) => request.get(url, { headers }),
          post: (url, data) => request.post(url, { headers, data }),
          put: (url, data) => request.put(url, { headers, data }),
        };
      },
    };
    await use(users);
    await request.dispose();
  },
  // eslint-disable-next-line no-empty-pattern
  outbox: async ({}, use) => {
    const dir = path.join(E2E_DATA_DIR, 'outbox');
    const read = async (to: string, type: Mail['type']): Promise<Mail | undefined> => {
      const names = await readdir(dir).catch(() => [] as string[]);
      const mine = names
        .filter((name) => name.endsWith('.json') && name.includes(`-${type}-`))
        .sort()
        .reverse();
      for (const name of mine) {
        const mail = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as Mail;
        if (mail.to.toLowerCase() === to.toLowerCase() && mail.type === type) return mail;
      }
      return undefined;
    };
    await use({
      async waitFor(to, type) {
        let found: Mail | undefined;
        await expect
          .poll(async () => (found = await read(to, type)), {
            message: `a ${type} mail to ${to}`,
            timeout: 15_000,
          })
          .toBeTruthy();
        return found as Mail;
      },
    });
  },
});

export { expect };

/** Saves a full-page screenshot at the given width into /tmp/shots. */
export async function shoot(page: Page, name: string, width: 1280 | 390): Promise<void> {
  await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
  await page.waitForTimeout(350); // let transitions settle
  await page.screenshot({ path: `/tmp/shots/${name}-${width}.png`, fullPage: false });
}
