import type { FastifyInstance } from 'fastify';
import type { AiHealth } from '../../shared/schemas/ai';
import { roleOf } from '../accounts';
import type { InstanceAllowance } from './usage';
import type { AiProviderRegistry } from './provider-registry';

/**
 * The instance allowance applies once a provider is configured: each member gets
 * AI_MONTHLY_TOKENS_PER_USER tokens a month (or the value set in the AI settings) so one sign-up cannot
 * spend the operator's key without bound. With billing, plan quotas apply instead (services/ai-usage.ts).
 */
export async function instanceAllowance(
  app: FastifyInstance,
  userId: string,
  /** The allowance that will apply once a provider is added (what the writer is shown before that). */
  { evenWithoutProvider = false }: { evenWithoutProvider?: boolean } = {},
): Promise<InstanceAllowance | undefined> {
  const registry = app.aiProviders;
  if (!registry.chain.available && !evenWithoutProvider) return undefined;
  const settings = registry.allowance;
  return {
    monthlyTokensPerUser: settings.monthly_tokens_per_user ?? app.config.AI_MONTHLY_TOKENS_PER_USER,
    adminsUnlimited: settings.admins_unlimited,
    isAdmin: (await roleOf(app.database.db, userId)) === 'admin',
  };
}

/**
 * GET /api/ai/health: two flags, each meaning "a provider of this family answered within the reachability
 * window", plus one entry per provider in use. Never a key, base URL or error detail (the route is public),
 * and never a request to a provider: it reads what the scheduled probes and the real calls found.
 */
export function aiHealth(registry: AiProviderRegistry): AiHealth {
  const specs = registry.activeSpecs();
  const providers = specs.map((spec) => {
    const status = registry.health.status(spec.instanceId);
    return {
      id: spec.instanceId,
      kind: spec.kind,
      reachable: status.reachable,
      latency_ms: status.latency_ms,
      checked_at: status.checked_at,
    };
  });
  const reachable = (kind: string) => providers.some((p) => p.kind === kind && p.reachable);
  return { openai: reachable('openai-compatible'), anthropic: reachable('anthropic'), providers };
}
