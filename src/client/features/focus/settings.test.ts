import { beforeEach, expect, it, vi } from 'vitest';

beforeEach(() => {
  window.localStorage.clear();
  vi.resetModules();
});

it('starts with both off and remembers each choice in this browser', async () => {
  const first = await import('./settings');
  expect(first.focusSettings()).toEqual(first.DEFAULT_FOCUS_SETTINGS);
  first.setFocusSettings({ typewriter: true, dimming: true, dimUnit: 'paragraph' });

  vi.resetModules();
  const reloaded = await import('./settings');
  expect(reloaded.focusSettings()).toEqual({ typewriter: true, dimming: true, dimUnit: 'paragraph' });

  // Turning dimming off keeps the unit for the next time it is turned on.
  reloaded.setFocusSettings({ dimming: false });
  vi.resetModules();
  const again = await import('./settings');
  expect(again.focusSettings()).toEqual({ typewriter: true, dimming: false, dimUnit: 'paragraph' });
});
