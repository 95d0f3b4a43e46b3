import type { CreateDocumentBody, DocumentResponse, PinState } from '@shared/schemas/documents';
import type { TrashPage } from '@shared/schemas/trash';
import { apiRequest } from '@client/lib/api';

/** Plain fetchers for /api/documents. Type-only schema imports keep zod out of the bundle. */

export const DOCUMENTS_PATH = '/api/documents';

export function createDocument(body: CreateDocumentBody = {}) {
  return apiRequest<DocumentResponse>('POST', DOCUMENTS_PATH, body);
}

/** Moves the document to the trash (the server keeps it for its retention period). */
export function deleteDocument(id: string) {
  return apiRequest<null>('DELETE', `${DOCUMENTS_PATH}/${encodeURIComponent(id)}`);
}

const pinPath = (id: string) => `${DOCUMENTS_PATH}/${encodeURIComponent(id)}/pin`;

export function getPinState(id: string) {
  return apiRequest<PinState>('GET', pinPath(id));
}

/** Pins or unpins the document for the signed-in user (each user pins their own). */
export function setPinned(id: string, pinned: boolean) {
  return apiRequest<null>(pinned ? 'PUT' : 'DELETE', pinPath(id));
}

export const TRASH_PATH = '/api/trash';

export function listTrash(limit: number) {
  return apiRequest<TrashPage>('GET', `${TRASH_PATH}?limit=${limit}`);
}

export function restoreDocument(id: string) {
  return apiRequest<null>('POST', `${TRASH_PATH}/${encodeURIComponent(id)}/restore`);
}

/** Deletes a trashed document for good, or the whole trash without an id. */
export function deleteForever(id?: string) {
  return apiRequest<null>(
    'DELETE',
    id === undefined ? TRASH_PATH : `${TRASH_PATH}/${encodeURIComponent(id)}`,
  );
}
