import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { findRewriteStyle, findToneOption } from '../../shared/ai/catalog';
import { parseListAnswer, prompts, type AiAction, type BuiltPrompt } from '../../shared/ai/prompts';
import {
  aiAlternativesRequestSchema,
  aiAnalyzeRequestSchema,
  aiCompleteRequestSchema,
  aiOutlineRequestSchema,
  aiRewriteRequestSchema,
  aiRewritingSuggestionsRequestSchema,
  aiStoreSuggestionRequestSchema,
  aiTextRequestSchema,
  aiToneRequestSchema,
  aiUpdateSuggestionRequestSchema,
  type AiGenerationMeta,
} from '../../shared/schemas/ai';
import { aiHealth, instanceAllowance } from './allowance';
import { checkGrammar } from './grammar';
import { getUserSettings } from '../settings';
import { AbortedError, type AiStreamChunk } from './providers';
import { AI_CHECK_PER_USER, AI_GENERATION_PER_USER, perUserLimit } from './rate-limits';
import { extractiveSummary } from './summary';
import { aiRunCommandRequestSchema } from '../../shared/schemas/ai-commands';
import { commandIdOf, commandToRun } from '../ai-commands';
import { chatDocumentIdOf, chatPrompt, keepExchange } from '../ai-chat';
import { chatRequestSchema } from '../../shared/schemas/ai-chat';
import { badRequest, notFound } from '../errors';
import { requireUser } from '../plugins';
import { assertText, generate, prepareCall, stream, type AiCallContext } from './service';
import { usageLedger, usageSummary } from './usage';
import { assertOwnsDocument, createSuggestion, decideSuggestion, listSuggestions } from './suggestions';
import { parseInput } from '../validation';

/**
 * /api/ai: improve, complete, suggestions, rewrite, tone, grammar, alternatives, rephrase, analyze, plus
 * summarize, outline, health and usage. Generative calls answer JSON, or server-sent events when the client
 * sends `Accept: text/event-stream` (complete, improve, rewrite, tone, summarize, outline):
 * `data: {"delta":"…"}` per chunk, then `event: done` with provider, model and usage. A client that
 * disconnects aborts the upstream request.
 */

/**
 * The suggestion type an answer is kept under (`ai_suggestions.type`: 'improvement' unless the action names
 * another).
 */
const SUGGESTION_TYPE_OF_ACTION: Partial<Record<AiAction, string>> = {
  improve: 'improvement',
  complete: 'completion',
  rewrite: 'rewrite',
  tone: 'rewrite',
  summarize: 'summary',
  outline: 'outline',
  command: 'command',
};

const suggestionIdSchema = z.object({ id: z.uuid({ error: 'Suggestion not found' }) });
const suggestionListQuerySchema = z.object({ documentId: z.uuid() });

function wantsStream(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/event-stream');
}

/** An AbortSignal that fires when the client goes away before the answer was fully sent. */
function clientGone(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort();
  };
  reply.raw.once('close', onClose);
  request.raw.once('aborted', () => controller.abort());
  return controller.signal;
}

function meta(chunk: AiGenerationMeta): AiGenerationMeta {
  return { provider: chunk.provider, model: chunk.model, usage: chunk.usage };
}

