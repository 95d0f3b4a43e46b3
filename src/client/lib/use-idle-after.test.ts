import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PAGE_EXTRAS_IDLE_TIMEOUT_MS, useIdleAfter } from './use-idle-after';

const browser = window as unknown as Record<string, unknown>;
let idle: { callback: () => void; timeout: number | undefined }[] = [];

beforeEach(() => {
  idle = [];
  browser.requestIdleCallback = (callback: () => void, options?: { timeout?: number }) =>
    idle.push({ callback, timeout: options?.timeout });
  browser.cancelIdleCallback = (handle: number) =>
    idle.splice(handle - 1, 1, { callback: () => {}, timeout: 0 });
});

afterEach(() => {
  delete browser.requestIdleCallback;
  delete browser.cancelIdleCallback;
});

it('turns true only once the condition holds and the browser has been idle, and stays true', () => {
  const { result, rerender } = renderHook(({ condition }) => useIdleAfter(condition), {
    initialProps: { condition: false },
  });
  expect(result.current).toBe(false);
  expect(idle).toHaveLength(0);

  rerender({ condition: true });
  expect(result.current).toBe(false);
  expect(idle).toHaveLength(1);
  expect(idle[0]!.timeout).toBe(PAGE_EXTRAS_IDLE_TIMEOUT_MS);

  act(() => idle[0]!.callback());
  expect(result.current).toBe(true);

  rerender({ condition: false });
  expect(result.current).toBe(true);
});

it('does not turn true after the component is gone or the condition stopped holding before idle time', () => {
  const { result, rerender } = renderHook(({ condition }) => useIdleAfter(condition), {
    initialProps: { condition: true },
  });
  rerender({ condition: false });
  // The first wait was cancelled (its entry replaced by a no-op).
  act(() => idle[0]!.callback());
  expect(result.current).toBe(false);
});
