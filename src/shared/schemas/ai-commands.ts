import { z } from 'zod';
import { AI_COMMAND_INSTRUCTION_MAX, AI_COMMAND_NAME_MAX } from '../constants';

/** Icons a custom AI command may carry (lucide names, drawn by the client). */
export const AI_COMMAND_ICONS = [
  'sparkles',
  'wand',
  'pen',
  'list',
  'scissors',
  'languages',
  'lightbulb',
  'quote',
] as const;
export type AiCommandIcon = (typeof AI_COMMAND_ICONS)[number];

const name = z
  .string({ error: 'name is required' })
  .trim()
  .min(1, { error: 'Give the command a name' })
  .max(AI_COMMAND_NAME_MAX, { error: `Names are at most ${AI_COMMAND_NAME_MAX} characters` });
const instruction = z
  .string({ error: 'instruction is required' })
  .trim()
  .min(1, { error: 'Tell the AI what to do' })
  .max(AI_COMMAND_INSTRUCTION_MAX, {
    error: `Instructions are at most ${AI_COMMAND_INSTRUCTION_MAX} characters`,
  });

/** A command as the writer saves it: what to do, and where it is offered. */
export const aiCommandInputSchema = z.object({
  name,
  instruction,
  icon: z.enum(AI_COMMAND_ICONS).default('sparkles'),
  showInSlash: z.boolean().default(true),
  showInSelection: z.boolean().default(true),
});
export type AiCommandInput = z.infer<typeof aiCommandInputSchema>;

export interface AiCommand extends AiCommandInput {
  id: string;
  createdAt: string;
  updatedAt: string;
}

/** POST /api/ai/commands/:id/run: the text the command works on (the selection, or the paragraph). */
export const aiRunCommandRequestSchema = z.object({
  text: z.string({ error: 'text is required' }),
  documentId: z.uuid().optional(),
});
