import type { HocuspocusProvider } from '@hocuspocus/provider';
import { useEffect, useState } from 'react';
import * as Y from 'yjs';
import { isStoredFor, parseStatelessMessage } from '@shared/editor/collab-protocol';

/**
 * True while this editor has changes the server has not yet stored: either not yet acknowledged by the socket
 * (provider.unsyncedChanges) or acknowledged but not yet written to the database (no `stored` message covering
 * this Y.Doc's own clock, see docs/collaboration.md).
 */
export function useContentSaving(provider: HocuspocusProvider | null): boolean {
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (!provider) return;
    const ydoc = provider.document;
    let stored: { stateVector: string } | null = null;
    const recompute = () => {
      const ownClock = Y.getState(ydoc.store, ydoc.clientID);
      const durable = ownClock === 0 || (stored !== null && isStoredFor(stored, ydoc));
      setSaving(provider.hasUnsyncedChanges || !durable);
    };
    const onStateless = ({ payload }: { payload: string }) => {
      const message = parseStatelessMessage(payload);
      if (message?.type !== 'stored') return;
      stored = message;
      recompute();
    };
    const onUpdate = (_update: Uint8Array, origin: unknown) => {
      if (origin !== provider) recompute();
    };
    recompute();
    provider.on('unsyncedChanges', recompute);
    provider.on('stateless', onStateless);
    ydoc.on('update', onUpdate);
    return () => {
      provider.off('unsyncedChanges', recompute);
      provider.off('stateless', onStateless);
      ydoc.off('update', onUpdate);
    };
  }, [provider]);
  return saving;
}
