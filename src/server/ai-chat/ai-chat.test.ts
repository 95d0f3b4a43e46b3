import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_SYSTEM_INTRO } from '../../shared/ai/prompts';
import { CHAT_MESSAGE_MAX_CHARS } from '../../shared/constants';
import { connectCollabClient, waitFor } from '../collab/testing';
import { aiChatMessages, documents } from '../db/schema';
import { openAiSystemPrompt, openAiUserPrompt, startFakeOpenAI } from '../test/fake-openai';
import type { FakeProvider } from '../test/fake-provider';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });

function parseSse(text: string) {
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      let event = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      return { event, data: JSON.parse(data) };
    });
}

describe('chat with the document', () => {
  let openai: FakeProvider;
  let server: TestServer;
  let writer: TestUser;
  let other: TestUser;

  async function createDocument(user: TestUser, texts: string[]): Promise<string> {
    const [row] = await server.database.db
      .insert(documents)
      .values({
        userId: user.id,
        title: 'Garden notes',
        content: { type: 'doc', content: texts.map(paragraph) },
      })
      .returning({ id: documents.id });
    return row!.id;
  }

  async function ask(documentId: string, message: string, token = writer.token) {
    const response = await fetch(`${server.url}/api/ai/chat/${documentId}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({ message }),
    });
    const text = await response.text();
    const stream = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
    return {
      status: response.status,
      events: stream ? parseSse(text) : [],
      json: stream ? undefined : JSON.parse(text),
    };
  }

  const lastPrompt = () => openai.requests.filter((r) => r.method === 'POST').at(-1)!.body;

  beforeAll(async () => {
    openai = await startFakeOpenAI();
    server = await startTestServer({
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: openai.baseUrl, OPENAI_MODEL: 'fake-gpt' },
    });
    writer = await createUser(server);
    other = await createUser(server);
  });
  afterAll(async () => {
    await server?.close();
    await openai?.close();
  });

  it('streams an answer about the document and keeps both messages', async () => {
    const id = await createDocument(writer, ['Roses need sun.', 'Tomatoes need water every day.']);
    openai.answerWith(() => ['The **weakest** ', 'point is the tomatoes.']);
    const { status, events } = await ask(id, 'What is the weakest argument?');
    expect(status).toBe(200);
    const deltas = events.filter((e) => e.event === 'message').map((e) => e.data.delta);
    expect(deltas.join('')).toBe('The **weakest** point is the tomatoes.');
    const done = events.find((e) => e.event === 'done')!.data;
    expect(done.question).toMatchObject({ role: 'user', content: 'What is the weakest argument?' });
    expect(done.answer).toMatchObject({
      role: 'assistant',
      content: 'The **weakest** point is the tomatoes.',
      edits: [],
    });

    const body = lastPrompt();
    expect(openAiSystemPrompt(body)).toContain(CHAT_SYSTEM_INTRO);
    const prompt = openAiUserPrompt(body);
    expect(prompt).toContain('[2] Tomatoes need water every day.');
    expect(prompt).toContain('Title: Garden notes');

    const listed = await server.request('GET', `/api/ai/chat/${id}`, { token: writer.token });
    expect(listed.status).toBe(200);
    expect(listed.body.messages.map((m: { role: string; id: string }) => [m.role, m.id])).toEqual([
      ['user', done.question.id],
      ['assistant', done.answer.id],
    ]);

    // The next question carries the conversation so far.
    openai.answerWith(() => ['Yes.']);
    await ask(id, 'Are you sure?');
    expect(openAiUserPrompt(lastPrompt())).toContain('Assistant: The **weakest** point is the tomatoes.');
  });

  it('a change request comes back as validated edits; malformed ones are dropped without a 500', async () => {
    const id = await createDocument(writer, ['Intro stays.', 'This paragraph is far too long and wordy.']);
    openai.answerWith(() => [
      'I shortened the second paragraph.\n\n```edits\n',
      '[{"find": "far too long and wordy", "replace": "short"}, {"find": 3}, {"replace": "x"}, "nope"]\n```',
    ]);
    const { status, events } = await ask(id, 'Shorten the second paragraph');
    expect(status).toBe(200);
    const done = events.find((e) => e.event === 'done')!.data;
    expect(done.answer.content).toBe('I shortened the second paragraph.');
    expect(done.answer.edits).toEqual([{ find: 'far too long and wordy', replace: 'short' }]);

    openai.answerWith(() => ['Here you go.\n\n```edits\n{not json at all', '\n```']);
    const broken = await ask(id, 'Shorten it more');
    expect(broken.status).toBe(200);
    const brokenDone = broken.events.find((e) => e.event === 'done')!.data;
    expect(brokenDone.answer).toMatchObject({ content: 'Here you go.', edits: [] });

    const rows = await server.database.db
      .select()
      .from(aiChatMessages)
      .where(eq(aiChatMessages.documentId, id));
    expect(rows).toHaveLength(4);
    const listed = await server.request('GET', `/api/ai/chat/${id}`, { token: writer.token });
    expect(listed.body.messages[1].edits).toEqual([{ find: 'far too long and wordy', replace: 'short' }]);
  });

  it('reads the document as it is live, before the store debounce has written it', async () => {
    const id = await createDocument(writer, ['Stored paragraph.']);
    const client = await connectCollabClient({ serverUrl: server.url, documentId: id, token: writer.token });
    try {
      client.appendParagraph('Typed a moment ago.');
      await waitFor(() =>
        JSON.stringify(server.app.liveDocuments.currentContent(id) ?? {}).includes('Typed a moment ago.'),
      );
      openai.answerWith(() => ['Seen.']);
      await ask(id, 'What did I just type?');
      expect(openAiUserPrompt(lastPrompt())).toContain('[2] Typed a moment ago.');
    } finally {
      client.destroy();
    }
  });

  it('keeps hostile Markdown as the model wrote it (the client renders it sanitized)', async () => {
    const id = await createDocument(writer, ['Text.']);
    const hostile = '[click](javascript:alert(1)) <script>alert(2)</script>';
    openai.answerWith(() => [hostile]);
    const { events } = await ask(id, 'Say something');
    expect(events.find((e) => e.event === 'done')!.data.answer.content).toBe(hostile);
  });

  it('is the owner’s alone: another writer gets 404, their own conversation stays separate', async () => {
    const id = await createDocument(writer, ['Private text.']);
    openai.answerWith(() => ['Answer.']);
    await ask(id, 'Question?');
    for (const [method, path] of [
      ['GET', `/api/ai/chat/${id}`],
      ['DELETE', `/api/ai/chat/${id}`],
    ] as const) {
      const res = await server.request(method, path, { token: other.token });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found' });
    }
    const asked = await ask(id, 'Show me', other.token);
    expect(asked.status).toBe(404);
    expect((await server.request('GET', `/api/ai/chat/${id}`)).status).toBe(401);
    expect((await server.request('GET', '/api/ai/chat/not-a-uuid', { token: writer.token })).status).toBe(
      404,
    );
    const mine = await server.request('GET', `/api/ai/chat/${id}`, { token: writer.token });
    expect(mine.body.messages).toHaveLength(2);
  });

  it('clears the conversation (204), and it goes with the document', async () => {
    const id = await createDocument(writer, ['Some text.']);
    openai.answerWith(() => ['Answer.']);
    await ask(id, 'Question?');
    expect((await server.request('DELETE', `/api/ai/chat/${id}`, { token: writer.token })).status).toBe(204);
    const after = await server.request('GET', `/api/ai/chat/${id}`, { token: writer.token });
    expect(after.body.messages).toEqual([]);

    await ask(id, 'Again?');
    await server.database.db.delete(documents).where(eq(documents.id, id));
    const rows = await server.database.db
      .select()
      .from(aiChatMessages)
      .where(eq(aiChatMessages.documentId, id));
    expect(rows).toEqual([]);
  });

  it('refuses an empty or too long message with 400 { message, code }', async () => {
    const id = await createDocument(writer, ['Text.']);
    const calls = openai.requests.length;
    for (const message of ['   ', 'x'.repeat(CHAT_MESSAGE_MAX_CHARS + 1)]) {
      const res = await ask(id, message);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({
        code: 'validation_failed',
        message: expect.stringMatching(/^message: /),
      });
    }
    expect(openai.requests.length).toBe(calls);
  });
});
