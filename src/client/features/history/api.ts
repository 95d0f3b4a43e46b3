import type { DocumentResponse } from '@shared/schemas/documents';
import type { CheckpointBody, VersionDetail, VersionSummary } from '@shared/schemas/versions';
import { apiRequest, apiRequestAllPages } from '@client/lib/api';

/** Plain fetchers for /api/documents/:id/versions. Type-only schema imports keep zod out of the bundle. */

const versionsPath = (documentId: string) => `/api/documents/${encodeURIComponent(documentId)}/versions`;

export type RestoredDocument = DocumentResponse & { replaced_version_id: string | null };

export function listVersions(documentId: string) {
  return apiRequestAllPages<VersionSummary>(versionsPath(documentId));
}

export function getVersion(documentId: string, versionId: string) {
  return apiRequest<VersionDetail>('GET', `${versionsPath(documentId)}/${encodeURIComponent(versionId)}`);
}

export function saveVersion(documentId: string, name: string) {
  return apiRequest<VersionDetail>('POST', versionsPath(documentId), { name });
}

/** Asks for a version of the current state before the client replaces content itself (AI, import). */
export function takeCheckpoint(documentId: string, reason: CheckpointBody['reason']) {
  return apiRequest<VersionDetail | null>('POST', `${versionsPath(documentId)}/checkpoint`, { reason });
}

export function restoreVersion(documentId: string, versionId: string) {
  return apiRequest<RestoredDocument>(
    'POST',
    `${versionsPath(documentId)}/${encodeURIComponent(versionId)}/restore`,
  );
}

export function deleteVersion(documentId: string, versionId: string) {
  return apiRequest<null>('DELETE', `${versionsPath(documentId)}/${encodeURIComponent(versionId)}`);
}
