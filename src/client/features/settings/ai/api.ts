import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AiProviderInput,
  AiProviderTestResult,
  AiSettingsUpdate,
  AiSettingsView,
  DetectedLocalServer,
} from '@shared/schemas/admin-ai';
import { apiRequest } from '@client/lib/api';
import { aiHealthKey } from './health';

/** /api/admin/ai: the instance's AI settings (admins only). */
export type AiSettingsPage = AiSettingsView & { detected: DetectedLocalServer[] };

const adminAiKey = ['/api/admin/ai'] as const;

export const adminAiApi = {
  get: () => apiRequest<AiSettingsPage>('GET', '/api/admin/ai'),
  save: (update: AiSettingsUpdate) => apiRequest<AiSettingsPage>('PUT', '/api/admin/ai', update),
  test: (id: string) => apiRequest<AiProviderTestResult>('POST', '/api/admin/ai/test', { id }),
  detect: () =>
    apiRequest<{ servers: DetectedLocalServer[]; checked?: string[] }>('POST', '/api/admin/ai/detect', {}),
};

export function useAdminAiSettings(enabled = true) {
  // Reachability and errors change with every AI call: read them afresh each time the page opens.
  return useQuery({ queryKey: adminAiKey, queryFn: adminAiApi.get, enabled, refetchOnMount: 'always' });
}

export function useSaveAiSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adminAiApi.save,
    onSuccess: (page) => {
      queryClient.setQueryData(adminAiKey, page);
      // The AI buttons read the health flags; a new provider changes them.
      void queryClient.invalidateQueries({ queryKey: aiHealthKey });
    },
  });
}

/** The providers of a page as a PUT body entry (keys are never in it: omitted = keep). */
function toInput(provider: AiSettingsPage['providers'][number]): AiProviderInput {
  return {
    id: provider.id,
    kind: provider.kind,
    base_url: provider.base_url,
    model: provider.model,
    enabled: provider.enabled,
    source: provider.source,
  };
}

/** One click: a detected local server (and one of its models) added in front of the providers. */
export function withLocalServer(
  page: AiSettingsPage,
  server: DetectedLocalServer,
  model: string,
): AiSettingsUpdate {
  return {
    providers: [
      { kind: 'openai-compatible', base_url: server.base_url, model, enabled: true },
      ...page.providers.filter((p) => p.source === 'settings').map(toInput),
    ],
  };
}
