import type { AiHealth, AiProviderId, AiUsageNumbers } from '../../shared/schemas/ai';
import type { Config } from '../config';
import { AppError } from '../errors';
import type { AiCallOutcome } from '../metrics';
import { OutboundClient, outboundFailureMessage, type OutboundPolicy } from '../outbound';
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
const AI_MAX_OUTPUT_TOKENS = 4_096;

/** A provider speaks one wire format; the chain above it handles order, fallback and cancellation. */
export interface AiProvider {
  /** The wire family reported with each answer (`provider` in the response and the usage ledger). */
  id: AiProviderId;
  /** This provider's identity: `env-openai`, `env-anthropic`, or the id of an in-app setting. */
  instanceId: string;
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
export function providerHealth(config: Config): Pick<AiHealth, 'openai' | 'anthropic'> {
  return {
    openai: Boolean(config.OPENAI_API_KEY || config.OPENAI_BASE_URL),
    anthropic: Boolean(config.ANTHROPIC_API_KEY),
  };
}

const AI_UNAVAILABLE_MESSAGE =
  'AI is not configured on this server. An administrator can add a provider in Account settings → AI, or set ' +
  'OPENAI_API_KEY (and OPENAI_BASE_URL for an OpenAI-compatible server such as Ollama or vLLM) or ' +
  'ANTHROPIC_API_KEY and restart Quillwright.';

/** What a writer sees when every provider failed; the details go to the server log and the admin's page. */
export const AI_PROVIDER_FAILED_MESSAGE = 'The AI provider did not answer. Try again in a moment.';

function aiUnavailable(): AppError {
  return new AppError(503, 'ai_unavailable', AI_UNAVAILABLE_MESSAGE);
}

export const OPENAI_API_URL = 'https://api.openai.com/v1';
export const ANTHROPIC_API_URL = 'https://api.anthropic.com/v1';

/** Where and how to reach one provider, from the environment or from the AI settings. */
export interface ProviderSpec {
  instanceId: string;
  kind: 'openai-compatible' | 'anthropic';
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  model: string;
}

function openAiProvider(spec: ProviderSpec, policy: OutboundPolicy): AiProvider {
  const client = new OpenAiCompatibleClient({
    baseUrl: spec.baseUrl ?? OPENAI_API_URL,
    // Local OpenAI-compatible servers need no key: then no Authorization header is sent at all.
    apiKey: spec.apiKey,
    model: spec.model,
    officialApi: !spec.baseUrl || new URL(spec.baseUrl).hostname === 'api.openai.com',
    policy,
  });
  return {
    id: 'openai',
    instanceId: spec.instanceId,
    modelId: spec.model,
    generate: (request) => client.generate(request),
    stream: (request) => client.stream(request),
    close: () => client.close(),
  };
}

/**
 * Anthropic Messages through the AI SDK, loaded with the first Anthropic call: a server that never uses
 * Anthropic never holds the SDK. Errors of its calls are recognised by the loaded module (below).
 */
let anthropicSdk: typeof import('./anthropic-provider') | undefined;
async function loadAnthropic(): Promise<typeof import('./anthropic-provider')> {
  anthropicSdk ??= await import('./anthropic-provider');
  return anthropicSdk;
}

function anthropicProvider(spec: ProviderSpec, policy: OutboundPolicy): AiProvider {
  let provider: Promise<AiProvider> | undefined;
  const outbound = new OutboundClient(policy);
  const loaded = () => (provider ??= loadAnthropic().then((sdk) => sdk.anthropicProvider(spec, outbound)));
  return {
    id: 'anthropic',
    instanceId: spec.instanceId,
    modelId: spec.model,
    generate: async (request) => (await loaded()).generate(request),
    async *stream(request) {
      yield* (await loaded()).stream(request);
    },
    close: () => outbound.close(),
  };
}

/** A provider whose every request goes through the outbound guard with `policy`. */
export function buildProvider(spec: ProviderSpec, policy: OutboundPolicy): AiProvider {
  return spec.kind === 'openai-compatible' ? openAiProvider(spec, policy) : anthropicProvider(spec, policy);
}

/** The providers configured through environment variables, in AI_PROVIDER_ORDER. */
export function envProviderSpecs(config: Config): ProviderSpec[] {
  const configured = providerHealth(config);
  return config.AI_PROVIDER_ORDER.filter((id) => configured[id]).map((id) =>
    id === 'openai'
      ? {
          instanceId: 'env-openai',
          kind: 'openai-compatible' as const,
          baseUrl: config.OPENAI_BASE_URL,
          apiKey: config.OPENAI_API_KEY,
          model: config.OPENAI_MODEL,
        }
      : {
          instanceId: 'env-anthropic',
          kind: 'anthropic' as const,
          baseUrl: config.ANTHROPIC_BASE_URL,
          apiKey: config.ANTHROPIC_API_KEY,
          model: config.ANTHROPIC_MODEL,
        },
  );
}

function unwrap(error: unknown): unknown {
  return anthropicSdk ? anthropicSdk.unwrapSdkError(error) : error;
}

/** 5xx, 429 and network failures are worth trying on the next provider; 4xx answers are not. */
function isRetryableProviderError(error: unknown): boolean {
  const inner = unwrap(error);
  if (inner instanceof ProviderRequestError) return inner.retryable;
  if (anthropicSdk?.isApiCallError(inner)) {
    const status = inner.statusCode;
    if (status === undefined) return true;
    return status >= 500 || status === 429 || status === 408 || inner.isRetryable;
  }
  return false;
}

function statusOf(inner: unknown): number | undefined {
  if (inner instanceof ProviderRequestError) return inner.statusCode;
  if (anthropicSdk?.isApiCallError(inner)) return inner.statusCode;
  return undefined;
}

/** One provider's failure in words, for the server log only (it may quote the remote side). */
export function describeProviderError(error: unknown): string {
  const inner = unwrap(error);
  const status = statusOf(inner);
  if (status) return `HTTP ${status}`;
  return inner instanceof Error ? inner.message : String(inner);
}

/**
 * One provider's failure as the admin's settings page shows it: the HTTP status, or one of the outbound
 * guard's fixed sentences. Never the remote side's words, and the same sentence for a closed port, a port
 * that does not speak HTTP and a timeout, so the page cannot be used to look around the server's network.
 */
export function providerFailureMessage(error: unknown): string {
  const inner = unwrap(error);
  const status = statusOf(inner);
  if (status) return `HTTP ${status}`;
  return outboundFailureMessage(inner);
}

/** Told about every call's outcome (reachability for GET /api/ai/health and the admin page). */
export interface ProviderObserver {
  succeeded(provider: AiProvider, latencyMs: number): void;
  failed(provider: AiProvider, detail: string): void;
}

function providerFailed(details: string[], log: ChainLog | undefined): AppError {
  log?.warn({ providers: details }, 'AI provider call failed');
  return new AppError(502, 'ai_provider_error', AI_PROVIDER_FAILED_MESSAGE);
}

interface ChainLog {
  warn(obj: object, msg: string): void;
}

export class AbortedError extends Error {
  constructor() {
    super('The request was cancelled');
    this.name = 'AbortedError';
  }
}

/** Counts how each provider call ended (the server's metrics). */
export interface AiCallRecorder {
  aiCall(provider: string, outcome: AiCallOutcome): void;
}

export class AiProviderChain {
  constructor(
    readonly providers: AiProvider[],
    private readonly observer?: ProviderObserver,
    private readonly log?: ChainLog,
    private readonly calls?: AiCallRecorder,
  ) {}

