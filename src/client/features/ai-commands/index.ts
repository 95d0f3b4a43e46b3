export { runCommandEndpoint } from './api';
export { AI_COMMAND_ICON, AI_COMMAND_ICON_LABEL } from './icons';
export { useAiCommandMutations, useAiCommands } from './queries';
