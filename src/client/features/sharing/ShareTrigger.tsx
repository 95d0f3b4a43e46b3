import { Share2 } from 'lucide-react';
import { Button, type ButtonProps } from '@client/components/ui/button';

/** The Share button in the editor's header; also its stand-in while the share menu's code is on the way. */
export function ShareTrigger(props: ButtonProps) {
  return (
    <Button variant="outline" size="sm" aria-label="Share" {...props}>
      <Share2 /> Share
    </Button>
  );
}
