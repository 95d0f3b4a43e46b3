import { Button } from '@client/components/ui/button';
import type { Editor } from '@tiptap/core';
import { History } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { SaveVersionDialog } from './SaveVersionDialog';

// The panel pulls in the diff library: loaded the first time history is opened.
const HistoryPanel = lazy(() =>
  import('./HistoryPanel').then((module) => ({ default: module.HistoryPanel })),
);

/**
 * The editor's history entry points: the History toolbar button, Ctrl+Alt+H (panel) and Ctrl+Alt+S
 * ("Save version…"). Keys are matched by `code`, since Alt changes `key` on many layouts (macOS Option).
 */
export function HistoryControls({ documentId, editor }: { documentId: string; editor: Editor | null }) {
  const [panelOpen, setPanelOpen] = useState(false);
  const [saveOpen, setSaveOpen] = useState(false);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || !event.altKey || event.shiftKey) return;
      if (event.code === 'KeyH') {
        event.preventDefault();
        setPanelOpen((open) => !open);
      } else if (event.code === 'KeyS') {
        event.preventDefault();
        setSaveOpen(true);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <>
      <Button
        variant="outline"
        size="sm"
        onClick={() => setPanelOpen(true)}
        aria-label="History"
        title="Version history (Ctrl+Alt+H)"
      >
        <History /> <span className="hidden sm:inline">History</span>
      </Button>
      {panelOpen && (
        <Suspense fallback={null}>
          <HistoryPanel
            documentId={documentId}
            editor={editor}
            open={panelOpen}
            onOpenChange={setPanelOpen}
            onSaveVersion={() => setSaveOpen(true)}
          />
        </Suspense>
      )}
      <SaveVersionDialog documentId={documentId} open={saveOpen} onOpenChange={setSaveOpen} />
    </>
  );
}
