import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AiCommand, AiCommandInput } from '@shared/schemas/ai-commands';
import { aiCommandsApi } from './api';

const aiCommandsKey = ['/api/ai/commands'] as const;

const NO_COMMANDS: readonly AiCommand[] = [];

/** The signed-in writer's commands (empty while loading or signed out). */
export function useAiCommands(enabled = true) {
  const query = useQuery({
    queryKey: aiCommandsKey,
    queryFn: aiCommandsApi.list,
    enabled,
    staleTime: 60_000,
  });
  return { ...query, commands: query.data?.commands ?? NO_COMMANDS };
}

/** Add, change and delete; each refreshes the list everywhere it is shown (palette, helper, settings). */
export function useAiCommandMutations() {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: aiCommandsKey });
  return {
    add: useMutation({ mutationFn: (input: AiCommandInput) => aiCommandsApi.add(input), onSuccess }),
    change: useMutation({
      mutationFn: ({ id, input }: { id: string; input: AiCommandInput }) => aiCommandsApi.change(id, input),
      onSuccess,
    }),
    remove: useMutation({ mutationFn: (id: string) => aiCommandsApi.remove(id), onSuccess }),
  };
}
