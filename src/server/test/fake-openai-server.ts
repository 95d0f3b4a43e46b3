import { afterAll, beforeAll } from 'vitest';
import { createUser, type TestUser } from './factories';
import { fakeOpenAiEnv, startFakeOpenAI } from './fake-openai';
import type { FakeProvider } from './fake-provider';
import { startTestServer, type TestServer } from './server';

interface FakeOpenAiServer {
  openai: FakeProvider;
  server: TestServer;
  /** Owns what the test makes. */
  writer: TestUser;
  /** Another user, to whom the writer's things answer 404. */
  other: TestUser;
}

/**
 * A fake OpenAI and a server that uses it, with two users, started before the file's tests and closed after
 * them: read the fields inside tests and hooks, not before they run.
 */
export function serverWithFakeOpenAI(): FakeOpenAiServer {
  const setup = {} as FakeOpenAiServer;
  beforeAll(async () => {
    setup.openai = await startFakeOpenAI();
    setup.server = await startTestServer({ env: fakeOpenAiEnv(setup.openai) });
    setup.writer = await createUser(setup.server);
    setup.other = await createUser(setup.server);
  });
  afterAll(async () => {
    await setup.server?.close();
    await setup.openai?.close();
  });
  return setup;
}
