import { useCallback, useEffect, useState } from 'react';
import type { Preferences } from '@shared/settings-defaults';
import { useUserSettings } from '@client/features/settings';
import {
  DEFAULT_EDITOR_FONT_FAMILY,
  DEFAULT_EDITOR_FONT_SIZE_PX,
  type EDITOR_FONT_FAMILIES,
} from '@shared/constants';

type EditorFontFamily = (typeof EDITOR_FONT_FAMILIES)[number];

/** Account preference (inter | serif | mono) → the editor's base font, one of the toolbar's fonts. */
const FONT_FAMILY: Record<Preferences['fontFamily'], EditorFontFamily> = {
  inter: DEFAULT_EDITOR_FONT_FAMILY,
  serif: 'Georgia',
  mono: 'Courier New',
};

/** Account preference (small | medium | large) → the editor's base size in px, one of the toolbar's sizes. */
const FONT_SIZE_PX: Record<Preferences['fontSize'], number> = {
  small: 14,
  medium: DEFAULT_EDITOR_FONT_SIZE_PX,
  large: 18,
};

export function editorFontFromPreferences(preferences: Pick<Preferences, 'fontFamily' | 'fontSize'>) {
  return {
    fontFamily: FONT_FAMILY[preferences.fontFamily] ?? DEFAULT_EDITOR_FONT_FAMILY,
    fontSizePx: FONT_SIZE_PX[preferences.fontSize] ?? DEFAULT_EDITOR_FONT_SIZE_PX,
  };
}

/** A CSS font stack for one of the editor's fonts, falling back to a generic family of the same kind. */
export function fontStack(family: string): string {
  const generic = /courier/iu.test(family)
    ? 'ui-monospace, monospace'
    : /georgia|times/iu.test(family)
      ? 'ui-serif, serif'
      : 'ui-sans-serif, system-ui, sans-serif';
  return `"${family}", ${generic}`;
}

/** This browser's memory of the last known "Auto-save" preference, so an editor opens in the right mode at once. */
const AUTO_SAVE_HINT_KEY = 'quillwright.editor.autoSave';

function rememberedAutoSave(): boolean {
  try {
    return window.localStorage.getItem(AUTO_SAVE_HINT_KEY) !== 'off';
  } catch {
    return true;
  }
}

/**
 * The "Auto-save" preference (docs/decisions.md): the server's value once the settings have arrived, until then
 * (or offline) the last value this browser saw.
 */
export function useAutoSavePreference(): boolean {
  const { preferences, loaded } = useUserSettings();
  const autoSave = loaded ? preferences.autoSave : rememberedAutoSave();
  useEffect(() => {
    if (!loaded) return;
    try {
      window.localStorage.setItem(AUTO_SAVE_HINT_KEY, preferences.autoSave ? 'on' : 'off');
    } catch {
      // storage unavailable: the server's value still applies once loaded
    }
  }, [loaded, preferences.autoSave]);
  return autoSave;
}

/** This browser's memory of whether the Outline was open, so a long book opens with its outline beside it. */
const OUTLINE_OPEN_KEY = 'quillwright.editor.outlineOpen';

/** Whether the Outline is open, remembered in this browser across documents and visits. */
export function useOutlineOpen(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(() => {
    try {
      return window.localStorage.getItem(OUTLINE_OPEN_KEY) === 'on';
    } catch {
      return false;
    }
  });
  const change = useCallback((next: boolean) => {
    setOpen(next);
    try {
      window.localStorage.setItem(OUTLINE_OPEN_KEY, next ? 'on' : 'off');
    } catch {
      // storage unavailable: the panel stays as toggled until the page is left
    }
  }, []);
  return [open, change];
}
