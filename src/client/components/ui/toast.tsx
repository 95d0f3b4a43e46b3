import { cva, type VariantProps } from 'class-variance-authority';
import { XIcon } from 'lucide-react';
import { Toast as ToastPrimitive } from 'radix-ui';
import * as React from 'react';
import {
  TOAST_DURATION_MS,
  TOAST_HOTKEY,
  TOAST_SWIPE_DIRECTION,
  TOAST_SWIPE_THRESHOLD_PX,
} from '@shared/constants';
import { cn } from '@client/lib/utils';

/** Top right while the AI suggestion card or the assistant panel (both at the bottom) is open. */
const AI_AT_THE_BOTTOM = [
  '[body:has([data-testid=ai-suggestion-card])_&]:top-0 [body:has([data-testid=ai-suggestion-card])_&]:bottom-auto',
  '[body:has([data-testid=ai-suggestion-card])_&]:left-auto [body:has([data-testid=ai-suggestion-card])_&]:right-0',
  '[body:has([data-testid=ai-assistant-panel])_&]:top-0 [body:has([data-testid=ai-assistant-panel])_&]:bottom-auto',
  '[body:has([data-testid=ai-assistant-panel])_&]:left-auto [body:has([data-testid=ai-assistant-panel])_&]:right-0',
].join(' ');

/** Toasts last 5000 ms; swipe right past 50 px to dismiss, F8 focuses the region. */
export function ToastProvider({
  duration = TOAST_DURATION_MS,
  swipeDirection = TOAST_SWIPE_DIRECTION,
  swipeThreshold = TOAST_SWIPE_THRESHOLD_PX,
  ...props
}: React.ComponentProps<typeof ToastPrimitive.Provider>) {
  return (
    <ToastPrimitive.Provider
      duration={duration}
      swipeDirection={swipeDirection}
      swipeThreshold={swipeThreshold}
      {...props}
    />
  );
}

export function ToastViewport({ className, ...props }: React.ComponentProps<typeof ToastPrimitive.Viewport>) {
  return (
    <ToastPrimitive.Viewport
      hotkey={[...TOAST_HOTKEY]}
      className={cn(
        // Bottom left, where no controls are: the top holds the header's (Share, History, Export). From md it is
        // narrow enough to stay in the margin beside the text column. While the AI suggestion card or assistant
        // panel holds the bottom (Accept, Improve Writing), toasts go to the top right instead.
        'fixed bottom-0 left-0 z-[100] flex max-h-screen w-full flex-col-reverse gap-2 p-4 outline-none md:max-w-[22rem]',
        AI_AT_THE_BOTTOM,
        className,
      )}
      {...props}
    />
  );
}

const toastVariants = cva(
  'group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-lg border p-4 pr-9 shadow-lg transition-all data-[state=open]:animate-toast-in data-[state=closed]:animate-toast-out data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-(--radix-toast-swipe-end-x) data-[swipe=end]:animate-toast-out data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x) data-[swipe=move]:transition-none',
  {
    variants: {
      variant: {
        default: 'border bg-popover text-popover-foreground',
        destructive: 'destructive border-destructive bg-destructive text-destructive-foreground',
      },
    },
    defaultVariants: { variant: 'default' },
  },
);

export type ToastProps = React.ComponentProps<typeof ToastPrimitive.Root> &
  VariantProps<typeof toastVariants>;

export function Toast({ className, variant, ...props }: ToastProps) {
  return (
    <ToastPrimitive.Root data-slot="toast" className={cn(toastVariants({ variant }), className)} {...props} />
  );
}

export function ToastAction({ className, ...props }: React.ComponentProps<typeof ToastPrimitive.Action>) {
  return (
    <ToastPrimitive.Action
      className={cn(
        'inline-flex h-8 shrink-0 items-center justify-center self-center rounded-md border bg-transparent px-3 text-sm font-medium transition-colors hover:bg-secondary disabled:pointer-events-none disabled:opacity-50 group-[.destructive]:border-destructive-foreground/40 group-[.destructive]:hover:bg-destructive-foreground/10',
        className,
      )}
      {...props}
    />
  );
}

export function ToastClose({ className, ...props }: React.ComponentProps<typeof ToastPrimitive.Close>) {
  return (
    <ToastPrimitive.Close
      className={cn(
        'absolute top-2 right-2 rounded-md p-1 text-foreground/50 opacity-70 transition hover:text-foreground hover:opacity-100 group-[.destructive]:text-destructive-foreground/80 group-[.destructive]:hover:text-destructive-foreground',
        className,
      )}
      aria-label="Close"
      {...props}
    >
      <XIcon className="size-4" aria-hidden="true" />
    </ToastPrimitive.Close>
  );
}

export function ToastTitle({ className, ...props }: React.ComponentProps<typeof ToastPrimitive.Title>) {
  return <ToastPrimitive.Title className={cn('text-sm font-semibold', className)} {...props} />;
}

export function ToastDescription({
  className,
  ...props
}: React.ComponentProps<typeof ToastPrimitive.Description>) {
  return <ToastPrimitive.Description className={cn('text-sm', className)} {...props} />;
}

export type ToastActionElement = React.ReactElement<typeof ToastAction>;
