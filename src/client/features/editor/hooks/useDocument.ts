import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@client/lib/api';
import type { RichTextDoc } from '@shared/schemas/richText';
import { documentQueryKey } from '@client/features/documents/document-query-key';

/** GET /api/documents/:id (issue 2 contract). */
export interface EditorDocument {
  id: string;
  title: string;
  content: RichTextDoc | string;
  user_id: string;
  created_at: string;
  updated_at: string;
  is_public: boolean;
}

export { documentQueryKey };

export function useDocumentQuery(id: string | undefined, enabled: boolean) {
  return useQuery<EditorDocument>({
    queryKey: documentQueryKey(id ?? ''),
    queryFn: () => apiRequest<EditorDocument>('GET', `/api/documents/${id}`),
    enabled: enabled && Boolean(id),
  });
}

export function useCreateDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<EditorDocument>('POST', '/api/documents', {}),
    onSuccess: (document) => {
      queryClient.setQueryData(documentQueryKey(document.id), document);
      void queryClient.invalidateQueries({ queryKey: ['/api/documents'] });
    },
  });
}

/** SPEC §3: content may arrive as a JSON string and must then be read as a tree. */
export function readContent(content: EditorDocument['content'] | undefined): RichTextDoc {
  if (typeof content === 'string') {
    try {
      return JSON.parse(content) as RichTextDoc;
    } catch {
      return { type: 'doc', content: [] };
    }
  }
  return content ?? { type: 'doc', content: [] };
}
