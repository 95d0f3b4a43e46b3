import { Feather } from 'lucide-react';
import { PRODUCT_NAME } from '@shared/constants';
import { cn } from '@client/lib/utils';

/** The product mark: a quill in a rounded tile, followed by the word mark. */
export function Logo({ className }: { className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold tracking-tight', className)}>
      <span className="grid size-8 place-items-center rounded-lg bg-primary text-primary-foreground shadow-sm">
        <Feather className="size-4" aria-hidden="true" />
      </span>
      <span className="text-lg">{PRODUCT_NAME}</span>
    </span>
  );
}