  private fail(provider: AiProvider, error: unknown, failures: string[]): void {
    failures.push(
      `${provider.instanceId} (${provider.id}, ${provider.modelId}): ${describeProviderError(error)}`,
    );
    this.observer?.failed(provider, providerFailureMessage(error));
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
      const started = performance.now();
      try {
        const result = await provider.generate(this.chatRequest(request));
        this.observer?.succeeded(provider, performance.now() - started);
        this.calls?.aiCall(provider.id, 'ok');
        return { text: result.text, provider: provider.id, model: provider.modelId, usage: result.usage };
      } catch (error) {
        this.calls?.aiCall(provider.id, request.signal.aborted ? 'cancelled' : 'error');
        if (request.signal.aborted) throw new AbortedError();
        this.fail(provider, error, failures);
        const last = index === this.providers.length - 1;
        if (last || !isRetryableProviderError(error)) throw providerFailed(failures, this.log);
      }
    }
    throw providerFailed(failures, this.log);
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
      const startedAt = performance.now();
      // Until the answer is complete, a call that stops is one the caller gave up (the generator was closed).
      let outcome: AiCallOutcome = 'cancelled';
      try {
        for await (const part of provider.stream(chat)) {
          if (part.type === 'delta') {
            if (!started) this.observer?.succeeded(provider, performance.now() - startedAt);
            started = true;
            text += part.text;
            yield part;
          } else {
            usage = part.usage;
          }
        }
        if (!request.signal.aborted) outcome = 'ok';
      } catch (error) {
        if (request.signal.aborted) throw new AbortedError();
        outcome = 'error';
        this.fail(provider, error, failures);
        if (started || last || !isRetryableProviderError(error)) throw providerFailed(failures, this.log);
        continue;
      } finally {
        this.calls?.aiCall(provider.id, outcome);
      }
      if (request.signal.aborted) throw new AbortedError();
      yield { type: 'done', text, provider: provider.id, model: provider.modelId, usage };
      return;
    }
    throw providerFailed(failures, this.log);
  }
}
