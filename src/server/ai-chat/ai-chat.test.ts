import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CHAT_SYSTEM_INTRO } from '../../shared/ai/prompts';
import { CHAT_MESSAGE_MAX_CHARS } from '../../shared/constants';
import { connectCollabClient, waitFor } from '../collab/testing';
import { aiChatMessages, documents } from '../db/schema';
import { openAiSystemPrompt, openAiUserPrompt } from '../test/fake-openai';
import { serverWithFakeOpenAI } from '../test/fake-openai-server';
import type { TestUser } from '../test/factories';
import { streamRequest } from '../test/sse';

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });

describe('chat with the document', () => {
  const ai = serverWithFakeOpenAI();

  async function createDocument(user: TestUser, texts: string[]): Promise<string> {
    const [row] = await ai.server.database.db
      .insert(documents)
      .values({
        userId: user.id,
        title: 'Garden notes',
        content: { type: 'doc', content: texts.map(paragraph) },
      })
      .returning({ id: documents.id });
    return row!.id;
  }

  const ask = (documentId: string, message: string, token = ai.writer.token) =>
    streamRequest(ai.server, `/api/ai/chat/${documentId}`, token, { message });

  const lastPrompt = () => ai.openai.requests.filter((r) => r.method === 'POST').at(-1)!.body;

  it('streams an answer about the document and keeps both messages', async () => {
    const id = await createDocument(ai.writer, ['Roses need sun.', 'Tomatoes need water every day.']);
    ai.openai.answerWith(() => ['The **weakest** ', 'point is the tomatoes.']);
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

    const listed = await ai.server.request('GET', `/api/ai/chat/${id}`, { token: ai.writer.token });
    expect(listed.status).toBe(200);
    expect(listed.body.messages.map((m: { role: string; id: string }) => [m.role, m.id])).toEqual([
      ['user', done.question.id],
      ['assistant', done.answer.id],
    ]);

    // The next question carries the conversation so far.
    ai.openai.answerWith(() => ['Yes.']);
    await ask(id, 'Are you sure?');
    expect(openAiUserPrompt(lastPrompt())).toContain('Assistant: The **weakest** point is the tomatoes.');
  });

  it('a change request comes back as validated edits; malformed ones are dropped without a 500', async () => {
    const id = await createDocument(ai.writer, ['Intro stays.', 'This paragraph is far too long and wordy.']);
    ai.openai.answerWith(() => [
      'I shortened the second paragraph.\n\n```edits\n',
      '[{"find": "far too long and wordy", "replace": "short"}, {"find": 3}, {"replace": "x"}, "nope"]\n```',
    ]);
    const { status, events } = await ask(id, 'Shorten the second paragraph');
    expect(status).toBe(200);
    const done = events.find((e) => e.event === 'done')!.data;
    expect(done.answer.content).toBe('I shortened the second paragraph.');
    expect(done.answer.edits).toEqual([{ find: 'far too long and wordy', replace: 'short' }]);

    ai.openai.answerWith(() => ['Here you go.\n\n```edits\n{not json at all', '\n```']);
    const broken = await ask(id, 'Shorten it more');
    expect(broken.status).toBe(200);
    const brokenDone = broken.events.find((e) => e.event === 'done')!.data;
    expect(brokenDone.answer).toMatchObject({ content: 'Here you go.', edits: [] });

    const rows = await ai.server.database.db
      .select()
      .from(aiChatMessages)
      .where(eq(aiChatMessages.documentId, id));
    expect(rows).toHaveLength(4);
    const listed = await ai.server.request('GET', `/api/ai/chat/${id}`, { token: ai.writer.token });
    expect(listed.body.messages[1].edits).toEqual([{ find: 'far too long and wordy', replace: 'short' }]);
  });

  it('reads the document as it is live, before the store debounce has written it', async () => {
    const id = await createDocument(ai.writer, ['Stored paragraph.']);
    const client = await connectCollabClient({
      serverUrl: ai.server.url,
      documentId: id,
      token: ai.writer.token,
    });
    try {
      client.appendParagraph('Typed a moment ago.');
      await waitFor(() =>
        JSON.stringify(ai.server.app.liveDocuments.currentContent(id) ?? {}).includes('Typed a moment ago.'),
      );
      ai.openai.answerWith(() => ['Seen.']);
      await ask(id, 'What did I just type?');
      expect(openAiUserPrompt(lastPrompt())).toContain('[2] Typed a moment ago.');
    } finally {
      client.destroy();
    }
  });

  it('keeps hostile Markdown as the model wrote it (the client renders it sanitized)', async () => {
    const id = await createDocument(ai.writer, ['Text.']);
    const hostile = '[click](javascript:alert(1)) <script>alert(2)</script>';
    ai.openai.answerWith(() => [hostile]);
    const { events } = await ask(id, 'Say something');
    expect(events.find((e) => e.event === 'done')!.data.answer.content).toBe(hostile);
  });

  it('is the owner’s alone: another writer gets 404, their own conversation stays separate', async () => {
    const id = await createDocument(ai.writer, ['Private text.']);
    ai.openai.answerWith(() => ['Answer.']);
    await ask(id, 'Question?');
    for (const [method, path] of [
      ['GET', `/api/ai/chat/${id}`],
      ['DELETE', `/api/ai/chat/${id}`],
    ] as const) {
      const res = await ai.server.request(method, path, { token: ai.other.token });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found' });
    }
    const asked = await ask(id, 'Show me', ai.other.token);
    expect(asked.status).toBe(404);
    expect((await ai.server.request('GET', `/api/ai/chat/${id}`)).status).toBe(401);
    expect(
      (await ai.server.request('GET', '/api/ai/chat/not-a-uuid', { token: ai.writer.token })).status,
    ).toBe(404);
    const mine = await ai.server.request('GET', `/api/ai/chat/${id}`, { token: ai.writer.token });
    expect(mine.body.messages).toHaveLength(2);
  });

  it('clears the conversation (204), and it goes with the document', async () => {
    const id = await createDocument(ai.writer, ['Some text.']);
    ai.openai.answerWith(() => ['Answer.']);
    await ask(id, 'Question?');
    expect((await ai.server.request('DELETE', `/api/ai/chat/${id}`, { token: ai.writer.token })).status).toBe(
      204,
    );
    const after = await ai.server.request('GET', `/api/ai/chat/${id}`, { token: ai.writer.token });
    expect(after.body.messages).toEqual([]);

    await ask(id, 'Again?');
    await ai.server.database.db.delete(documents).where(eq(documents.id, id));
    const rows = await ai.server.database.db
      .select()
      .from(aiChatMessages)
      .where(eq(aiChatMessages.documentId, id));
    expect(rows).toEqual([]);
  });

  it('refuses an empty or too long message with 400 { message, code }', async () => {
    const id = await createDocument(ai.writer, ['Text.']);
    const calls = ai.openai.requests.length;
    for (const message of ['   ', 'x'.repeat(CHAT_MESSAGE_MAX_CHARS + 1)]) {
      const res = await ask(id, message);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({
        code: 'validation_failed',
        message: expect.stringMatching(/^message: /),
      });
    }
    expect(ai.openai.requests.length).toBe(calls);
  });
});
