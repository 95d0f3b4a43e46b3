import { useQuery } from '@tanstack/react-query';
import { aiApi } from './api';

export const aiHealthKey = ['/api/ai/health'] as const;
export const aiUsageKey = ['/api/ai/usage'] as const;
export const aiSuggestionsKey = (documentId: string) => ['/api/ai/suggestions', documentId] as const;

export function useAiHealth() {
  return useQuery({ queryKey: aiHealthKey, queryFn: aiApi.health, staleTime: 5 * 60_000 });
}

export function useAiUsage(enabled = true) {
  return useQuery({ queryKey: aiUsageKey, queryFn: aiApi.usage, enabled });
}

export function useDocumentSuggestions(documentId: string) {
  return useQuery({
    queryKey: aiSuggestionsKey(documentId),
    queryFn: () => aiApi.listSuggestions(documentId),
  });
}

/** SPEC §7: the product labels the provider as the first, the second, or None. */
export function providerLabel(health: { openai: boolean; anthropic: boolean } | undefined): string {
  if (health?.openai) return 'OpenAI';
  if (health?.anthropic) return 'Anthropic';
  return 'None';
}
