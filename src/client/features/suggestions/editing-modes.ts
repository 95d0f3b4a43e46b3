import { MessageSquarePlus, Pencil, type LucideIcon } from 'lucide-react';
import { cn } from '@client/lib/utils';

export type EditingMode = 'editing' | 'suggesting';

export const EDITING_MODES: { value: EditingMode; label: string; title: string; Icon: LucideIcon }[] = [
  { value: 'editing', label: 'Editing', title: 'Editing: change the text directly', Icon: Pencil },
  {
    value: 'suggesting',
    label: 'Suggesting',
    title: 'Suggesting: your changes become suggestions to accept or reject',
    Icon: MessageSquarePlus,
  },
];

export const EDITING_MODE_GROUP_CLASS = 'inline-flex items-center gap-0.5 rounded-lg bg-muted p-0.5';

/** A segment; the choice-group item's own focus ring included, so its stand-in looks the same. */
export const EDITING_MODE_SEGMENT_CLASS = cn(
  'outline-none focus-visible:ring-2 focus-visible:ring-ring',
  'inline-flex h-7 items-center gap-1.5 rounded-md px-2 text-xs font-medium text-muted-foreground transition',
  'hover:text-foreground data-[state=checked]:bg-background data-[state=checked]:text-foreground data-[state=checked]:shadow-sm',
);
