import { apiRequest } from '@client/lib/api';
import type { ShareSettings, SharedDocument, UpdateShareSettings } from '@shared/schemas/sharing';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export const shareSettingsKey = (documentId: string) => [`/api/documents/${documentId}/share`];

export function useShareSettings(documentId: string, enabled = true) {
  return useQuery({
    queryKey: shareSettingsKey(documentId),
    queryFn: () => apiRequest<ShareSettings>('GET', `/api/documents/${documentId}/share`),
    enabled,
  });
}

export function useUpdateShareSettings(documentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: UpdateShareSettings) =>
      apiRequest<ShareSettings>('PUT', `/api/documents/${documentId}/share`, settings),
    onSuccess: (settings) => {
      queryClient.setQueryData(shareSettingsKey(documentId), settings);
      void queryClient.invalidateQueries({ queryKey: ['/api/documents'] });
    },
  });
}

/** Visitor calls: never send the visitor's own session, only the share token for this document. */
const shareTokenKey = (documentId: string) => `qw-share-token:${documentId}`;

export function storedShareToken(documentId: string): string | null {
  return sessionStorage.getItem(shareTokenKey(documentId));
}

export function storeShareToken(documentId: string, token: string): void {
  sessionStorage.setItem(shareTokenKey(documentId), token);
}

export class ShareAccessError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function visitorFetch<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(path, { ...init, credentials: 'omit' });
  const body = (await response.json().catch(() => ({}))) as { message?: string; code?: string };
  if (!response.ok) {
    throw new ShareAccessError(response.status, body.code ?? 'error', body.message ?? response.statusText);
  }
  return body as T;
}

export function fetchSharedDocument(documentId: string): Promise<SharedDocument> {
  const token = storedShareToken(documentId);
  return visitorFetch<SharedDocument>(`/api/shared/${documentId}`, {
    headers: token ? { 'x-share-token': token } : {},
  });
}

export async function unlockSharedDocument(documentId: string, password: string): Promise<void> {
  const { shareToken } = await visitorFetch<{ shareToken: string }>(`/api/shared/${documentId}/unlock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password }),
  });
  storeShareToken(documentId, shareToken);
}
