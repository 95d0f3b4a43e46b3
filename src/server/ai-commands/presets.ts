import type { AiCommandInput } from '../../shared/schemas/ai-commands';

/** The examples every writer starts with; they are ordinary commands, edited or deleted like any other. */
export const PRESET_AI_COMMANDS: readonly AiCommandInput[] = [
  {
    name: 'Simplify',
    instruction:
      'Rewrite the text so a general reader understands it at first reading: shorter sentences, everyday words, the same meaning.',
    icon: 'lightbulb',
    showInSlash: true,
    showInSelection: true,
  },
  {
    name: 'Active voice',
    instruction: 'Rewrite every sentence in the passive voice in the active voice. Change nothing else.',
    icon: 'pen',
    showInSlash: true,
    showInSelection: true,
  },
  {
    name: 'Key points',
    instruction: 'Turn the text into a short bulleted list of its key points, in the order they appear.',
    icon: 'list',
    showInSlash: true,
    showInSelection: false,
  },
  {
    name: 'Cut by a third',
    instruction:
      'Shorten the text by about a third. Keep every fact and the author’s voice; remove repetition and filler.',
    icon: 'scissors',
    showInSlash: false,
    showInSelection: true,
  },
];
