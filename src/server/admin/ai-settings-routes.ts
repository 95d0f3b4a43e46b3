import type { FastifyPluginAsync } from 'fastify';
import {
  aiProviderTestSchema,
  aiSettingsUpdateSchema,
  type AiProviderTestResult,
  type AiSettingsView,
} from '../../shared/schemas/admin-ai';
import {
  saveProviderSettings,
  type AiProviderRegistry,
  describeProviderError,
  providerFailureMessage,
} from '../ai';
import { notFound } from '../errors';
import { limitsEnforced } from '../billing';
import { parseInput } from '../validation';
import { requireAdmin } from '../accounts';

/**
 * /api/admin/ai: the AI settings page (admins only; members get 403 forbidden). API keys go in, never out:
 * answers say only `has_key`. A failed call is shown as its HTTP status or one fixed sentence, never the
 * remote side's words (docs/ai.md, "Outbound requests"); the details go to the server log.
 */

const TEST_TIMEOUT_MS = 20_000;
const TEST_PROMPT = {
  system: 'You are a connection test. Answer in at most five words.',
  prompt: 'Say hello.',
};

/** Removes a key (and the masked fragments some providers echo back, e.g. "sk-ab***yz") from a message. */
function scrubSecret(message: string, key: string | undefined): string {
  let text = key ? message.split(key).join('[key]') : message;
  text = text.replace(/\b(sk|ak|key)-[A-Za-z0-9_*.-]{4,}/gi, '[key]');
  return text.slice(0, 500);
}

function view(
  registry: AiProviderRegistry,
  config: Parameters<typeof limitsEnforced>[0] & { AI_MONTHLY_TOKENS_PER_USER: number },
): AiSettingsView & { detected: typeof registry.detected } {
  return {
    providers: registry.views(),
    allowance: {
      ...registry.allowance,
      default_monthly_tokens_per_user: config.AI_MONTHLY_TOKENS_PER_USER,
      billing_enabled: limitsEnforced(config),
    },
    detected: registry.detected,
  };
}

export const adminAiRoutes: FastifyPluginAsync = async (app) => {
  const registry = app.aiProviders;

  app.get('/ai', async (request) => {
    await requireAdmin(request);
    return view(registry, app.config);
  });

  app.put('/ai', async (request) => {
    await requireAdmin(request);
    const body = parseInput(aiSettingsUpdateSchema, request.body);
    await saveProviderSettings(app.database.db, registry.box, body.providers, body.allowance);
    // This instance applies the change before answering; the others hear the database notification.
    await registry.reload();
    request.log.info({ providers: body.providers.length }, 'AI settings changed');
    // New or changed providers are probed now, so the page shows whether they answer.
    await registry.probeHealth();
    return view(registry, app.config);
  });

  app.post('/ai/test', async (request): Promise<AiProviderTestResult> => {
    await requireAdmin(request);
    const { id } = parseInput(aiProviderTestSchema, request.body);
    const entry = registry.find(id);
    if (!entry) throw notFound('No AI provider with this id', 'provider_not_found');
    if (!entry.provider)
      return { ok: false, latency_ms: 0, model: entry.spec.model, message: entry.problem ?? 'Not usable' };
    const started = performance.now();
    try {
      const answer = await entry.provider.generate({
        ...TEST_PROMPT,
        maxOutputTokens: 32,
        signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
      });
      const latency = performance.now() - started;
      registry.health.succeeded(entry.provider, latency);
      return {
        ok: true,
        latency_ms: Math.round(latency),
        model: entry.spec.model,
        message: scrubSecret(answer.text.trim(), entry.spec.apiKey),
      };
    } catch (error) {
      const message = providerFailureMessage(error);
      registry.health.failed(entry.provider, message);
      request.log.warn(
        { provider: id, detail: scrubSecret(describeProviderError(error), entry.spec.apiKey) },
        'AI provider test failed',
      );
      return {
        ok: false,
        latency_ms: Math.round(performance.now() - started),
        model: entry.spec.model,
        message,
      };
    }
  });

  app.post('/ai/detect', async (request) => {
    await requireAdmin(request);
    // `checked`: the addresses asked, so that "none found" can say where it looked.
    const servers = await registry.detect();
    return { servers, checked: registry.localCandidates.map((candidate) => candidate.baseUrl) };
  });
};
