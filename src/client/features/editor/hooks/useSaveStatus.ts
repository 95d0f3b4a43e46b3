import type { HocuspocusProvider } from '@hocuspocus/provider';
import { useEffect, useState, useSyncExternalStore } from 'react';
import * as Y from 'yjs';
import { isStoredFor, parseStatelessMessage } from '@shared/editor/collab-protocol';
import type { ManualSave } from './useCollaboration';

/**
 * True while this editor has changes the server has not yet stored: either not yet acknowledged by the socket
 * (provider.unsyncedChanges) or acknowledged but not yet written to the database (no `stored` message covering
 * the editor document's own clock, see docs/collaboration.md). `editorDoc` is the document the editor changes:
 * the provider's own, or with auto-save off the draft (whose unsaved changes the caller reports instead).
 */
export function useContentSaving(provider: HocuspocusProvider | null, editorDoc: Y.Doc | null): boolean {
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (!provider || !editorDoc) return;
    const ydoc = provider.document;
    let stored: { stateVector: string } | null = null;
    const recompute = () => {
      const ownClock = Y.getState(editorDoc.store, editorDoc.clientID);
      const durable = ownClock === 0 || (stored !== null && isStoredFor(stored, editorDoc));
      setSaving(provider.hasUnsyncedChanges || !durable);
    };
    const onStateless = ({ payload }: { payload: string }) => {
      const message = parseStatelessMessage(payload);
      if (message?.type !== 'stored') return;
      stored = message;
      recompute();
    };
    // After each transaction, not as an 'update': Yjs encodes a transaction again for every 'update' listener's
    // sake, a whole book when the offline copy fills the document.
    const onTransaction = (transaction: Y.Transaction) => {
      if (transaction.origin !== provider && transaction.changed.size > 0) recompute();
    };
    recompute();
    provider.on('unsyncedChanges', recompute);
    provider.on('stateless', onStateless);
    ydoc.on('afterTransaction', onTransaction);
    return () => {
      provider.off('unsyncedChanges', recompute);
      provider.off('stateless', onStateless);
      ydoc.off('afterTransaction', onTransaction);
    };
  }, [provider, editorDoc]);
  return saving;
}

/** With auto-save off: whether the draft holds changes the writer has not saved (always false otherwise). */
export function useUnsavedChanges(manualSave: ManualSave | undefined): boolean {
  return useSyncExternalStore(
    (listener) => manualSave?.subscribe(listener) ?? (() => {}),
    () => manualSave?.hasUnsavedChanges() ?? false,
  );
}
