import { Loader2Icon, UploadIcon } from 'lucide-react';
import { useRef } from 'react';
import { Button } from '@client/components/ui/button';
import { IMPORT_ACCEPT } from './use-import-files';

/** Opens the file picker for Markdown, Word, HTML and text files (several at once). */
export function ImportButton({ onFiles, pending }: { onFiles(files: File[]): void; pending: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button variant="outline" onClick={() => input.current?.click()} disabled={pending}>
        {pending ? (
          <Loader2Icon className="animate-spin" aria-hidden="true" />
        ) : (
          <UploadIcon aria-hidden="true" />
        )}
        Import
      </Button>
      <input
        ref={input}
        type="file"
        multiple
        accept={IMPORT_ACCEPT}
        className="hidden"
        data-testid="import-file-input"
        aria-label="Import files"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length) onFiles(files);
        }}
      />
    </>
  );
}
