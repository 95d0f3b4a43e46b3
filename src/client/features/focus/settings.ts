import { useSyncExternalStore } from 'react';

/** What focus dimming keeps at full strength: the sentence holding the caret, or its whole paragraph. */
export type DimUnit = 'sentence' | 'paragraph';

export interface FocusSettings {
  /** The caret's line stays at the typewriter line; the page scrolls instead. */
  typewriter: boolean;
  /** Everything but the current sentence or paragraph is drawn in a quieter colour. */
  dimming: boolean;
  dimUnit: DimUnit;
}

/** Both off for a writer who never chose: they change how the page moves and looks. */
export const DEFAULT_FOCUS_SETTINGS: FocusSettings = {
  typewriter: false,
  dimming: false,
  dimUnit: 'sentence',
};

/**
 * This browser's memory of the choices, like the Outline's open state: a view preference of the device (a
 * laptop for drafting, a phone for reading), not of the account.
 */
const FOCUS_STORAGE_KEYS = {
  typewriter: 'quillwright.editor.typewriter',
  dimming: 'quillwright.editor.focusDimming',
} as const;

function read(): FocusSettings {
  try {
    const typewriter = window.localStorage.getItem(FOCUS_STORAGE_KEYS.typewriter) === 'on';
    const dimming = window.localStorage.getItem(FOCUS_STORAGE_KEYS.dimming);
    return {
      typewriter,
      dimming: dimming === 'sentence' || dimming === 'paragraph',
      dimUnit: dimming === 'paragraph' || dimming === 'paragraph-off' ? 'paragraph' : 'sentence',
    };
  } catch {
    return DEFAULT_FOCUS_SETTINGS;
  }
}

function write(settings: FocusSettings): void {
  try {
    window.localStorage.setItem(FOCUS_STORAGE_KEYS.typewriter, settings.typewriter ? 'on' : 'off');
    // One key holds both the switch and the unit, so turning dimming off keeps the unit for next time.
    window.localStorage.setItem(
      FOCUS_STORAGE_KEYS.dimming,
      settings.dimming ? settings.dimUnit : `${settings.dimUnit}-off`,
    );
  } catch {
    // storage unavailable: the choice holds until the page is left
  }
}

let current: FocusSettings | null = null;
const listeners = new Set<() => void>();

export function focusSettings(): FocusSettings {
  current ??= read();
  return current;
}

export function setFocusSettings(change: Partial<FocusSettings>): void {
  current = { ...focusSettings(), ...change };
  write(current);
  for (const listener of listeners) listener();
}

/** Calls the listener whenever the settings change, in this tab or (through storage) in another one. */
export function subscribeFocusSettings(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key !== FOCUS_STORAGE_KEYS.typewriter && event.key !== FOCUS_STORAGE_KEYS.dimming) return;
    current = read();
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useFocusSettings(): FocusSettings {
  return useSyncExternalStore(subscribeFocusSettings, focusSettings);
}
