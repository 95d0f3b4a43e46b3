import { Palette } from 'lucide-react';
import type { ComponentProps } from 'react';
import { ToolbarButton } from './ToolbarButton';

/** The colour picker's button: a palette and a dot of the selection's colour. */
export function TextColorButton({
  color,
  ...props
}: Omit<ComponentProps<typeof ToolbarButton>, 'label' | 'children'> & { color: string }) {
  return (
    <ToolbarButton label="Text colour" {...props}>
      <Palette />
      <span className="size-3 rounded-full border" style={{ background: color || 'currentColor' }} />
    </ToolbarButton>
  );
}
