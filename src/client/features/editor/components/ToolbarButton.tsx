import type { ComponentProps } from 'react';
import { cn } from '@client/lib/utils';

/**
 * A compact icon button for editor toolbars. Pass `active` only for a toggle (bold, italic…): it becomes its
 * pressed state (aria-pressed); an action button (AI Improve, Add Link) leaves it out and is announced as a button.
 */
export function ToolbarButton({
  active,
  className,
  label,
  children,
  ...props
}: ComponentProps<'button'> & { active?: boolean; label: string }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={active}
      // Keep the editor's selection: buttons must not take focus on mouse down.
      onMouseDown={(event) => event.preventDefault()}
      className={cn(
        'inline-flex h-8 min-w-8 shrink-0 items-center justify-center gap-1 rounded-md px-1.5 text-sm transition-colors hover:bg-accent hover:text-accent-foreground disabled:pointer-events-none disabled:opacity-40 [&_svg]:size-4',
        active && 'bg-accent text-accent-foreground',
        className,
      )}
      {...props}
    >
      {children}
    </button>
  );
}
