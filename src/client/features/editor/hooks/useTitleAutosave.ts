import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { AUTOSAVE_DEBOUNCE_MS } from '@shared/constants';
import { toast } from '@client/components/ui/use-toast';
import { ApiError, apiRequest, errorMessage } from '@client/lib/api';
import { documentQueryKey, type EditorDocument } from './useDocument';

/** Waits between attempts after a failed title save: 1 s, 2 s, 4 s … at most 30 s. */
const TITLE_RETRY_FIRST_MS = 1_000;
const TITLE_RETRY_MAX_MS = 30_000;

export function titleRetryDelay(failures: number): number {
  return Math.min(TITLE_RETRY_FIRST_MS * 2 ** Math.max(0, failures - 1), TITLE_RETRY_MAX_MS);
}

/** A refusal that sending the same title again cannot change (a retry waits for the writer to edit it). */
function isFinalRefusal(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 401 &&
    error.status !== 408 &&
    error.status !== 429
  );
}

/**
 * The title input's state, saved with PATCH /api/documents/:id after AUTOSAVE_DEBOUNCE_MS of inactivity
 * (the 2 s autosave pause). `pending` is true from the first keystroke until the server answered. A save that
 * fails is kept: `unsaved` turns true and the save is retried with backoff (and at once when the browser
 * comes back online) until the server stores it, so a rename made offline is not lost.
 */
export function useTitleAutosave(documentId: string, serverTitle: string) {
  const queryClient = useQueryClient();
  const [title, setTitleState] = useState(serverTitle);
  const [pending, setPending] = useState(false);
  const [unsaved, setUnsaved] = useState(false);
  const [lastSavedAt, setLastSavedAt] = useState<Date | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const dirty = useRef(false);
  const failures = useRef(0);
  const latestTitle = useRef(serverTitle);
  const mounted = useRef(true);
  /** The latest save, for the retry a failed save schedules of itself. */
  const saveRef = useRef<(() => Promise<void>) | null>(null);

  // A title changed elsewhere (another session, refetch) is taken over unless the user is editing it.
  useEffect(() => {
    if (!dirty.current) {
      setTitleState(serverTitle);
      latestTitle.current = serverTitle;
    }
  }, [serverTitle]);

  const schedule = useCallback((run: () => void, ms: number) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(run, ms);
  }, []);

  const save = useCallback(async (): Promise<void> => {
    timer.current = null;
    const value = latestTitle.current;
    try {
      const saved = await apiRequest<EditorDocument>('PATCH', `/api/documents/${documentId}`, {
        title: value,
      });
      failures.current = 0;
      if (latestTitle.current === value) {
        dirty.current = false;
        setPending(false);
        setUnsaved(false);
      }
      setLastSavedAt(new Date());
      queryClient.setQueryData<EditorDocument>(documentQueryKey(documentId), (old) =>
        old ? { ...old, title: saved?.title ?? value, updated_at: saved?.updated_at ?? old.updated_at } : old,
      );
      void queryClient.invalidateQueries({ queryKey: ['/api/documents'], exact: true });
    } catch (error) {
      failures.current += 1;
      setPending(false);
      setUnsaved(true);
      // One notice per failing streak; the retries are silent and the header says "Unsaved changes".
      if (failures.current === 1) {
        toast({ title: 'Error saving document', description: errorMessage(error), variant: 'destructive' });
      }
      if (mounted.current && !isFinalRefusal(error) && latestTitle.current === value && !timer.current) {
        schedule(() => void saveRef.current?.(), titleRetryDelay(failures.current));
      }
    }
  }, [documentId, queryClient, schedule]);

  useEffect(() => {
    saveRef.current = save;
  }, [save]);

  const setTitle = useCallback(
    (value: string) => {
      dirty.current = true;
      latestTitle.current = value;
      setTitleState(value);
      setPending(true);
      schedule(() => void save(), AUTOSAVE_DEBOUNCE_MS);
    },
    [save, schedule],
  );

  /** Saves now (the header's Save button, the browser coming back online). */
  const retryNow = useCallback(() => {
    if (!dirty.current) return;
    if (timer.current) clearTimeout(timer.current);
    void save();
  }, [save]);

  useEffect(() => {
    const onOnline = () => {
      if (failures.current > 0) retryNow();
    };
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [retryNow]);

  // Leaving the page flushes a pending (or failed) save instead of dropping it.
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      if (timer.current) {
        clearTimeout(timer.current);
        timer.current = null;
        if (dirty.current) void save();
      }
    };
  }, [save]);

  return { title, setTitle, pending, unsaved, retryNow, lastSavedAt };
}
