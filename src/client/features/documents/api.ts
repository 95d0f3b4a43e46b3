import type {
  CreateDocumentBody,
  DocumentResponse,
  DocumentSummary,
  UpdateDocumentBody,
} from '@shared/schemas/documents';
import { apiRequest } from '@client/lib/api';

/** Plain fetchers for /api/documents (issue 2 contract). Type-only schema imports keep zod out of the bundle. */

export const DOCUMENTS_PATH = '/api/documents';

export function listDocuments() {
  return apiRequest<DocumentSummary[]>('GET', DOCUMENTS_PATH);
}

export function createDocument(body: CreateDocumentBody = {}) {
  return apiRequest<DocumentResponse>('POST', DOCUMENTS_PATH, body);
}

export function getDocument(id: string) {
  return apiRequest<DocumentResponse>('GET', `${DOCUMENTS_PATH}/${encodeURIComponent(id)}`);
}

export function updateDocument(id: string, body: UpdateDocumentBody) {
  return apiRequest<DocumentResponse>('PATCH', `${DOCUMENTS_PATH}/${encodeURIComponent(id)}`, body);
}

export function deleteDocument(id: string) {
  return apiRequest<null>('DELETE', `${DOCUMENTS_PATH}/${encodeURIComponent(id)}`);
}
