import { asc, eq, notInArray } from 'drizzle-orm';
import type { AiAllowanceInput, AiProviderInput } from '../../shared/schemas/admin-ai';
import { AI_MAX_PROVIDERS } from '../../shared/schemas/admin-ai';
import type { Db } from '../db/client';
import { aiProviderSettings, aiSettings } from '../db/schema';
import { badRequest } from '../errors';
import { isUuid } from '../../shared/uuid';
import { ANTHROPIC_API_URL, OPENAI_API_URL } from './providers';
import type { SecretBox } from '../secret-box';

/** Storage of the AI providers and allowance configured in the app (migration 0011). */

export type ProviderSettingRow = typeof aiProviderSettings.$inferSelect;

export function listProviderSettings(db: Db): Promise<ProviderSettingRow[]> {
  return db
    .select()
    .from(aiProviderSettings)
    .orderBy(asc(aiProviderSettings.position), asc(aiProviderSettings.createdAt));
}

export async function readAllowance(db: Db): Promise<AiAllowanceInput> {
  const [row] = await db.select().from(aiSettings).where(eq(aiSettings.id, 1));
  return {
    monthly_tokens_per_user: row?.monthlyTokensPerUser ?? null,
    admins_unlimited: row?.adminsUnlimited ?? true,
  };
}

/** Where a provider's requests (and its key) go: the origin of its base URL, or of its kind's default. */
function keyDestination(kind: AiProviderInput['kind'], baseUrl: string | null | undefined): string {
  const url = baseUrl || (kind === 'anthropic' ? ANTHROPIC_API_URL : OPENAI_API_URL);
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * Replaces the in-app providers with `inputs` (their order is the order they are tried in). Entries with
 * the id of a stored provider update it, keeping its sealed key unless `api_key` is given — but a key is
 * only kept for the host it was entered for: when the base URL's origin (or the kind, and with it the
 * default host) changes, the stored key is dropped unless a new one comes in the same request, so changing
 * the URL alone can never send the key somewhere else. Entries without an id are added; stored providers
 * not listed are removed. Env providers in the list are skipped.
 */
export async function saveProviderSettings(
  db: Db,
  box: SecretBox,
  inputs: AiProviderInput[],
  allowance: AiAllowanceInput | undefined,
): Promise<void> {
  const own = inputs.filter((p) => p.source !== 'env' && !(p.id ?? '').startsWith('env-'));
  if (own.length > AI_MAX_PROVIDERS)
    throw badRequest(`At most ${AI_MAX_PROVIDERS} providers can be configured`, 'too_many_providers');
  for (const p of own) {
    if (p.kind === 'openai-compatible' && !p.base_url && !p.api_key && !p.id)
      throw badRequest('An OpenAI-compatible provider needs a base URL or an API key', 'validation_failed');
  }
  await db.transaction(async (tx) => {
    const existing = new Map((await tx.select().from(aiProviderSettings)).map((r) => [r.id, r]));
    const kept: string[] = [];
    for (const [position, input] of own.entries()) {
      const current = isUuid(input.id) ? existing.get(input.id) : undefined;
      const sameDestination =
        current !== undefined &&
        keyDestination(current.kind, current.baseUrl) === keyDestination(input.kind, input.base_url);
      const apiKeySealed =
        input.api_key === undefined
          ? sameDestination
            ? (current?.apiKeySealed ?? null)
            : null
          : input.api_key === null || input.api_key === ''
            ? null
            : box.seal(input.api_key);
      const values = {
        kind: input.kind,
        baseUrl: input.base_url ?? null,
        model: input.model,
        enabled: input.enabled,
        apiKeySealed,
        position,
        updatedAt: new Date(),
      };
      if (current) {
        await tx.update(aiProviderSettings).set(values).where(eq(aiProviderSettings.id, current.id));
        kept.push(current.id);
      } else {
        const [row] = await tx
          .insert(aiProviderSettings)
          .values(values)
          .returning({ id: aiProviderSettings.id });
        kept.push(row!.id);
      }
    }
    await tx
      .delete(aiProviderSettings)
      .where(kept.length > 0 ? notInArray(aiProviderSettings.id, kept) : undefined);
    if (allowance) {
      const values = {
        monthlyTokensPerUser: allowance.monthly_tokens_per_user,
        adminsUnlimited: allowance.admins_unlimited,
        updatedAt: new Date(),
      };
      await tx
        .insert(aiSettings)
        .values({ id: 1, ...values })
        .onConflictDoUpdate({ target: aiSettings.id, set: values });
    }
  });
}
