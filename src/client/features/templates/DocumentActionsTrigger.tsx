import { MoreHorizontalIcon } from 'lucide-react';
import { Button, type ButtonProps } from '@client/components/ui/button';

/** The editor header's Document actions button; also its stand-in while the menu's code is on the way. */
export function DocumentActionsTrigger(props: ButtonProps) {
  return (
    <Button
      variant="outline"
      size="icon-sm"
      aria-label="Document actions"
      title="Document actions"
      {...props}
    >
      <MoreHorizontalIcon />
    </Button>
  );
}
