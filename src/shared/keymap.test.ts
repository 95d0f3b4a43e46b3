import { describe, expect, it } from 'vitest';
import { ariaKeyShortcuts, KEYMAP, matchesShortcut, SHORTCUT_GROUPS, shortcutLabel } from './keymap';

function key(init: Partial<KeyboardEvent> & { key: string }): KeyboardEvent {
  return {
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    code: '',
    ...init,
  } as KeyboardEvent;
}

describe('the keymap', () => {
  it('gives every key combination one meaning across the app', () => {
    const keys = Object.values(KEYMAP).map((shortcut) => shortcut.keys.toLowerCase());
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps Ctrl/⌘+K for the quick switcher and gives AI Complete a key of its own', () => {
    expect(KEYMAP.quickSwitcher.keys).toBe('Mod-k');
    expect(KEYMAP.quickSwitcher.editorOnly).toBe(false);
    expect(KEYMAP.aiComplete.keys).not.toBe('Mod-k');
    expect(shortcutLabel(KEYMAP.aiComplete.keys, false)).toBe('Ctrl+Shift+Enter');
  });

  it('puts every shortcut in a group the sheet shows', () => {
    for (const shortcut of Object.values(KEYMAP)) expect(SHORTCUT_GROUPS).toContain(shortcut.group);
  });

  it('labels keys for the platform', () => {
    expect(shortcutLabel('Mod-k', false)).toBe('Ctrl+K');
    expect(shortcutLabel('Mod-k', true)).toBe('⌘K');
    expect(shortcutLabel('Mod-Alt-1', false)).toBe('Ctrl+Alt+1');
    expect(shortcutLabel('Mod-Shift-Enter', true)).toBe('⌘⇧Enter');
    expect(shortcutLabel('Mod-ArrowRight', false)).toBe('Ctrl+→');
    expect(shortcutLabel('?', false)).toBe('?');
    expect(shortcutLabel('Mod-/', false)).toBe('Ctrl+/');
    expect(ariaKeyShortcuts('Mod-j')).toBe('Control+J Meta+J');
  });

  it('matches Ctrl or ⌘ as Mod, and Alt and Shift exactly', () => {
    expect(matchesShortcut(key({ key: 'k', ctrlKey: true }), 'Mod-k')).toBe(true);
    expect(matchesShortcut(key({ key: 'K', metaKey: true }), 'Mod-k')).toBe(true);
    expect(matchesShortcut(key({ key: 'k' }), 'Mod-k')).toBe(false);
    expect(matchesShortcut(key({ key: 'K', ctrlKey: true, shiftKey: true }), 'Mod-k')).toBe(false);
    expect(matchesShortcut(key({ key: 'S', ctrlKey: true, shiftKey: true }), KEYMAP.save.keys)).toBe(false);
    expect(
      matchesShortcut(key({ key: 'Enter', ctrlKey: true, shiftKey: true }), KEYMAP.aiComplete.keys),
    ).toBe(true);
    expect(matchesShortcut(key({ key: 'Enter', ctrlKey: true }), KEYMAP.aiComplete.keys)).toBe(false);
  });

  it('matches Alt shortcuts by the physical key (macOS Option changes the character)', () => {
    expect(
      matchesShortcut(key({ key: '˙', code: 'KeyH', metaKey: true, altKey: true }), KEYMAP.history.keys),
    ).toBe(true);
    expect(matchesShortcut(key({ key: '¡', code: 'Digit1', ctrlKey: true, altKey: true }), 'Mod-Alt-1')).toBe(
      true,
    );
  });

  it('matches "?" as typed, with or without Shift, and not with Ctrl', () => {
    expect(matchesShortcut(key({ key: '?', shiftKey: true }), KEYMAP.shortcutSheet.keys)).toBe(true);
    expect(matchesShortcut(key({ key: '?' }), KEYMAP.shortcutSheet.keys)).toBe(true);
    expect(matchesShortcut(key({ key: '/', shiftKey: false }), KEYMAP.shortcutSheet.keys)).toBe(false);
    expect(matchesShortcut(key({ key: '?', ctrlKey: true }), KEYMAP.shortcutSheet.keys)).toBe(false);
  });
});
