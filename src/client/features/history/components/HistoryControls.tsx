import { Button } from '@client/components/ui/button';
import type { Editor } from '@tiptap/core';
import { History } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { ariaKeyShortcuts, KEYMAP, matchesShortcut, shortcutLabel } from '@shared/keymap';

// The panel pulls in the diff library: loaded the first time history is opened. "Save version…" brings the dialog
// library, which typing does not need: loaded the first time it is asked for.
const HistoryPanel = lazy(() =>
  import('./HistoryPanel').then((module) => ({ default: module.HistoryPanel })),
);
const SaveVersionDialog = lazy(() =>
  import('./SaveVersionDialog').then((module) => ({ default: module.SaveVersionDialog })),
);

/** Asks the page's DocumentHistory to open the panel (the header renders its actions twice: wide and narrow). */
const OPEN_HISTORY_EVENT = 'quillwright:open-history';

/** The History toolbar button. */
export function HistoryButton() {
  return (
    <Button
      variant="outline"
      size="sm"
      onClick={() => window.dispatchEvent(new Event(OPEN_HISTORY_EVENT))}
      aria-label="History"
      aria-keyshortcuts={ariaKeyShortcuts(KEYMAP.history.keys)}
      title={`${KEYMAP.history.label} (${shortcutLabel(KEYMAP.history.keys)})`}
    >
      <History /> <span className="hidden sm:inline">History</span>
    </Button>
  );
}

/**
 * The editor's history, rendered once per page: the panel (History button, or the keymap's history keys) and
 * "Save version…" (the keymap's save-version keys), so the `?` sheet lists the keys this handler answers to.
 */
export function DocumentHistory({ documentId, editor }: { documentId: string; editor: Editor | null }) {
  const [panelOpen, setPanelOpen] = useState(false);
  const [saveOpen, setSaveOpen] = useState(false);
  // Kept mounted after the first open, so the dialog can animate closed.
  const [saveMounted, setSaveMounted] = useState(false);
  if (saveOpen && !saveMounted) setSaveMounted(true);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (matchesShortcut(event, KEYMAP.history.keys)) {
        event.preventDefault();
        setPanelOpen((open) => !open);
      } else if (matchesShortcut(event, KEYMAP.saveVersion.keys)) {
        event.preventDefault();
        setSaveOpen(true);
      }
    };
    const onOpen = () => setPanelOpen(true);
    window.addEventListener('keydown', onKeyDown);
    window.addEventListener(OPEN_HISTORY_EVENT, onOpen);
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      window.removeEventListener(OPEN_HISTORY_EVENT, onOpen);
    };
  }, []);

  return (
    <>
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
      {saveMounted && (
        <Suspense fallback={null}>
          <SaveVersionDialog documentId={documentId} open={saveOpen} onOpenChange={setSaveOpen} />
        </Suspense>
      )}
    </>
  );
}
