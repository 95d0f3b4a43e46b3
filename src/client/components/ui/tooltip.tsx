import { Tooltip as TooltipPrimitive } from 'radix-ui';
import * as React from 'react';
import { TOOLTIP_OPEN_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from '@shared/constants';
import { cn } from '@client/lib/utils';

const HasProvider = React.createContext(false);

/**
 * Tooltip delays: 700 ms to open, 300 ms skip between neighbours. Wrap a page (or a toolbar) in one provider
 * so its tooltips share the skip delay. Not mounted at the app root: Radix's tooltip brings its positioning
 * engine, which the landing page does not need in its first bundle.
 */
export function TooltipProvider({
  delayDuration = TOOLTIP_OPEN_DELAY_MS,
  skipDelayDuration = TOOLTIP_SKIP_DELAY_MS,
  ...props
}: React.ComponentProps<typeof TooltipPrimitive.Provider>) {
  return (
    <HasProvider.Provider value={true}>
      <TooltipPrimitive.Provider
        delayDuration={delayDuration}
        skipDelayDuration={skipDelayDuration}
        {...props}
      />
    </HasProvider.Provider>
  );
}

/** A tooltip; works with or without a TooltipProvider above it (it then brings its own, same delays). */
export function Tooltip(props: React.ComponentProps<typeof TooltipPrimitive.Root>) {
  const root = <TooltipPrimitive.Root {...props} />;
  return React.useContext(HasProvider) ? root : <TooltipProvider>{root}</TooltipProvider>;
}

export const TooltipTrigger = TooltipPrimitive.Trigger;

export function TooltipContent({
  className,
  sideOffset = 6,
  children,
  ...props
}: React.ComponentProps<typeof TooltipPrimitive.Content>) {
  return (
    <TooltipPrimitive.Portal>
      <TooltipPrimitive.Content
        data-slot="tooltip-content"
        sideOffset={sideOffset}
        className={cn(
          'z-50 w-fit max-w-xs rounded-md bg-foreground px-2.5 py-1.5 text-xs text-balance text-background shadow-md data-[state=closed]:animate-out data-[state=delayed-open]:animate-in data-[state=instant-open]:animate-in',
          className,
        )}
        {...props}
      >
        {children}
        <TooltipPrimitive.Arrow className="fill-foreground" />
      </TooltipPrimitive.Content>
    </TooltipPrimitive.Portal>
  );
}
