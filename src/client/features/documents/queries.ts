import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DocumentSummary } from '@shared/schemas/documents';
import { useAuth } from '@client/features/auth/AuthProvider';
import { createDocument, deleteDocument, DOCUMENTS_PATH, listDocuments } from './api';

export const documentsQueryKey = [DOCUMENTS_PATH] as const;

/** SPEC §4: the list loads only when a user is signed in; newest first (the server orders it). */
export function useDocuments() {
  const { user } = useAuth();
  return useQuery({ queryKey: documentsQueryKey, queryFn: listDocuments, enabled: !!user });
}

/** Creating refreshes the list. */
export function useCreateDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => createDocument({}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: documentsQueryKey }),
  });
}

/** Deleting removes the card at once and refreshes the list; on failure the card comes back. */
export function useDeleteDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteDocument(id),
    onSuccess: (_data, id) => {
      queryClient.setQueryData<DocumentSummary[]>(documentsQueryKey, (list) =>
        list?.filter((d) => d.id !== id),
      );
      return queryClient.invalidateQueries({ queryKey: documentsQueryKey });
    },
  });
}
