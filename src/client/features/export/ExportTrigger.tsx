import { Download } from 'lucide-react';
import { Button, type ButtonProps } from '@client/components/ui/button';

/**
 * The Export button in the editor's header; also its stand-in while the export menu's code is on the way. On a
 * phone it is the icon alone: the header's second row holds the save status, the goal ring, Share, History,
 * Export, the menu and the shortcuts button in 390 px.
 */
export function ExportTrigger(props: ButtonProps) {
  return (
    <Button variant="outline" size="sm" aria-label="Export" title="Export" {...props}>
      <Download /> <span className="max-sm:hidden">Export</span>
    </Button>
  );
}
