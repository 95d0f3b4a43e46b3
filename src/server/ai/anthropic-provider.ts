import { createAnthropic } from '@ai-sdk/anthropic';
import { APICallError, RetryError, generateText } from 'ai';
import { OUTBOUND_GENERATION_TIMEOUT_MS, type OutboundClient } from '../outbound';
import { ANTHROPIC_API_URL, type AiProvider, type ProviderSpec } from './providers';

// Warnings (e.g. an unknown local model name) are expected with OpenAI-compatible servers; don't print them.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

type AnthropicModel = ReturnType<ReturnType<typeof createAnthropic>['messages']>;
type StreamCallOptions = Parameters<AnthropicModel['doStream']>[0];

/** The stream parts this module reads (AI SDK language-model stream parts, v4). */
type StreamPart =
  | { type: 'text-delta'; delta: string }
  | {
      type: 'finish';
      usage: { inputTokens: { total: number | undefined }; outputTokens: { total: number | undefined } };
    }
  | { type: 'error'; error: unknown }
  | { type: 'other' };

function usageOf(usage: { inputTokens: number | undefined; outputTokens: number | undefined }) {
  return { inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 };
}

/** The SDK's error behind its retry wrapper. */
export function unwrapSdkError(error: unknown): unknown {
  return RetryError.isInstance(error) ? error.lastError : error;
}

export function isApiCallError(error: unknown): error is APICallError {
  return APICallError.isInstance(error);
}

/** Anthropic Messages through the AI SDK's provider model; its requests go through the outbound guard. */
export function anthropicProvider(spec: ProviderSpec, outbound: OutboundClient): AiProvider {
  const model: AnthropicModel = createAnthropic({
    // Both given explicitly: left undefined, the SDK would read ANTHROPIC_BASE_URL / ANTHROPIC_API_KEY from
    // the environment, and an in-app provider without a key would send the environment's key to its host.
    baseURL: spec.baseUrl ?? ANTHROPIC_API_URL,
    apiKey: spec.apiKey ?? '',
    fetch: (input, init) => outbound.fetch(input, { ...init, timeoutMs: OUTBOUND_GENERATION_TIMEOUT_MS }),
  }).messages(spec.model);
  return {
    id: 'anthropic',
    instanceId: spec.instanceId,
    modelId: spec.model,
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
