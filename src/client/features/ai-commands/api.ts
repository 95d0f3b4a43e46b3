import type { AiCommand, AiCommandInput } from '@shared/schemas/ai-commands';
import { apiRequest } from '@client/lib/api';

/** /api/ai/commands: the writer's own AI commands. Running one streams through features/ai's streamAi. */
export const aiCommandsApi = {
  list: () => apiRequest<{ commands: AiCommand[] }>('GET', '/api/ai/commands'),
  add: (input: AiCommandInput) => apiRequest<AiCommand>('POST', '/api/ai/commands', input),
  change: (id: string, input: AiCommandInput) =>
    apiRequest<AiCommand>('PUT', `/api/ai/commands/${id}`, input),
  remove: (id: string) => apiRequest<void>('DELETE', `/api/ai/commands/${id}`),
};

/** The streaming endpoint (under /api/ai/) that runs a command. */
export const runCommandEndpoint = (id: string) => `commands/${encodeURIComponent(id)}/run` as const;
