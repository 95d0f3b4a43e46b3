import type { ServerDependencies } from '../dependencies';
import { AI_MAX_TEXT_CHARS } from '../../shared/schemas/ai';
import type { AiAction } from '../../shared/ai/prompts';
import { badRequest, payloadTooLarge } from '../errors';
import type { AiProviderChain, AiRequest, AiResult, AiStreamChunk } from './providers';
import { assertWithinQuota, usageLedger, type InstanceAllowance } from './usage';
import { assertOwnsDocument } from './suggestions';

/**
 * The rules around every generative AI call: input limits, document ownership, the monthly quota, and the
 * usage ledger (written only once a call has succeeded). Provider talk lives in ai/providers.ts.
 */

export type AiCallContext = Pick<ServerDependencies, 'db' | 'config' | 'log' | 'metrics'> & {
  chain: AiProviderChain;
  /** The instance allowance that applies to this user when no billing is configured. */
  allowance?: () => Promise<InstanceAllowance | undefined>;
  userId: string;
  documentId?: string | undefined;
  signal: AbortSignal;
};

/** Empty text → 400 text_required; longer than AI_MAX_TEXT_CHARS → 413 text_too_large. */
export function assertText(text: string, field = 'text'): string {
  if (text.trim().length === 0) throw badRequest(`${field} is required`, 'text_required');
  if (text.length > AI_MAX_TEXT_CHARS) {
    throw payloadTooLarge(
      `${field} is too long: ${text.length.toLocaleString('en-US')} characters, the limit is ${AI_MAX_TEXT_CHARS.toLocaleString('en-US')}`,
      'text_too_large',
    );
  }
  return text;
}

/** Checks that may refuse the call before anything is sent to a provider. */
export async function prepareCall(ctx: AiCallContext): Promise<void> {
  if (ctx.documentId) await assertOwnsDocument(ctx.db, ctx.userId, ctx.documentId);
  await assertWithinQuota(ctx.db, ctx.config, ctx.userId, await ctx.allowance?.());
}

function meter(ctx: AiCallContext, action: AiAction, result: Omit<AiResult, 'text'>): void {
  usageLedger(ctx.db, ctx.log).record({
    userId: ctx.userId,
    documentId: ctx.documentId,
    action,
    provider: result.provider,
    model: result.model,
    inputTokens: result.usage.inputTokens,
    outputTokens: result.usage.outputTokens,
  });
  ctx.metrics.aiUsage(result.provider, result.usage);
}

export async function generate(
  ctx: AiCallContext,
  action: AiAction,
  prompt: Omit<AiRequest, 'signal'>,
): Promise<AiResult> {
  const result = await ctx.chain.generate({ ...prompt, signal: ctx.signal });
  meter(ctx, action, result);
  return result;
}

export async function* stream(
  ctx: AiCallContext,
  action: AiAction,
  prompt: Omit<AiRequest, 'signal'>,
): AsyncGenerator<AiStreamChunk> {
  for await (const chunk of ctx.chain.stream({ ...prompt, signal: ctx.signal })) {
    if (chunk.type === 'done') meter(ctx, action, chunk);
    yield chunk;
  }
}
