import { Plus } from 'lucide-react';
import type { ComponentProps } from 'react';

/** The block menu's "+" beside an empty line; also its stand-in while the menu's code is on the way. */
export function InsertBlockButton(props: ComponentProps<'button'>) {
  return (
    <button
      type="button"
      aria-label="Insert block"
      className="grid size-7 place-items-center rounded-md border bg-background text-muted-foreground shadow-xs hover:text-foreground"
      {...props}
    >
      <Plus className="size-4" />
    </button>
  );
}
