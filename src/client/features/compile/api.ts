import { apiRequest, authorizedFetch, toApiError } from '@client/lib/api';
import type { BookOutline, CompileBody } from '@shared/schemas/compile';

/** What a book is made from: a folder's documents, or one document's level-1 headings. */
export interface BookTarget {
  kind: 'folder' | 'document';
  id: string;
  name: string;
}

const base = (target: BookTarget) =>
  `/api/${target.kind === 'folder' ? 'folders' : 'documents'}/${target.id}/compile`;

export function bookOutlineRequest(target: BookTarget): Promise<BookOutline> {
  return apiRequest<BookOutline>('GET', base(target));
}

/** The compiled file and the name the server chose for it (Content-Disposition). */
export async function compileRequest(
  target: BookTarget,
  body: CompileBody,
): Promise<{ blob: Blob; fileName: string }> {
  const response = await authorizedFetch('POST', base(target), { body });
  if (!response.ok) throw await toApiError(response);
  const match = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return { blob: await response.blob(), fileName: match?.[1] ?? `book.${body.format}` };
}
