import { Download } from 'lucide-react';
import { Button, type ButtonProps } from '@client/components/ui/button';

/** The Export button in the editor's header; also its stand-in while the export menu's code is on the way. */
export function ExportTrigger(props: ButtonProps) {
  return (
    <Button variant="outline" size="sm" aria-label="Export" {...props}>
      <Download /> Export
    </Button>
  );
}
