import { Loader2Icon } from 'lucide-react';
import { useState } from 'react';
import type { Folder } from '@shared/schemas/folders';
import { Button } from '@client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@client/components/ui/dialog';
import { toast } from '@client/components/ui/use-toast';
import { authorizedFetch, errorMessage, toApiError } from '@client/lib/api';

const FORMATS = [
  { format: 'md', label: 'Markdown' },
  { format: 'docx', label: 'Word' },
  { format: 'html', label: 'HTML' },
  { format: 'txt', label: 'Plain text' },
] as const;
type FolderExportFormat = (typeof FORMATS)[number]['format'];

/** The file name the server chose (Content-Disposition), so the download matches the single-file exports. */
function fileNameOf(response: Response, fallback: string): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return match?.[1] ?? fallback;
}

/** "Export folder": the folder and its sub-folders as one .zip, every document in the chosen format. */
export function ExportFolderDialog({ folder, onDone }: { folder: Folder | null; onDone(): void }) {
  const [pending, setPending] = useState<FolderExportFormat | null>(null);
  const download = async (format: FolderExportFormat, label: string) => {
    if (!folder) return;
    setPending(format);
    try {
      const response = await authorizedFetch('GET', `/api/folders/${folder.id}/export?format=${format}`);
      if (!response.ok) throw await toApiError(response);
      const url = URL.createObjectURL(await response.blob());
      const anchor = document.createElement('a');
      anchor.href = url;
      anchor.download = fileNameOf(response, 'folder.zip');
      anchor.rel = 'noopener';
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      toast({ title: 'Folder exported', description: `'${folder.name}' as a .zip of ${label} files.` });
      onDone();
    } catch (error) {
      toast({ title: 'Export failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setPending(null);
    }
  };
  return (
    <Dialog open={folder !== null} onOpenChange={(open) => !open && pending === null && onDone()}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Export folder</DialogTitle>
          <DialogDescription>
            &apos;{folder?.name}&apos; and its sub-folders as one .zip file, every document in the format you
            choose.
          </DialogDescription>
        </DialogHeader>
        <div className="grid grid-cols-2 gap-2">
          {FORMATS.map(({ format, label }) => (
            <Button
              key={format}
              variant="outline"
              disabled={pending !== null}
              onClick={() => void download(format, label)}
            >
              {pending === format ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
              {label}
            </Button>
          ))}
        </div>
      </DialogContent>
    </Dialog>
  );
}
