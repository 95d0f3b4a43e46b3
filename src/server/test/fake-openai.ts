import {
  sseFrame,
  startFakeProvider,
  type FakeProvider,
  type TokenSchedule,
  type WireFormat,
} from './fake-provider';

/**
 * A fake OpenAI-compatible server on loopback: POST /v1/chat/completions, streaming (chat.completion.chunk
 * SSE ending with `data: [DONE]`, usage in the last chunk) and not, with usage numbers. Point
 * OPENAI_BASE_URL at `baseUrl`.
 */
const created = () => Math.floor(Date.now() / 1000);

const openAiFormat: WireFormat = {
  path: '/chat/completions',
  isStreaming: (body) => body?.stream === true,
  errorBody: (status) => ({
    error: {
      message: `fake upstream error ${status}`,
      type: status >= 500 ? 'server_error' : 'invalid_request_error',
    },
  }),
  complete: (body, text, s) => ({
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: created(),
    model: body?.model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: s.inputTokens,
      completion_tokens: s.outputTokens,
      total_tokens: s.inputTokens + s.outputTokens,
    },
  }),
  streamStart: (body) => [
    sseFrame({
      id: 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      created: created(),
      model: body?.model,
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
    }),
  ],
  streamChunk: (body, token) =>
    sseFrame({
      id: 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      created: created(),
      model: body?.model,
      choices: [{ index: 0, delta: { content: token }, finish_reason: null }],
    }),
  streamEnd: (body, s) => [
    sseFrame({
      id: 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      created: created(),
      model: body?.model,
      choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
    }),
    sseFrame({
      id: 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      created: created(),
      model: body?.model,
      choices: [],
      usage: {
        prompt_tokens: s.inputTokens,
        completion_tokens: s.outputTokens,
        total_tokens: s.inputTokens + s.outputTokens,
      },
    }),
    sseFrame('[DONE]'),
  ],
};

export function startFakeOpenAI(schedule: Partial<TokenSchedule> = {}): Promise<FakeProvider> {
  return startFakeProvider(openAiFormat, schedule);
}

/** Server settings that make the fake the configured OpenAI provider. */
export function fakeOpenAiEnv(openai: FakeProvider): Record<string, string> {
  return { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: openai.baseUrl, OPENAI_MODEL: 'fake-gpt' };
}

/** The text of the user message a chat request carried. */
export function openAiUserPrompt(body: any): string {
  const messages: { role: string; content: unknown }[] = body?.messages ?? [];
  return messages
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');
}

export function openAiSystemPrompt(body: any): string {
  const messages: { role: string; content: unknown }[] = body?.messages ?? [];
  return messages
    .filter((m) => m.role === 'system')
    .map((m) => String(m.content))
    .join('\n');
}
