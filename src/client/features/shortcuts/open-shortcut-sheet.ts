/** Lets a button anywhere on the page open the sheet that ShortcutSheetHost renders. */
const listeners = new Set<() => void>();

export function onShortcutSheetRequested(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function openShortcutSheet(): void {
  for (const listener of listeners) listener();
}
