import { useSyncExternalStore } from 'react';

/** The writer's "Live grammar check" switch (on unless turned off), kept in this browser. */
const KEY = 'quillwright.ai.liveGrammar';
const listeners = new Set<() => void>();

function read(): boolean {
  try {
    return window.localStorage.getItem(KEY) !== 'off';
  } catch {
    return true;
  }
}

export function setLiveGrammarEnabled(enabled: boolean): void {
  try {
    window.localStorage.setItem(KEY, enabled ? 'on' : 'off');
  } catch {
    // storage unavailable: the switch still works for this page
  }
  for (const listener of listeners) listener();
}

export function useLiveGrammarEnabled(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      window.addEventListener('storage', listener);
      return () => {
        listeners.delete(listener);
        window.removeEventListener('storage', listener);
      };
    },
    read,
    () => true,
  );
}
