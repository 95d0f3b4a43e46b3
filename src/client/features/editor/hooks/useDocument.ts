import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { apiRequest } from '@client/lib/api';
import type { RichTextDoc } from '@shared/schemas/richText';
import { documentContentQueryKey, documentQueryKey } from '@client/features/documents';

/** GET /api/documents/:id?content=false: the document without its content. */
export interface EditorDocument {
  id: string;
  title: string;
  user_id: string;
  created_at: string;
  updated_at: string;
  is_public: boolean;
}

/** GET /api/documents/:id: content may arrive as a JSON string, read as a tree. */
interface DocumentWithContent extends EditorDocument {
  content: RichTextDoc | string;
}

export { documentQueryKey };

export function useDocumentQuery(id: string | undefined, enabled: boolean) {
  return useQuery<EditorDocument>({
    queryKey: documentQueryKey(id ?? ''),
    enabled: enabled && Boolean(id),
  });
}

/**
 * The document's content as the server stored it, for the read-only preview: asked for only while `enabled`
 * (the editor has nothing else to show it from).
 */
export function useDocumentContent(id: string, enabled: boolean): RichTextDoc | undefined {
  const { data } = useQuery<DocumentWithContent>({ queryKey: documentContentQueryKey(id), enabled });
  return useMemo(() => (data ? readContent(data.content) : undefined), [data]);
}

export function useCreateDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<DocumentWithContent>('POST', '/api/documents', {}),
    onSuccess: (document) => {
      queryClient.setQueryData(documentQueryKey(document.id), document);
      queryClient.setQueryData(documentContentQueryKey(document.id), document);
      void queryClient.invalidateQueries({ queryKey: ['/api/documents'] });
    },
  });
}

/** Content may arrive as a JSON string and must then be read as a tree. */
function readContent(content: DocumentWithContent['content'] | undefined): RichTextDoc {
  if (typeof content === 'string') {
    try {
      return JSON.parse(content) as RichTextDoc;
    } catch {
      return { type: 'doc', content: [] };
    }
  }
  return content ?? { type: 'doc', content: [] };
}
