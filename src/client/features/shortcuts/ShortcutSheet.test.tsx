import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { KEYMAP, shortcutLabel } from '@shared/keymap';
import { SLASH_COMMANDS } from '@client/features/editor';
import { ShortcutSheet } from './ShortcutSheet';

afterEach(cleanup);

describe('the keyboard shortcut sheet', () => {
  it('lists every shortcut of the keymap with its keys', () => {
    render(<ShortcutSheet open onOpenChange={() => {}} />);
    const rows = screen.getAllByTestId('shortcut-row');
    expect(rows).toHaveLength(Object.keys(KEYMAP).length);
    for (const shortcut of Object.values(KEYMAP)) {
      const row = rows.find((r) => r.textContent?.startsWith(shortcut.label));
      expect(row, shortcut.label).toBeDefined();
      expect(within(row!).getByText(shortcutLabel(shortcut.keys)).tagName).toBe('KBD');
    }
  });

  it('shows the keys the editor binds: every palette shortcut is in the keymap', () => {
    const keymapKeys = new Set(Object.values(KEYMAP).map((shortcut) => shortcut.keys));
    for (const command of SLASH_COMMANDS) {
      if (!command.keymap) continue;
      expect(keymapKeys, command.title).toContain(command.keymap);
      expect(command.shortcut).toBe(shortcutLabel(command.keymap));
    }
  });
});
