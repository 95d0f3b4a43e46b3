import { useQuery } from '@tanstack/react-query';
import { aiApi } from './api';

export const aiUsageKey = ['/api/ai/usage'] as const;

export function useAiUsage(enabled = true) {
  return useQuery({ queryKey: aiUsageKey, queryFn: aiApi.usage, enabled });
}

/** The status line names the provider as the first, the second, or None. */
export function providerLabel(health: { openai: boolean; anthropic: boolean } | undefined): string {
  if (health?.openai) return 'OpenAI';
  if (health?.anthropic) return 'Anthropic';
  return 'None';
}
