import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, RetryError, generateText } from 'ai';
import type { AiHealth, AiProviderId, AiUsageNumbers } from '../../shared/schemas/ai';
import type { Config } from '../config';
import { AppError } from '../errors';

/**
 * Provider adapters over the Vercel AI SDK: OpenAI through Chat Completions (which every OpenAI-compatible
 * server speaks: Ollama, vLLM, llama.cpp, LM Studio…) and Anthropic Messages. Tried in AI_PROVIDER_ORDER;
 * a retryable failure (5xx, 429, network) of one moves on to the next, but only before any token reached
 * the caller, so an answer is never stitched together from two models.
 */

/** Upper bound of one answer's length; also keeps the SDK from guessing a limit for unknown models. */
export const AI_MAX_OUTPUT_TOKENS = 4_096;

// Warnings (e.g. an unknown local model name) are expected with OpenAI-compatible servers; don't print them.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/** Both providers' language models (AI SDK language-model specification v4). */
type ProviderModel =
  | ReturnType<ReturnType<typeof createOpenAI>['chat']>
  | ReturnType<ReturnType<typeof createAnthropic>['messages']>;
type StreamCallOptions = Parameters<ProviderModel['doStream']>[0];

export interface AiProvider {
  id: AiProviderId;
  modelId: string;
  model: ProviderModel;
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

function buildProvider(config: Config, id: AiProviderId): AiProvider | undefined {
  if (!providerHealth(config)[id]) return undefined;
  if (id === 'openai') {
    const openai = createOpenAI({
      ...(config.OPENAI_BASE_URL ? { baseURL: config.OPENAI_BASE_URL } : {}),
      // Local OpenAI-compatible servers usually ignore the key, but the SDK insists on one.
      apiKey: config.OPENAI_API_KEY ?? 'not-needed',
    });
    return { id, modelId: config.OPENAI_MODEL, model: openai.chat(config.OPENAI_MODEL) };
  }
  const anthropic = createAnthropic({
    ...(config.ANTHROPIC_BASE_URL ? { baseURL: config.ANTHROPIC_BASE_URL } : {}),
    apiKey: config.ANTHROPIC_API_KEY,
  });
  return { id, modelId: config.ANTHROPIC_MODEL, model: anthropic.messages(config.ANTHROPIC_MODEL) };
}

function unwrap(error: unknown): unknown {
  return RetryError.isInstance(error) ? error.lastError : error;
}

/** 5xx, 429 and network failures are worth trying on the next provider; 4xx answers are not. */
export function isRetryableProviderError(error: unknown): boolean {
  const inner = unwrap(error);
  if (APICallError.isInstance(inner)) {
    const status = inner.statusCode;
    if (status === undefined) return true;
    return status >= 500 || status === 429 || status === 408 || inner.isRetryable;
  }
  return false;
}

function describe(provider: AiProvider, error: unknown): string {
  const inner = unwrap(error);
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

  /** The whole answer at once. */
  async generate(request: AiRequest): Promise<AiResult> {
    if (!this.available) throw aiUnavailable();
    const failures: string[] = [];
    for (const [index, provider] of this.providers.entries()) {
      try {
        const result = await generateText({
          model: provider.model,
          system: request.system,
          prompt: request.prompt,
          abortSignal: request.signal,
          maxRetries: 0,
          maxOutputTokens: request.maxOutputTokens ?? AI_MAX_OUTPUT_TOKENS,
        });
        return {
          text: result.text,
          provider: provider.id,
          model: provider.modelId,
          usage: usageOf(result.totalUsage),
        };
      } catch (error) {
        if (request.signal.aborted) throw new AbortedError();
        failures.push(describe(provider, error));
        const last = index === this.providers.length - 1;
        if (last || !isRetryableProviderError(error)) throw providerFailed(failures);
      }
    }
    throw providerFailed(failures);
  }

  /**
   * The answer as it is generated; falls back to the next provider only before the first token. Streams
   * straight from the provider model (`doStream`) rather than through `streamText`: this path runs per token
   * for every writer, and skipping streamText's extra stream stages halves the SDK's CPU cost per answer.
   */
  async *stream(request: AiRequest): AsyncGenerator<AiStreamChunk> {
    if (!this.available) throw aiUnavailable();
    const failures: string[] = [];
    const options: StreamCallOptions = {
      prompt: [
        { role: 'system', content: request.system },
        { role: 'user', content: [{ type: 'text', text: request.prompt }] },
      ],
      maxOutputTokens: request.maxOutputTokens ?? AI_MAX_OUTPUT_TOKENS,
      abortSignal: request.signal,
    };
    for (const [index, provider] of this.providers.entries()) {
      const last = index === this.providers.length - 1;
      let reader: ReadableStreamDefaultReader<unknown> | undefined;
      try {
        const result = await provider.model.doStream(options);
        reader = (result.stream as ReadableStream<unknown>).getReader();
      } catch (error) {
        if (request.signal.aborted) throw new AbortedError();
        failures.push(describe(provider, error));
        if (last || !isRetryableProviderError(error)) throw providerFailed(failures);
        continue;
      }
      let started = false;
      let text = '';
      let usage: AiUsageNumbers = { inputTokens: 0, outputTokens: 0 };
      let failure: unknown;
      let finished = false;
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) {
            finished = true;
            break;
          }
          const part = value as StreamPart;
          if (part.type === 'text-delta') {
            if (!part.delta) continue;
            started = true;
            text += part.delta;
            yield { type: 'delta', text: part.delta };
          } else if (part.type === 'finish') {
            usage = {
              inputTokens: part.usage.inputTokens.total ?? 0,
              outputTokens: part.usage.outputTokens.total ?? 0,
            };
          } else if (part.type === 'error') {
            failure = part.error;
            break;
          }
        }
      } catch (error) {
        failure = error;
      } finally {
        // Stops the upstream response when we leave early (client gone, error part).
        if (!finished) await reader.cancel().catch(() => {});
      }
      if (request.signal.aborted) throw new AbortedError();
      if (failure === undefined) {
        yield { type: 'done', text, provider: provider.id, model: provider.modelId, usage };
        return;
      }
      failures.push(describe(provider, failure));
      if (started || last || !isRetryableProviderError(failure)) throw providerFailed(failures);
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
