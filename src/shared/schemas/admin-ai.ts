import { z } from 'zod';

/** The AI settings of an instance (GET/PUT /api/admin/ai, admins only). API keys are write-only. */

const AI_PROVIDER_KINDS = ['openai-compatible', 'anthropic'] as const;
export type AiProviderKind = (typeof AI_PROVIDER_KINDS)[number];
/** Most providers one instance may configure in the app. */
export const AI_MAX_PROVIDERS = 20;

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'base_url must be an http(s) URL' })
  .max(2_000)
  .transform((v) => v.replace(/\/+$/, ''));

const aiProviderInputSchema = z.object({
  /** An existing provider's id to update it; absent (or unknown) adds one. Env providers are read-only. */
  id: z.string().max(100).optional(),
  kind: z.enum(AI_PROVIDER_KINDS, { error: 'kind must be openai-compatible or anthropic' }),
  base_url: httpUrl.nullable().optional(),
  model: z.string().trim().min(1, 'model is required').max(200),
  enabled: z.boolean().default(true),
  /** A new key; omitted keeps the stored one, null or "" removes it. Never sent back. */
  api_key: z.string().max(1_000).nullable().optional(),
  source: z.enum(['env', 'settings']).optional(),
});
export type AiProviderInput = z.infer<typeof aiProviderInputSchema>;

const aiAllowanceSchema = z.object({
  /** Monthly AI tokens per member when no billing is configured; null = the server default. */
  monthly_tokens_per_user: z.number().int().min(0).max(1_000_000_000).nullable(),
  admins_unlimited: z.boolean(),
});
export type AiAllowanceInput = z.infer<typeof aiAllowanceSchema>;

export const aiSettingsUpdateSchema = z.object({
  providers: z.array(aiProviderInputSchema).max(AI_MAX_PROVIDERS + 2),
  allowance: aiAllowanceSchema.optional(),
});
export type AiSettingsUpdate = z.infer<typeof aiSettingsUpdateSchema>;

export interface AiProviderView {
  id: string;
  kind: AiProviderKind;
  base_url: string | null;
  model: string;
  enabled: boolean;
  has_key: boolean;
  source: 'env' | 'settings';
  /** Reachability as last seen (null before any call or probe). */
  reachable: boolean;
  latency_ms: number | null;
  checked_at: string | null;
  /** The provider's last error, for the admin only. */
  last_error: string | null;
}

export interface AiSettingsView {
  providers: AiProviderView[];
  allowance: AiAllowanceInput & { default_monthly_tokens_per_user: number; billing_enabled: boolean };
}

export const aiProviderTestSchema = z.object({ id: z.string().min(1).max(100) });

export interface AiProviderTestResult {
  ok: boolean;
  latency_ms: number;
  model: string;
  /** The model's answer, or the provider's error. */
  message: string;
}

export interface DetectedLocalServer {
  name: string;
  base_url: string;
  models: string[];
}
