import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { checkGrammar, stopGrammar, warmUpGrammar } from './grammar';

// Building Harper's linter takes seconds on a busy machine: a hook (60 s budget) pays for it, not a test.
beforeAll(() => warmUpGrammar());
afterAll(() => stopGrammar());

it('a sentence with known errors gets known corrections with offsets', async () => {
  const text = 'I recieved teh letter. Their are many mistakes here and and we should fix them.';
  const result = await checkGrammar(text);
  expect(result.correctedText).toBe(
    'I received the letter. There are many mistakes here and we should fix them.',
  );
  expect(
    result.changes.map(({ offset, length, original, replacement }) => ({
      offset,
      length,
      original,
      replacement,
    })),
  ).toEqual([
    { offset: 2, length: 8, original: 'recieved', replacement: 'received' },
    { offset: 11, length: 3, original: 'teh', replacement: 'the' },
    { offset: 23, length: 5, original: 'Their', replacement: 'There' },
    { offset: 52, length: 7, original: 'and and', replacement: 'and' },
  ]);
  for (const change of result.changes) {
    expect(text.slice(change.offset, change.offset + change.length)).toBe(change.original);
    expect(change.message.length).toBeGreaterThan(0);
  }
  expect(result.corrections).toBe(result.changes);
  expect(result.result).toEqual({ correctedText: result.correctedText, corrections: result.changes });
});

it('offsets are string indices even after characters outside the BMP', async () => {
  const result = await checkGrammar('The 😀 emoji is an nice thing.');
  expect(result.correctedText).toBe('The 😀 emoji is a nice thing.');
  expect(result.changes[0]).toMatchObject({ offset: 16, length: 2, original: 'an', replacement: 'a' });
});

it('correct text has no changes', async () => {
  const result = await checkGrammar('The weather is lovely today.');
  expect(result.changes).toEqual([]);
  expect(result.correctedText).toBe('The weather is lovely today.');
});

const BRITISH = 'The colour of the harbour was grey, and we were travelling home.';

it('in American English, British spellings are flagged', async () => {
  const result = await checkGrammar(BRITISH);
  expect(result.changes.map((change) => change.original)).toEqual(
    expect.arrayContaining(['colour', 'harbour']),
  );
});

it.each(['british', 'canadian', 'australian'] as const)(
  'in %s English, "colour", "harbour", "grey" and "travelling" are not flagged',
  async (dialect) => {
    const result = await checkGrammar(BRITISH, 'dialect-test', dialect);
    expect(result.changes.map((change) => change.original)).toEqual([]);
    expect(result.correctedText).toBe(BRITISH);
  },
);

it('British English still corrects real mistakes', async () => {
  const result = await checkGrammar('I recieved the colour chart.', 'dialect-test', 'british');
  expect(result.changes).toMatchObject([{ original: 'recieved', replacement: 'received' }]);
});

describe("the grammar route follows the writer's dialect setting", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('flags "colour" until the writer chooses British English', async () => {
    const user = await createUser(server);
    const check = () =>
      server.request('POST', '/api/ai/grammar', { token: user.token, body: { text: BRITISH } });
    const american = await check();
    expect(american.status).toBe(200);
    expect(american.body.changes.map((c: { original: string }) => c.original)).toContain('colour');

    const saved = await server.request('PUT', '/api/me/settings', {
      token: user.token,
      body: { preferences: { grammarDialect: 'british' } },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.preferences.grammarDialect).toBe('british');
    const british = await check();
    expect(british.body.changes).toEqual([]);
    expect(british.body.correctedText).toBe(BRITISH);
  });
});
