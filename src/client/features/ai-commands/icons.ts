import {
  Languages,
  Lightbulb,
  List,
  PenLine,
  Quote,
  Scissors,
  Sparkles,
  Wand2,
  type LucideIcon,
} from 'lucide-react';
import type { AiCommandIcon } from '@shared/schemas/ai-commands';

/** The lucide icon drawn for each icon name a command may carry. */
export const AI_COMMAND_ICON: Record<AiCommandIcon, LucideIcon> = {
  sparkles: Sparkles,
  wand: Wand2,
  pen: PenLine,
  list: List,
  scissors: Scissors,
  languages: Languages,
  lightbulb: Lightbulb,
  quote: Quote,
};

export const AI_COMMAND_ICON_LABEL: Record<AiCommandIcon, string> = {
  sparkles: 'Sparkles',
  wand: 'Magic wand',
  pen: 'Pen',
  list: 'List',
  scissors: 'Scissors',
  languages: 'Languages',
  lightbulb: 'Light bulb',
  quote: 'Quote',
};
