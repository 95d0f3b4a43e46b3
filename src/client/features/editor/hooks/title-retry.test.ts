import { describe, expect, it } from 'vitest';
import { titleRetryDelay } from './useTitleAutosave';

describe('title save retry', () => {
  it('waits 1, 2, 4, 8 … seconds after each failure, never more than 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(titleRetryDelay)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });
});
