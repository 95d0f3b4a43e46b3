import { useQuery } from '@tanstack/react-query';
import type { AiHealth } from '@shared/schemas/ai';
import { apiRequest } from '@client/lib/api';

/**
 * Whether the instance has an AI provider, and which (GET /api/ai/health). It follows the instance's AI settings:
 * saving them refreshes it; the AI buttons, the assistant's status line and the setup notice read it.
 */
export const aiHealthKey = ['/api/ai/health'] as const;

export function useAiHealth() {
  return useQuery({
    queryKey: aiHealthKey,
    queryFn: () => apiRequest<AiHealth>('GET', '/api/ai/health'),
    staleTime: 5 * 60_000,
  });
}
