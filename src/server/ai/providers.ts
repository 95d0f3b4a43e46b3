import { createAnthropic } from '@ai-sdk/anthropic';
import { APICallError, RetryError, generateText } from 'ai';
import type { AiHealth, AiProviderId, AiUsageNumbers } from '../../shared/schemas/ai';
import type { Config } from '../config';
import { AppError } from '../errors';
import {
  OpenAiCompatibleClient,
  ProviderRequestError,
  type ChatRequest,
  type ChatStreamPart,
} from './openai-compatible';

/**
 * The AI providers: OpenAI through Chat Completions, which every OpenAI-compatible server speaks (Ollama,
 * vLLM, llama.cpp, LM Studio…; own undici client, see openai-compatible.ts), and Anthropic Messages through
 * the Vercel AI SDK. Tried in AI_PROVIDER_ORDER;
 * a retryable failure (5xx, 429, network) of one moves on to the next, but only before any token reached
 * the caller, so an answer is never stitched together from two models.
 */

/** Upper bound of one answer's length; also keeps the SDK from guessing a limit for unknown models. */
export const AI_MAX_OUTPUT_TOKENS = 4_096;

// Warnings (e.g. an unknown local model name) are expected with OpenAI-compatible servers; don't print them.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

type AnthropicModel = ReturnType<ReturnType<typeof createAnthropic>['messages']>;
type StreamCallOptions = Parameters<AnthropicModel['doStream']>[0];

/** A provider speaks one wire format; the chain above it handles order, fallback and cancellation. */
export interface AiProvider {
  id: AiProviderId;
  modelId: string;
  generate(request: ChatRequest): Promise<{ text: string; usage: AiUsageNumbers }>;
  stream(request: ChatRequest): AsyncIterable<ChatStreamPart>;
  /** Closes kept-alive connections (server shutdown). */
  close?(): Promise<void>;
}

export interface AiRequest {
  system: string;
  prompt: string;
  signal: AbortSignal;
  maxOutputTokens?: number;
}

export interface AiResult {
  text: string;
  provider: AiProviderId;
  model: string;
  usage: AiUsageNumbers;
}

export type AiStreamChunk = { type: 'delta'; text: string } | ({ type: 'done' } & AiResult);

/** Whether each provider is configured (OpenAI needs a key or a base URL: local servers need no key). */
export function providerHealth(config: Config): AiHealth {
  return {
    openai: Boolean(config.OPENAI_API_KEY || config.OPENAI_BASE_URL),
    anthropic: Boolean(config.ANTHROPIC_API_KEY),
  };
}

export const AI_UNAVAILABLE_MESSAGE =
  'AI is not configured on this server. Set OPENAI_API_KEY (and OPENAI_BASE_URL for an OpenAI-compatible ' +
  'server such as Ollama or vLLM) or ANTHROPIC_API_KEY, then restart Quillwright.';

export function aiUnavailable(): AppError {
  return new AppError(503, 'ai_unavailable', AI_UNAVAILABLE_MESSAGE);
}

const OPENAI_API_URL = 'https://api.openai.com/v1';

function openAiProvider(config: Config): AiProvider {
  const client = new OpenAiCompatibleClient({
    baseUrl: config.OPENAI_BASE_URL ?? OPENAI_API_URL,
    // Local OpenAI-compatible servers usually ignore the key; send a placeholder like the SDKs do.
    apiKey: config.OPENAI_API_KEY ?? 'not-needed',
    model: config.OPENAI_MODEL,
    officialApi: !config.OPENAI_BASE_URL || new URL(config.OPENAI_BASE_URL).hostname === 'api.openai.com',
  });
  return {
    id: 'openai',
    modelId: config.OPENAI_MODEL,
    generate: (request) => client.generate(request),
    stream: (request) => client.stream(request),
    close: () => client.close(),
  };
}

/** Anthropic Messages through the AI SDK's provider model. */
function anthropicProvider(config: Config): AiProvider {
  const model: AnthropicModel = createAnthropic({
    ...(config.ANTHROPIC_BASE_URL ? { baseURL: config.ANTHROPIC_BASE_URL } : {}),
    apiKey: config.ANTHROPIC_API_KEY,
  }).messages(config.ANTHROPIC_MODEL);
  return {
    id: 'anthropic',
    modelId: config.ANTHROPIC_MODEL,
    async generate(request) {
      const result = await generateText({
        model,
        system: request.system,
        prompt: request.prompt,
        abortSignal: request.signal,
        maxRetries: 0,
        maxOutputTokens: request.maxOutputTokens,
      });
      return { text: result.text, usage: usageOf(result.totalUsage) };
    },
    async *stream(request) {
      const options: StreamCallOptions = {
        prompt: [
          { role: 'system', content: request.system },
          { role: 'user', content: [{ type: 'text', text: request.prompt }] },
        ],
        maxOutputTokens: request.maxOutputTokens,
        abortSignal: request.signal,
      };
      // doStream rather than streamText: streamText's extra stream stages double the CPU per answer.
      const reader = (await model.doStream(options)).stream.getReader();
      let finished = false;
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) {
            finished = true;
            return;
          }
          const part = value as StreamPart;
          if (part.type === 'text-delta') {
            if (part.delta) yield { type: 'delta', text: part.delta };
          } else if (part.type === 'finish') {
            yield {
              type: 'finish',
              usage: {
                inputTokens: part.usage.inputTokens.total ?? 0,
                outputTokens: part.usage.outputTokens.total ?? 0,
              },
            };
          } else if (part.type === 'error') {
            throw part.error;
          }
        }
      } finally {
        // Stops the upstream response when we leave early (client gone, error part).
        if (!finished) await reader.cancel().catch(() => {});
      }
    },
  };
}

