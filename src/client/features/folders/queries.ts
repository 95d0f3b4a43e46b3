import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PlaceDocumentBody, UpdateFolderBody } from '@shared/schemas/folders';
import { useAuth } from '@client/features/auth';
import { documentsQueryKey } from '@client/features/documents';
import {
  createFolder,
  deleteFolder,
  deleteFolderForever,
  documentPlacement,
  FOLDER_TRASH_PATH,
  FOLDERS_PATH,
  listFolders,
  listTrashedFolders,
  placeDocument,
  restoreFolder,
  updateFolder,
} from './api';

const foldersQueryKey = [FOLDERS_PATH] as const;
const folderTrashQueryKey = [FOLDER_TRASH_PATH] as const;
const placementQueryKey = (documentId: string) => [FOLDERS_PATH, 'placement', documentId] as const;

/** Anything about folders may change the tree, the lists of documents, placements and the trash. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: foldersQueryKey }),
      queryClient.invalidateQueries({ queryKey: documentsQueryKey }),
      queryClient.invalidateQueries({ queryKey: folderTrashQueryKey }),
    ]);
}

export function useFolders() {
  const { user } = useAuth();
  return useQuery({ queryKey: foldersQueryKey, queryFn: listFolders, enabled: !!user });
}

export function useFolderActions() {
  const onSuccess = useRefresh();
  return {
    create: useMutation({ mutationFn: createFolder, onSuccess }),
    update: useMutation({
      mutationFn: ({ id, ...body }: UpdateFolderBody & { id: string }) => updateFolder(id, body),
      onSuccess,
    }),
    remove: useMutation({ mutationFn: deleteFolder, onSuccess }),
    place: useMutation({
      mutationFn: ({ documentId, ...body }: PlaceDocumentBody & { documentId: string }) =>
        placeDocument(documentId, body),
      onSuccess,
    }),
  };
}

/** The folders above a document (its breadcrumbs). */
export function useDocumentPlacement(documentId: string) {
  const { user } = useAuth();
  return useQuery({
    queryKey: placementQueryKey(documentId),
    queryFn: () => documentPlacement(documentId),
    enabled: !!user,
  });
}

export function useTrashedFolders() {
  const { user } = useAuth();
  return useQuery({ queryKey: folderTrashQueryKey, queryFn: listTrashedFolders, enabled: !!user });
}

export function useFolderTrashActions() {
  const onSuccess = useRefresh();
  return {
    restore: useMutation({ mutationFn: restoreFolder, onSuccess }),
    deleteForever: useMutation({ mutationFn: (id: string) => deleteFolderForever(id), onSuccess }),
    empty: useMutation({ mutationFn: () => deleteFolderForever(), onSuccess }),
  };
}