function sse(event: string | undefined, data: unknown): string {
  return `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

/**
 * Writes a generation as server-sent events. The first chunk is awaited before any header is sent, so a
 * failure before the first token (quota, no provider, every provider down) is still a normal JSON error.
 */
async function sendStream(
  request: FastifyRequest,
  reply: FastifyReply,
  chunks: AsyncGenerator<AiStreamChunk>,
  /** Runs when the answer is complete; what it returns joins the `done` event. */
  onDone?: (text: string) => Promise<Record<string, unknown>>,
): Promise<void> {
  let first: IteratorResult<AiStreamChunk>;
  try {
    first = await chunks.next();
  } catch (error) {
    if (error instanceof AbortedError) return void reply.hijack();
    throw error;
  }
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  // Events produced in the same tick (a provider packet often carries several) leave in one write.
  let corked = false;
  const flush = () => {
    if (!corked) return;
    corked = false;
    res.uncork();
  };
  const write = async (chunk: AiStreamChunk) => {
    const extra = chunk.type === 'done' && onDone ? await onDone(chunk.text) : {};
    if (!corked) {
      corked = true;
      res.cork();
      process.nextTick(flush);
    }
    if (chunk.type === 'delta') res.write(sse(undefined, { delta: chunk.text }));
    else res.write(sse('done', { text: chunk.text, ...meta(chunk), ...extra }));
  };
  try {
    if (!first.done) await write(first.value);
    for (;;) {
      const next = await chunks.next();
      if (next.done) break;
      await write(next.value);
    }
  } catch (error) {
    if (!(error instanceof AbortedError) && !res.destroyed) {
      const body =
        error instanceof Error && 'code' in error && 'status' in error
          ? { message: error.message, code: String(error.code) }
          : { message: 'The AI answer was interrupted.', code: 'ai_stream_failed' };
      if (!(error instanceof Error && 'status' in error))
        request.log.error({ err: error }, 'AI stream failed');
      res.write(sse('error', body));
    }
  } finally {
    // Buffered events must leave before the final chunk that end() writes.
    flush();
    if (!res.destroyed) res.end();
  }
}

/** The offline answer streamed in the same event format as a provider's. */
async function* singleChunk(text: string, chunkMeta: AiGenerationMeta): AsyncGenerator<AiStreamChunk> {
  yield { type: 'delta', text };
  yield {
    type: 'done',
    text,
    provider: chunkMeta.provider as 'openai',
    model: chunkMeta.model,
    usage: chunkMeta.usage,
  };
}

export const aiRoutes: FastifyPluginAsync = async (app) => {
  const registry = app.aiProviders;
  const ledger = usageLedger(app.database.db, app.log);
  // Before the database closes (main.ts closes it after the app): pending ledger rows are written.
  app.addHook('onClose', async () => {
    await ledger.flush();
  });
  const generationRate = perUserLimit(app, AI_GENERATION_PER_USER);
  const checkRate = perUserLimit(app, AI_CHECK_PER_USER);

  async function context(request: FastifyRequest, reply: FastifyReply, documentId?: string) {
    const { userId } = await requireUser(request);
    await generationRate(request, reply, userId);
    const ctx: AiCallContext = {
      db: app.database.db,
      config: app.config,
      metrics: app.deps.metrics,
      // The providers as configured now: a settings change applies from the next request on.
      chain: registry.chain,
      allowance: () => instanceAllowance(app, userId),
      log: request.log,
      userId,
      documentId,
      signal: clientGone(request, reply),
    };
    return ctx;
  }

  /**
   * Keeps an answer about a document as a suggestion (its decision is recorded later with PUT
   * /api/ai/suggestions/:id) and answers `{ suggestionId }`, so clients need no second request carrying the
   * same text. Nothing without a document; a failure to keep it costs the writer nothing but the record.
   */
  async function keepSuggestion(
    ctx: AiCallContext,
    action: AiAction,
    originalText: string,
    answer: string,
  ): Promise<{ suggestionId?: string }> {
    const type = SUGGESTION_TYPE_OF_ACTION[action];
    const suggestedText = answer.trim();
    if (!ctx.documentId || !type || !suggestedText) return {};
    try {
      const kept = await createSuggestion(ctx.db, ctx.userId, {
        documentId: ctx.documentId,
        originalText,
        suggestedText,
        type,
      });
      return { suggestionId: kept.id };
    } catch (error) {
      ctx.log.warn({ err: error, documentId: ctx.documentId }, 'AI suggestion could not be kept');
      return {};
    }
  }

  /**
   * One generative endpoint: JSON `{ [field]: text, provider, model, usage, suggestionId? }`, or SSE when
   * asked for (the `done` event carries `suggestionId`). `originalText` is what the answer is about.
   */
  async function respond(
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: AiCallContext,
    action: AiAction,
    built: BuiltPrompt,
    field: string,
    originalText: string,
  ) {
    await prepareCall(ctx);
    if (wantsStream(request)) {
      return sendStream(request, reply, stream(ctx, action, built), (text) =>
        keepSuggestion(ctx, action, originalText, text),
      );
    }
    const result = await generate(ctx, action, built);
    const text = result.text.trim();
    return { [field]: text, ...meta(result), ...(await keepSuggestion(ctx, action, originalText, text)) };
  }

  app.get('/health', async () => aiHealth(registry));

  app.get('/usage', async (request) => {
    const { userId } = await requireUser(request);
    const allowance = await instanceAllowance(app, userId, { evenWithoutProvider: true });
    return usageSummary(app.database.db, app.config, userId, allowance);
  });

  app.post('/improve', async (request, reply) => {
    const body = parseInput(aiTextRequestSchema, request.body);
    const ctx = await context(request, reply, body.documentId);
    const text = assertText(body.text);
    return respond(request, reply, ctx, 'improve', prompts.improve(text), 'improvement', text);
  });

  app.post('/complete', async (request, reply) => {
    const body = parseInput(aiCompleteRequestSchema, request.body);
    const ctx = await context(request, reply, body.documentId);
    const text = assertText(body.text);
    if (body.context) assertText(body.context, 'context');
    return respond(request, reply, ctx, 'complete', prompts.complete(text, body.context), 'completion', text);
  });

  app.post('/rewrite', async (request, reply) => {
    const body = parseInput(aiRewriteRequestSchema, request.body);
    const ctx = await context(request, reply, body.documentId);
    const style = findRewriteStyle(body.style);
    if (!style) throw badRequest('Invalid rewriting style', 'invalid_style');
    const text = assertText(body.text);
    return respond(
      request,
      reply,
      ctx,
      'rewrite',
      prompts.rewrite(text, style, body.prompt),
      'rewrittenText',
      text,
    );
  });

  app.post('/tone', async (request, reply) => {
    const body = parseInput(aiToneRequestSchema, request.body);
    const ctx = await context(request, reply, body.documentId);
    const tone = findToneOption(body.tone);
    if (!tone) throw badRequest('Invalid tone option', 'invalid_tone');
    const text = assertText(body.text);
    return respond(
      request,
      reply,
      ctx,
      'tone',
      prompts.tone(text, tone, body.description),
      'adjustedText',
      text,
    );
  });

  /** A writer's own command (Settings → AI commands) on the selection or paragraph, answered like Improve. */
  app.post('/commands/:id/run', async (request, reply) => {
    const body = parseInput(aiRunCommandRequestSchema, request.body);
    const ctx = await context(request, reply, body.documentId);
    const command = await commandToRun(ctx.db, ctx.userId, commandIdOf(request.params));
    const text = assertText(body.text);
    return respond(
      request,
      reply,
      ctx,
      'command',
      prompts.command(command.instruction, text),
      'result',
      text,
    );
  });

  /**
   * Chat with the document (see ai-chat/): the writer's message about their own document, answered from
   * the document and the recent conversation. The question and the answer are stored when the answer is
   * complete; the `done` event (or the JSON answer) carries both as stored, the answer's edits parsed.
   */
  app.post('/chat/:documentId', async (request, reply) => {
    const body = parseInput(chatRequestSchema, request.body);
    const ctx = await context(request, reply);
    ctx.documentId = chatDocumentIdOf(request.params);
    await prepareCall(ctx);
    const built = await chatPrompt(ctx.db, ctx.userId, ctx.documentId, body.message, (id) =>
      app.liveDocuments.currentContent(id),
    );
    const question = { text: body.message, askedAt: new Date() };
    const keep = async (text: string) => ({
      ...(await keepExchange(ctx.db, ctx.log, ctx.userId, ctx.documentId!, question, text)),
    });
    if (wantsStream(request)) return sendStream(request, reply, stream(ctx, 'chat', built), keep);
    const result = await generate(ctx, 'chat', built);
    return { ...meta(result), ...(await keep(result.text)) };
  });

  app.post('/outline', async (request, reply) => {
    const body = parseInput(aiOutlineRequestSchema, request.body);
    const ctx = await context(request, reply, body.documentId);
    const topic = assertText(body.topic ?? body.text ?? '', body.topic !== undefined ? 'topic' : 'text');
    const built =
      body.topic !== undefined && body.text ? prompts.outline(topic, body.text) : prompts.outline(topic);
    return respond(request, reply, ctx, 'outline', built, 'outline', topic);
  });

  app.post('/summarize', async (request, reply) => {
    const body = parseInput(aiTextRequestSchema, request.body);
    const ctx = await context(request, reply, body.documentId);
    const text = assertText(body.text);
    if (!ctx.chain.available) {
      // Offline fallback: an extractive summary needs no provider and costs no tokens.
      if (ctx.documentId) await assertOwnsDocument(ctx.db, ctx.userId, ctx.documentId);
      const summary = extractiveSummary(text);
      const offline: AiGenerationMeta = {
        provider: 'extractive',
        model: 'extractive',
        usage: { inputTokens: 0, outputTokens: 0 },
      };
      if (wantsStream(request)) return sendStream(request, reply, singleChunk(summary, offline));
      return { summary, ...offline };
    }
    return respond(request, reply, ctx, 'summarize', prompts.summarize(text), 'summary', text);
  });

  async function listAnswer(
    request: FastifyRequest,
    reply: FastifyReply,
    action: 'alternatives' | 'rephrase' | 'suggestions',
    body: { text: string; count: number; documentId?: string | undefined },
  ) {
    const ctx = await context(request, reply, body.documentId);
    const text = assertText(body.text);
    await prepareCall(ctx);
    const built =
      action === 'rephrase' ? prompts.rephrase(text, body.count) : prompts.alternatives(text, body.count);
    const result = await generate(ctx, action, built);
    return { items: parseListAnswer(result.text, body.count), meta: meta(result) };
  }

  app.post('/alternatives', async (request, reply) => {
    const body = parseInput(aiAlternativesRequestSchema, request.body);
    const { items, meta: m } = await listAnswer(request, reply, 'alternatives', body);
    return { alternatives: items, ...m };
  });

  app.post('/rephrase', async (request, reply) => {
    const body = parseInput(aiAlternativesRequestSchema, request.body);
    const { items, meta: m } = await listAnswer(request, reply, 'rephrase', body);
    return { alternatives: items, ...m };
  });

  app.post('/grammar', async (request, reply) => {
    const body = parseInput(aiTextRequestSchema, request.body);
    const { userId } = await requireUser(request);
    await checkRate(request, reply, userId);
    const text = assertText(body.text);
    const { preferences } = await getUserSettings(app.database.db, userId);
    return checkGrammar(text, userId, preferences.grammarDialect);
  });

  app.post('/analyze', async (request, reply) => {
    const body = parseInput(aiAnalyzeRequestSchema, request.body);
    const { userId } = await requireUser(request);
    await checkRate(request, reply, userId);
    const text = assertText(body.text);
    // The readability and sentiment libraries load with the first analysis, not with every server start.
    const { analyzeText } = await import('../../shared/analysis/response');
    return analyzeText(text);
  });

  app.post('/suggestions', async (request, reply) => {
    const raw = (request.body ?? {}) as Record<string, unknown>;
    if (raw.type === 'rewriting' && raw.suggestedText === undefined) {
      const body = parseInput(aiRewritingSuggestionsRequestSchema, raw);
      const { items, meta: m } = await listAnswer(request, reply, 'suggestions', body);
      return { suggestions: items.map((suggestion) => ({ suggestion })), ...m };
    }
    const body = parseInput(aiStoreSuggestionRequestSchema, raw);
    const { userId } = await requireUser(request);
    const suggestion = await createSuggestion(app.database.db, userId, body);
    return reply.status(201).send({ suggestion, ...suggestion });
  });

  app.get('/suggestions', async (request) => {
    const query = parseInput(suggestionListQuerySchema, request.query);
    const { userId } = await requireUser(request);
    return { suggestions: await listSuggestions(app.database.db, userId, query.documentId) };
  });

  app.put('/suggestions/:id', async (request) => {
    const params = (request.params ?? {}) as { id?: string };
    if (!suggestionIdSchema.safeParse(params).success)
      throw notFound('Suggestion not found', 'suggestion_not_found');
    const body = parseInput(aiUpdateSuggestionRequestSchema, request.body);
    const { userId } = await requireUser(request);
    const suggestion = await decideSuggestion(app.database.db, userId, params.id!, body.accepted);
    return { suggestion, ...suggestion };
  });
};