function buildProvider(config: Config, id: AiProviderId): AiProvider | undefined {
  if (!providerHealth(config)[id]) return undefined;
  return id === 'openai' ? openAiProvider(config) : anthropicProvider(config);
}

function unwrap(error: unknown): unknown {
  return RetryError.isInstance(error) ? error.lastError : error;
}

/** 5xx, 429 and network failures are worth trying on the next provider; 4xx answers are not. */
export function isRetryableProviderError(error: unknown): boolean {
  const inner = unwrap(error);
  if (inner instanceof ProviderRequestError) return inner.retryable;
  if (APICallError.isInstance(inner)) {
    const status = inner.statusCode;
    if (status === undefined) return true;
    return status >= 500 || status === 429 || status === 408 || inner.isRetryable;
  }
  return false;
}

function describe(provider: AiProvider, error: unknown): string {
  const inner = unwrap(error);
  if (inner instanceof ProviderRequestError && inner.statusCode)
    return `${provider.id}: HTTP ${inner.statusCode}`;
  if (APICallError.isInstance(inner) && inner.statusCode) return `${provider.id}: HTTP ${inner.statusCode}`;
  return `${provider.id}: ${inner instanceof Error ? inner.message : String(inner)}`;
}

function providerFailed(details: string[]): AppError {
  return new AppError(502, 'ai_provider_error', `The AI provider could not answer (${details.join('; ')}).`);
}

export class AbortedError extends Error {
  constructor() {
    super('The request was cancelled');
    this.name = 'AbortedError';
  }
}

function usageOf(usage: { inputTokens: number | undefined; outputTokens: number | undefined }) {
  return { inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 };
}

export class AiProviderChain {
  readonly providers: AiProvider[];

  constructor(config: Config) {
    this.providers = config.AI_PROVIDER_ORDER.map((id) => buildProvider(config, id)).filter(
      (p): p is AiProvider => p !== undefined,
    );
  }

  get available(): boolean {
    return this.providers.length > 0;
  }

  async close(): Promise<void> {
    await Promise.all(this.providers.map((provider) => provider.close?.()));
  }

  private chatRequest(request: AiRequest): ChatRequest {
    return {
      system: request.system,
      prompt: request.prompt,
      maxOutputTokens: request.maxOutputTokens ?? AI_MAX_OUTPUT_TOKENS,
      signal: request.signal,
    };
  }

  /** The whole answer at once. */
  async generate(request: AiRequest): Promise<AiResult> {
    if (!this.available) throw aiUnavailable();
    const failures: string[] = [];
    for (const [index, provider] of this.providers.entries()) {
      try {
        const result = await provider.generate(this.chatRequest(request));
        return { text: result.text, provider: provider.id, model: provider.modelId, usage: result.usage };
      } catch (error) {
        if (request.signal.aborted) throw new AbortedError();
        failures.push(describe(provider, error));
        const last = index === this.providers.length - 1;
        if (last || !isRetryableProviderError(error)) throw providerFailed(failures);
      }
    }
    throw providerFailed(failures);
  }

  /** The answer as it is generated; falls back to the next provider only before the first token. */
  async *stream(request: AiRequest): AsyncGenerator<AiStreamChunk> {
    if (!this.available) throw aiUnavailable();
    const failures: string[] = [];
    const chat = this.chatRequest(request);
    for (const [index, provider] of this.providers.entries()) {
      const last = index === this.providers.length - 1;
      let started = false;
      let text = '';
      let usage: AiUsageNumbers = { inputTokens: 0, outputTokens: 0 };
      try {
        for await (const part of provider.stream(chat)) {
          if (part.type === 'delta') {
            started = true;
            text += part.text;
            yield part;
          } else {
            usage = part.usage;
          }
        }
      } catch (error) {
        if (request.signal.aborted) throw new AbortedError();
        failures.push(describe(provider, error));
        if (started || last || !isRetryableProviderError(error)) throw providerFailed(failures);
        continue;
      }
      if (request.signal.aborted) throw new AbortedError();
      yield { type: 'done', text, provider: provider.id, model: provider.modelId, usage };
      return;
    }
    throw providerFailed(failures);
  }
}

/** The stream parts this module reads (AI SDK language-model stream parts, v4). */
type StreamPart =
  | { type: 'text-delta'; delta: string }
  | {
      type: 'finish';
      usage: { inputTokens: { total: number | undefined }; outputTokens: { total: number | undefined } };
    }
  | { type: 'error'; error: unknown }
  | { type: 'other' };
