import { RadioGroup as RadioGroupPrimitive } from 'radix-ui';
import * as React from 'react';
import { cn } from '@client/lib/utils';

/**
 * A one-of-many choice drawn as cards or segments (themes, writing styles, tones, billing period). Radix gives
 * it the radio-group keyboard: Tab enters at the chosen item, arrow keys move and choose.
 */
export function ChoiceGroup({ className, ...props }: React.ComponentProps<typeof RadioGroupPrimitive.Root>) {
  return <RadioGroupPrimitive.Root data-slot="choice-group" className={className} {...props} />;
}

/** One choice; style the chosen one with `data-[state=checked]:`. */
export function ChoiceItem({ className, ...props }: React.ComponentProps<typeof RadioGroupPrimitive.Item>) {
  return (
    <RadioGroupPrimitive.Item
      data-slot="choice-item"
      className={cn('outline-none focus-visible:ring-2 focus-visible:ring-ring', className)}
      {...props}
    />
  );
}
