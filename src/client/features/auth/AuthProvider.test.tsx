import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AUTH_REFRESH_MARGIN_TICKS, AUTH_TICK_MS } from '@shared/constants';
import { useAuth } from './AuthProvider';
import { needsRefresh } from '@client/lib/session-store';
import type { AuthSession } from './types';

describe('useAuth', () => {
  it('throws a clear message outside its provider', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => renderHook(() => useAuth())).toThrow('useAuth must be used within an AuthProvider');
    spy.mockRestore();
  });
});

describe('needsRefresh', () => {
  const margin = (AUTH_TICK_MS * AUTH_REFRESH_MARGIN_TICKS) / 1000;
  const at = (secondsLeft: number) => ({ expires_at: 1_000 + secondsLeft }) as AuthSession;
  it(`refreshes when ${margin} s or less remain, not before`, () => {
    expect(needsRefresh(at(margin + 1), 1_000_000)).toBe(false);
    expect(needsRefresh(at(margin), 1_000_000)).toBe(true);
    expect(needsRefresh(at(-5), 1_000_000)).toBe(true);
  });
});
