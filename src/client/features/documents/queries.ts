import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DocumentSummary } from '@shared/schemas/documents';
import { useAuth } from '@client/features/auth';
import { queryClient } from '@client/lib/query-client';
import {
  createDocument,
  deleteDocument,
  deleteForever,
  DOCUMENTS_PATH,
  getPinState,
  listTrash,
  restoreDocument,
  setPinned,
  TRASH_PATH,
} from './api';
import { keepListsInStepWithDocuments } from './lists-follow-documents';

export const documentsQueryKey = [DOCUMENTS_PATH] as const;

// Every list of documents is cached by code that loads this module (the dashboard's, search's, the quick
// switcher's): from then on they follow a document's own copy as it changes (a title saved in the editor).
keepListsInStepWithDocuments(queryClient);

/** Creating refreshes the list. */
export function useCreateDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => createDocument({}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: documentsQueryKey }),
  });
}

/** Deleting (moving to the trash) removes the card at once and refreshes the lists and the trash. */
export function useDeleteDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteDocument(id),
    onSuccess: (_data, id) => {
      queryClient.setQueryData<DocumentSummary[]>(documentsQueryKey, (list) =>
        list?.filter((d) => d.id !== id),
      );
      return refreshDocumentsAndTrash(queryClient);
    },
  });
}

// Under the document's own key, so it goes with the document's other cached state.
const pinQueryKey = (id: string) => [DOCUMENTS_PATH, id, 'pin'] as const;

/** Whether the signed-in user pinned the document; asked only while `enabled` (an open menu). */
export function usePinState(id: string, enabled: boolean) {
  const { user } = useAuth();
  return useQuery({ queryKey: pinQueryKey(id), queryFn: () => getPinState(id), enabled: !!user && enabled });
}

/** Pinning or unpinning refreshes the lists (pinned documents come first) and the document's pin state. */
export function useSetPinned() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, pinned }: { id: string; pinned: boolean }) => setPinned(id, pinned),
    onSuccess: (_data, { id, pinned }) => {
      queryClient.setQueryData(pinQueryKey(id), { pinned });
      return queryClient.invalidateQueries({ queryKey: documentsQueryKey });
    },
  });
}

const trashQueryKey = [TRASH_PATH] as const;

function refreshDocumentsAndTrash(queryClient: ReturnType<typeof useQueryClient>) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: documentsQueryKey }),
    queryClient.invalidateQueries({ queryKey: trashQueryKey }),
  ]);
}

/** The first `limit` documents of the user's trash (most recently trashed first), with the server's retention. */
export function useTrash(limit: number, enabled = true) {
  const { user } = useAuth();
  return useQuery({
    queryKey: [...trashQueryKey, limit],
    queryFn: () => listTrash(limit),
    enabled: !!user && enabled,
  });
}

/** Restoring, deleting for good and emptying the trash each refresh the lists and the trash. */
export function useTrashActions() {
  const queryClient = useQueryClient();
  const refresh = () => refreshDocumentsAndTrash(queryClient);
  return {
    restore: useMutation({ mutationFn: (id: string) => restoreDocument(id), onSuccess: refresh }),
    deleteForever: useMutation({ mutationFn: (id: string) => deleteForever(id), onSuccess: refresh }),
    empty: useMutation({ mutationFn: () => deleteForever(), onSuccess: refresh }),
  };
}
