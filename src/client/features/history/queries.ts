import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deleteVersion, getVersion, listVersions, restoreVersion, saveVersion } from './api';

const versionKeys = {
  list: (documentId: string) => ['documents', documentId, 'versions'] as const,
  one: (documentId: string, versionId: string) => ['documents', documentId, 'versions', versionId] as const,
};

export function useVersions(documentId: string, enabled: boolean) {
  return useQuery({
    queryKey: versionKeys.list(documentId),
    queryFn: () => listVersions(documentId),
    enabled,
    // The list changes while the panel is closed (automatic versions): fetch it again on every opening.
    staleTime: 0,
  });
}

export function useVersion(documentId: string, versionId: string | null) {
  return useQuery({
    queryKey: versionKeys.one(documentId, versionId ?? ''),
    queryFn: () => getVersion(documentId, versionId!),
    enabled: versionId !== null,
    // A version never changes once written.
    staleTime: Infinity,
  });
}

export function useSaveVersion(documentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => saveVersion(documentId, name),
    onSettled: () => queryClient.invalidateQueries({ queryKey: versionKeys.list(documentId) }),
  });
}

export function useRestoreVersion(documentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (versionId: string) => restoreVersion(documentId, versionId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: versionKeys.list(documentId) }),
  });
}

export function useDeleteVersion(documentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (versionId: string) => deleteVersion(documentId, versionId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: versionKeys.list(documentId) }),
  });
}
