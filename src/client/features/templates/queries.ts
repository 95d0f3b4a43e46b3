import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SaveTemplateBody, UseTemplateBody } from '@shared/schemas/templates';
import { useAuth } from '@client/features/auth';
import { documentsQueryKey } from '@client/features/documents';
import { templatesApi, TEMPLATES_PATH } from './api';

const templatesKey = [TEMPLATES_PATH] as const;

/** The built-in templates and the writer's own; asked while `enabled` (the dialog is open). */
export function useTemplates(enabled: boolean) {
  const { user } = useAuth();
  return useQuery({ queryKey: templatesKey, queryFn: templatesApi.list, enabled: !!user && enabled });
}

/** Saving and deleting refresh the list; making a document refreshes the documents lists. */
export function useTemplateMutations() {
  const queryClient = useQueryClient();
  const refreshTemplates = () => queryClient.invalidateQueries({ queryKey: templatesKey });
  return {
    save: useMutation({
      mutationFn: (body: SaveTemplateBody) => templatesApi.save(body),
      onSuccess: refreshTemplates,
    }),
    remove: useMutation({ mutationFn: (id: string) => templatesApi.remove(id), onSuccess: refreshTemplates }),
    use: useMutation({
      mutationFn: ({ id, body }: { id: string; body: UseTemplateBody }) => templatesApi.use(id, body),
      onSuccess: () => queryClient.invalidateQueries({ queryKey: documentsQueryKey }),
    }),
  };
}
