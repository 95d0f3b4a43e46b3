import { AI_COMMANDS_PER_USER } from '../../shared/constants';
import type { AiCommand, AiCommandInput } from '../../shared/schemas/ai-commands';
import type { Db } from '../db/client';
import { conflict, notFound } from '../errors';
import { PRESET_AI_COMMANDS } from './presets';
import * as repository from './repository';

/** A writer's own AI commands: at most AI_COMMANDS_PER_USER, each visible to its writer only. */

const NOT_FOUND = () => notFound('AI command not found', 'ai_command_not_found');

export async function commandsOf(db: Db, userId: string): Promise<AiCommand[]> {
  await repository.seedPresetsOnce(db, userId, PRESET_AI_COMMANDS);
  return repository.listCommands(db, userId);
}

/** The command to run, or 404 (another writer's command is not revealed). */
export async function commandToRun(db: Db, userId: string, id: string): Promise<AiCommand> {
  return (await repository.findCommand(db, userId, id)) ?? Promise.reject(NOT_FOUND());
}

export async function addCommand(db: Db, userId: string, input: AiCommandInput): Promise<AiCommand> {
  // The examples come first, so they count towards the limit like any other command.
  await repository.seedPresetsOnce(db, userId, PRESET_AI_COMMANDS);
  const added = await repository.insertCommand(db, userId, input, AI_COMMANDS_PER_USER);
  if (!added)
    throw conflict(
      `You can keep up to ${AI_COMMANDS_PER_USER} AI commands. Delete one to add another.`,
      'ai_command_limit',
    );
  return added;
}

export async function changeCommand(db: Db, userId: string, id: string, input: AiCommandInput) {
  return (await repository.updateCommand(db, userId, id, input)) ?? Promise.reject(NOT_FOUND());
}

export async function removeCommand(db: Db, userId: string, id: string): Promise<void> {
  if (!(await repository.deleteCommand(db, userId, id))) throw NOT_FOUND();
}
