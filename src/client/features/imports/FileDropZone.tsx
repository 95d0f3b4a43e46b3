import { UploadIcon } from 'lucide-react';
import { useRef, useState, type DragEvent, type ReactNode } from 'react';

const carriesFiles = (event: DragEvent) => [...event.dataTransfer.types].includes('Files');

/**
 * Wraps a page so files dropped anywhere on it are handed to `onFiles`; while files are dragged over it,
 * an overlay says what will happen.
 */
export function FileDropZone({ onFiles, children }: { onFiles(files: File[]): void; children: ReactNode }) {
  const [over, setOver] = useState(false);
  // dragenter/dragleave fire for every child crossed; count them to know when the pointer really left.
  const depth = useRef(0);
  return (
    <div
      className="relative"
      data-testid="file-drop-zone"
      onDragEnter={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        depth.current += 1;
        setOver(true);
      }}
      onDragOver={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={(event) => {
        if (!carriesFiles(event)) return;
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setOver(false);
      }}
      onDrop={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        depth.current = 0;
        setOver(false);
        const files = [...event.dataTransfer.files];
        if (files.length) onFiles(files);
      }}
    >
      {children}
      {over ? (
        <div
          className="pointer-events-none fixed inset-0 z-40 grid place-items-center bg-primary/10 backdrop-blur-[1px]"
          aria-hidden="true"
        >
          <div className="flex flex-col items-center gap-2 rounded-xl border-2 border-dashed border-primary bg-background/95 px-10 py-8 text-center shadow-lg">
            <UploadIcon className="size-8 text-primary" />
            <p className="font-semibold">Drop to import</p>
            <p className="text-sm text-muted-foreground">
              Markdown, Word, HTML or text files become new documents
            </p>
          </div>
        </div>
      ) : null}
    </div>
  );
}
