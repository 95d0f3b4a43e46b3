import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Dispatcher } from 'undici';
import type { AiUsageNumbers } from '../../shared/schemas/ai';
import { OUTBOUND_GENERATION_TIMEOUT_MS, OutboundClient, type OutboundPolicy } from '../outbound';

/**
 * Chat Completions, the wire format of OpenAI and of every OpenAI-compatible server (Ollama, vLLM,
 * llama.cpp, LM Studio…), over undici's Node-stream client. This path carries every streamed token of every
 * writer; the AI SDK's web-stream pipeline (fetch → TextDecoderStream → SSE parser stream → JSON schema
 * validation → part transform) cost about six times the CPU per answer, which under concurrent streams
 * turned into queueing before the first token (docs/architecture.md, bench:ai). Anthropic stays on the SDK.
 */

export interface OpenAiCompatibleOptions {
  /** Up to and including the version segment, e.g. https://api.openai.com/v1 or http://localhost:11434/v1. */
  baseUrl: string;
  /** Sent as a bearer token; without one no Authorization header is sent (local servers need none). */
  apiKey: string | undefined;
  model: string;
  /**
   * api.openai.com takes `max_completion_tokens` (its reasoning models refuse `max_tokens`); compatible
   * servers have long understood `max_tokens`, and not all of them know the newer name.
   */
  officialApi: boolean;
  /** Which addresses the client may connect to (src/server/outbound). */
  policy: OutboundPolicy;
}

export interface ChatRequest {
  system: string;
  prompt: string;
  maxOutputTokens: number;
  signal: AbortSignal;
}

export type ChatStreamPart = { type: 'delta'; text: string } | { type: 'finish'; usage: AiUsageNumbers };

/** A provider answered with an error status, sent an error event, or could not be reached. */
export class ProviderRequestError extends Error {
  constructor(
    message: string,
    /** HTTP status; undefined when the server could not be reached or the connection broke. */
    readonly statusCode: number | undefined,
    readonly retryable: boolean,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ProviderRequestError';
  }
}

const RETRYABLE_STATUS = (status: number) => status >= 500 || status === 429 || status === 408;

interface ChatChunk {
  choices?: { delta?: { content?: string | null } | null }[];
  usage?: ChatUsage | null;
  error?: { message?: string };
}
interface ChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
}
interface ChatCompletion {
  choices?: { message?: { content?: string | null } }[];
  usage?: ChatUsage | null;
}

const usageOf = (usage: ChatUsage | null | undefined): AiUsageNumbers => ({
  inputTokens: usage?.prompt_tokens ?? 0,
  outputTokens: usage?.completion_tokens ?? 0,
});

/** The provider's own error message from an error body, if it has the usual `{ error: { message } }`. */
function errorMessage(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const message =
      typeof parsed.error === 'string'
        ? parsed.error
        : typeof parsed.error?.message === 'string'
          ? parsed.error.message
          : typeof parsed.message === 'string'
            ? parsed.message
            : undefined;
    if (message) return `HTTP ${status}: ${message}`;
  } catch {
    // Not JSON: the status says enough.
  }
  return `HTTP ${status}`;
}

export class OpenAiCompatibleClient {
  private readonly url: string;
  private readonly headers: Record<string, string>;
  /**
   * Keeps connections to the provider open between answers, as a browser would, through the outbound guard
   * (undici is loaded with the first answer: a server nobody asks for AI never holds it).
   */
  private readonly client: OutboundClient;

  constructor(private readonly options: OpenAiCompatibleOptions) {
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.headers = {
      'content-type': 'application/json',
      ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
    };
    this.client = new OutboundClient(options.policy);
  }

  get model(): string {
    return this.options.model;
  }

  private body(request: ChatRequest, stream: boolean): string {
    return JSON.stringify({
      model: this.options.model,
      messages: [
        { role: 'system', content: request.system },
        { role: 'user', content: request.prompt },
      ],
      [this.options.officialApi ? 'max_completion_tokens' : 'max_tokens']: request.maxOutputTokens,
      stream,
      ...(stream ? { stream_options: { include_usage: true } } : {}),
    });
  }

  private async post(request: ChatRequest, stream: boolean): Promise<Dispatcher.ResponseData> {
    let response: Dispatcher.ResponseData;
    try {
      response = await this.client.request(this.url, {
        method: 'POST',
        headers: { ...this.headers, accept: stream ? 'text/event-stream' : 'application/json' },
        body: this.body(request, stream),
        signal: request.signal,
        timeoutMs: OUTBOUND_GENERATION_TIMEOUT_MS,
      });
    } catch (error) {
      if (request.signal.aborted) throw error;
      // A refused address or a redirect will not change on the next provider's turn, but another provider
      // may well answer: retryable like any network failure. The cause keeps the guard's reason.
      throw new ProviderRequestError(
        error instanceof Error ? error.message : String(error),
        undefined,
        true,
        {
          cause: error,
        },
      );
    }
    if (response.statusCode >= 300) {
      const text = await response.body.text().catch(() => '');
      throw new ProviderRequestError(
        errorMessage(response.statusCode, text),
        response.statusCode,
        RETRYABLE_STATUS(response.statusCode),
      );
    }
    return response;
  }

  async generate(request: ChatRequest): Promise<{ text: string; usage: AiUsageNumbers }> {
    const response = await this.post(request, false);
    let completion: ChatCompletion;
    try {
      completion = (await response.body.json()) as ChatCompletion;
    } catch (error) {
      if (request.signal.aborted) throw error;
      throw new ProviderRequestError('The provider sent an answer that is not JSON', undefined, false);
    }
    return { text: completion.choices?.[0]?.message?.content ?? '', usage: usageOf(completion.usage) };
  }

  /** Text deltas as they arrive, then one finish part with the usage the server reported. */
  async *stream(request: ChatRequest): AsyncGenerator<ChatStreamPart> {
    const response = await this.post(request, true);
    const body = response.body;
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (event) => events.push(event) });
    const decoder = new TextDecoder();
    let usage: AiUsageNumbers = { inputTokens: 0, outputTokens: 0 };
    let done = false;
    let drained = false;
    try {
      // Read to the end of the body even after [DONE]: leaving the iterator early destroys the response,
      // and with it the kept-alive connection the next answer would reuse.
      for await (const bytes of body) {
        if (done) continue;
        parser.feed(decoder.decode(bytes as Buffer, { stream: true }));
        for (const event of events) {
          if (event.data === '[DONE]') {
            done = true;
            break;
          }
          const chunk = JSON.parse(event.data) as ChatChunk;
          if (chunk.error) {
            throw new ProviderRequestError(
              chunk.error.message ?? 'The provider reported an error',
              undefined,
              false,
            );
          }
          if (chunk.usage) usage = usageOf(chunk.usage);
          const text = chunk.choices?.[0]?.delta?.content;
          if (text) yield { type: 'delta', text };
        }
        events.length = 0;
      }
      drained = true;
    } catch (error) {
      if (request.signal.aborted || error instanceof ProviderRequestError) throw error;
      throw new ProviderRequestError(
        error instanceof SyntaxError
          ? 'The provider sent a stream event that is not JSON'
          : `The provider's stream broke off (${error instanceof Error ? error.message : String(error)})`,
        undefined,
        !(error instanceof SyntaxError),
      );
    } finally {
      // Leaving early (client gone, error) must stop the upstream generation, not just stop reading it.
      if (!drained) body.destroy();
    }
    yield { type: 'finish', usage };
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
