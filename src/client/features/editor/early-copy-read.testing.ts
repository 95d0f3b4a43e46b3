import type { EarlyCopyRead, StoredUpdates } from './offline-copy-store';

/**
 * For tests: an early read of the offline copy (readCopyEarly) still under way, holding `update`, that lands when
 * `finish` is called, the way readCopyEarly's own read lands (its value set, then the promise resolved).
 */
export function pendingEarlyRead(update: Uint8Array): { early: EarlyCopyRead; finish: () => void } {
  const stored: StoredUpdates = { updates: [update], lastKey: -1, count: 1 };
  let finish = () => {};
  const early: EarlyCopyRead = {
    value: undefined,
    read: new Promise((resolve) => {
      finish = () => {
        early.value = stored;
        resolve(stored);
      };
    }),
  };
  return { early, finish };
}
