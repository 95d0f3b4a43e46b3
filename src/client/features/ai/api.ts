import type {
  AiGenerationMeta,
  AiSuggestion,
  AiUsageSummary,
  AnalysisResponse,
  GrammarResponse,
} from '@shared/schemas/ai';
import { ApiError, apiRequest, authorizedFetch, toApiError } from '@client/lib/api';
import { SseParser } from './sse';

/** Plain fetchers for /api/ai (docs/ai.md). */

export type StreamingEndpoint =
  | 'complete'
  | 'improve'
  | 'rewrite'
  | 'tone'
  | 'summarize'
  | 'outline'
  /** A writer's own command (features/ai-commands). */
  | `commands/${string}/run`
  /** Chat with the document (features/ai-chat). */
  | `chat/${string}`;

export interface StreamResult extends AiGenerationMeta {
  text: string;
  /** The suggestion the server kept for an answer about a document (its decision is recorded with it). */
  suggestionId?: string;
}

export const aiApi = {
  usage: () => apiRequest<AiUsageSummary>('GET', '/api/ai/usage'),
  grammar: (text: string) => apiRequest<GrammarResponse>('POST', '/api/ai/grammar', { text }),
  analyze: (text: string) =>
    apiRequest<AnalysisResponse>('POST', '/api/ai/analyze', { text, type: 'content_analysis' }),
  alternatives: (text: string, count?: number, documentId?: string) =>
    apiRequest<{ alternatives: string[] }>('POST', '/api/ai/alternatives', { text, count, documentId }),
  rewritingSuggestions: (text: string) =>
    apiRequest<{ suggestions: { suggestion: string }[] }>('POST', '/api/ai/suggestions', {
      text,
      type: 'rewriting',
    }),
  decideSuggestion: (id: string, accepted: boolean) =>
    apiRequest<AiSuggestion>('PUT', `/api/ai/suggestions/${id}`, { accepted }),
};

/**
 * Streams an AI answer: `onDelta` receives each piece as it arrives and the promise resolves with the whole
 * answer. Aborting `signal` cancels the request (the server then cancels its provider call). Errors are
 * ApiError, with the server's `{ message, code }` (503 ai_unavailable, 402 quota_exceeded, …).
 */
export async function streamAi(
  endpoint: StreamingEndpoint,
  body: Record<string, unknown>,
  options: { signal: AbortSignal; onDelta?: (delta: string, textSoFar: string) => void },
): Promise<StreamResult> {
  const response = await authorizedFetch('POST', `/api/ai/${endpoint}`, {
    body,
    accept: 'text/event-stream',
    signal: options.signal,
  });
  if (!response.ok) throw await toApiError(response);
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream') || !response.body) {
    // A server that answered JSON anyway: take the first string field as the answer.
    const json = (await response.json()) as Record<string, unknown>;
    const text = Object.values(json).find((v): v is string => typeof v === 'string') ?? '';
    options.onDelta?.(text, text);
    return { text, provider: 'openai', model: '', usage: { inputTokens: 0, outputTokens: 0 } };
  }
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (const message of parser.push(decoder.decode(value, { stream: true }))) {
      const data = JSON.parse(message.data) as Record<string, unknown>;
      if (message.event === 'done') return data as unknown as StreamResult;
      if (message.event === 'error') {
        throw new ApiError(502, message.data, data);
      }
      if (typeof data.delta === 'string') {
        text += data.delta;
        options.onDelta?.(data.delta, text);
      }
    }
  }
  throw new ApiError(502, 'The AI answer ended unexpectedly.', {
    message: 'The AI answer ended unexpectedly.',
    code: 'ai_stream_failed',
  });
}
