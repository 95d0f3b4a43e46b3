import {
  sseFrame,
  startFakeProvider,
  type FakeProvider,
  type TokenSchedule,
  type WireFormat,
} from './fake-provider';

/**
 * A fake Anthropic Messages server on loopback: POST /v1/messages, streaming (message_start,
 * content_block_delta…, message_delta with usage, message_stop) and not. Point ANTHROPIC_BASE_URL at `baseUrl`.
 */
const anthropicFormat: WireFormat = {
  path: '/messages',
  isStreaming: (body) => body?.stream === true,
  errorBody: (status) => ({
    type: 'error',
    error: {
      type: status === 529 || status === 503 ? 'overloaded_error' : 'api_error',
      message: `fake upstream error ${status}`,
    },
  }),
  complete: (body, text, s) => ({
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model: body?.model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: s.inputTokens, output_tokens: s.outputTokens },
  }),
  streamStart: (body, s) => [
    sseFrame(
      {
        type: 'message_start',
        message: {
          id: 'msg_fake',
          type: 'message',
          role: 'assistant',
          model: body?.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: s.inputTokens, output_tokens: 1 },
        },
      },
      'message_start',
    ),
    sseFrame(
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      'content_block_start',
    ),
  ],
  streamChunk: (_body, token) =>
    sseFrame(
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: token } },
      'content_block_delta',
    ),
  streamEnd: (_body, s) => [
    sseFrame({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
    sseFrame(
      {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: s.outputTokens },
      },
      'message_delta',
    ),
    sseFrame({ type: 'message_stop' }, 'message_stop'),
  ],
};

export function startFakeAnthropic(schedule: Partial<TokenSchedule> = {}): Promise<FakeProvider> {
  return startFakeProvider(anthropicFormat, schedule);
}

/** The text of the user message(s) of a Messages request. */
export function anthropicUserPrompt(body: any): string {
  const messages: { role: string; content: unknown }[] = body?.messages ?? [];
  return messages
    .filter((m) => m.role === 'user')
    .map((m) =>
      typeof m.content === 'string'
        ? m.content
        : (m.content as { type: string; text?: string }[]).map((p) => p.text ?? '').join(''),
    )
    .join('\n');
}
