import { apiRequest } from '@client/lib/api';
import type { ShareSettings, SharedDocument, UpdateShareSettings } from '@shared/schemas/sharing';
import { SHARE_LINK_KEY_PARAM } from '@shared/share-links';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

const shareSettingsKey = (documentId: string) => [`/api/documents/${documentId}/share`];

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

/** Gives the link a new address; the old one and everything opened through it stop working. */
export function useResetShareLink(documentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<ShareSettings>('POST', `/api/documents/${documentId}/share/reset`),
    onSuccess: (settings) => queryClient.setQueryData(shareSettingsKey(documentId), settings),
  });
}

/** Visitor calls: never send the visitor's own session, only the share token for this document. */
const shareTokenKey = (documentId: string) => `qw-share-token:${documentId}`;

export function storedShareToken(documentId: string): string | null {
  return sessionStorage.getItem(shareTokenKey(documentId));
}

function storeShareToken(documentId: string, token: string): void {
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

/** `/api/shared/{id}{suffix}`, with the key of the address the visitor opened (a reset link has one). */
function visitorPath(documentId: string, linkKey: string | null, suffix = ''): string {
  const query = linkKey ? `?${new URLSearchParams({ [SHARE_LINK_KEY_PARAM]: linkKey })}` : '';
  return `/api/shared/${documentId}${suffix}${query}`;
}

export async function fetchSharedDocument(
  documentId: string,
  linkKey: string | null,
): Promise<SharedDocument> {
  const token = storedShareToken(documentId);
  const shared = await visitorFetch<SharedDocument>(visitorPath(documentId, linkKey), {
    headers: token ? { 'x-share-token': token } : {},
  });
  // The newest token: it carries the access level granted now, which the live editor's socket needs.
  storeShareToken(documentId, shared.shareToken);
  return shared;
}

export async function unlockSharedDocument(
  documentId: string,
  linkKey: string | null,
  password: string,
): Promise<void> {
  const path = visitorPath(documentId, linkKey, '/unlock');
  const { shareToken } = await visitorFetch<{ shareToken: string }>(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password }),
  });
  storeShareToken(documentId, shareToken);
}
