import type { ImportResponse } from '@shared/schemas/imports';
import { apiRequest } from '@client/lib/api';

const IMPORT_PATH = '/api/documents/import';

/** One file → one new document (the server answers 201 with it and what changed on the way in). */
export function importFile(file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return apiRequest<ImportResponse>('POST', IMPORT_PATH, form);
}
