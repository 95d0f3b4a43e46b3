import type {
  CreateFolderBody,
  DocumentPlacement,
  Folder,
  FolderTree,
  PlaceDocumentBody,
  TrashedFolder,
  UpdateFolderBody,
} from '@shared/schemas/folders';
import { apiRequest } from '@client/lib/api';

/** Plain fetchers for the folders API (docs/library.md). */

export const FOLDERS_PATH = '/api/folders';
export const FOLDER_TRASH_PATH = '/api/trash/folders';
const id = encodeURIComponent;

export const listFolders = () => apiRequest<FolderTree>('GET', FOLDERS_PATH);

export const createFolder = (body: CreateFolderBody) => apiRequest<Folder>('POST', FOLDERS_PATH, body);

export const updateFolder = (folderId: string, body: UpdateFolderBody) =>
  apiRequest<Folder>('PATCH', `${FOLDERS_PATH}/${id(folderId)}`, body);

/** Moves the folder, its sub-folders and their documents to the trash. */
export const deleteFolder = (folderId: string) =>
  apiRequest<null>('DELETE', `${FOLDERS_PATH}/${id(folderId)}`);

export const documentPlacement = (documentId: string) =>
  apiRequest<DocumentPlacement>('GET', `/api/documents/${id(documentId)}/folder`);

export const placeDocument = (documentId: string, body: PlaceDocumentBody) =>
  apiRequest<DocumentPlacement>('PUT', `/api/documents/${id(documentId)}/folder`, body);

export const listTrashedFolders = () => apiRequest<{ folders: TrashedFolder[] }>('GET', FOLDER_TRASH_PATH);

export const restoreFolder = (folderId: string) =>
  apiRequest<null>('POST', `${FOLDER_TRASH_PATH}/${id(folderId)}/restore`);

/** Deletes a trashed folder for good with what went with it, or every trashed folder without an id. */
export const deleteFolderForever = (folderId?: string) =>
  apiRequest<null>(
    'DELETE',
    folderId === undefined ? FOLDER_TRASH_PATH : `${FOLDER_TRASH_PATH}/${id(folderId)}`,
  );
