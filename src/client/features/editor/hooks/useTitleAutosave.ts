import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { AUTOSAVE_DEBOUNCE_MS } from '@shared/constants';
import { toast } from '@client/components/ui/use-toast';
import { apiRequest, errorMessage } from '@client/lib/api';
import { documentQueryKey, type EditorDocument } from './useDocument';

/**
 * The title input's state, saved with PATCH /api/documents/:id after AUTOSAVE_DEBOUNCE_MS of inactivity
 * (SPEC §4). `pending` is true from the first keystroke until the server answered.
 */
export function useTitleAutosave(documentId: string, serverTitle: string) {
  const queryClient = useQueryClient();
  const [title, setTitleState] = useState(serverTitle);
  const [pending, setPending] = useState(false);
  const [lastSavedAt, setLastSavedAt] = useState<Date | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const dirty = useRef(false);
  const latestTitle = useRef(serverTitle);

  // A title changed elsewhere (another session, refetch) is taken over unless the user is editing it.
  useEffect(() => {
    if (!dirty.current) {
      setTitleState(serverTitle);
      latestTitle.current = serverTitle;
    }
  }, [serverTitle]);

  const save = useCallback(async () => {
    timer.current = null;
    const value = latestTitle.current;
    try {
      const saved = await apiRequest<EditorDocument>('PATCH', `/api/documents/${documentId}`, {
        title: value,
      });
      if (latestTitle.current === value) {
        dirty.current = false;
        setPending(false);
      }
      setLastSavedAt(new Date());
      queryClient.setQueryData<EditorDocument>(documentQueryKey(documentId), (old) =>
        old ? { ...old, title: saved?.title ?? value, updated_at: saved?.updated_at ?? old.updated_at } : old,
      );
      void queryClient.invalidateQueries({ queryKey: ['/api/documents'], exact: true });
    } catch (error) {
      setPending(false);
      toast({ title: 'Error saving document', description: errorMessage(error), variant: 'destructive' });
    }
  }, [documentId, queryClient]);

  const setTitle = useCallback(
    (value: string) => {
      dirty.current = true;
      latestTitle.current = value;
      setTitleState(value);
      setPending(true);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void save(), AUTOSAVE_DEBOUNCE_MS);
    },
    [save],
  );

  // Leaving the page flushes a pending save instead of dropping it.
  useEffect(
    () => () => {
      if (timer.current) {
        clearTimeout(timer.current);
        void save();
      }
    },
    [save],
  );

  return { title, setTitle, pending, lastSavedAt };
}
