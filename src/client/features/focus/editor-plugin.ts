import type { EditorPlugin } from '@client/features/editor';
import { FocusDimming } from './focus-dimming';
import { FocusOptions } from './FocusOptions';
import { TypewriterScrolling } from './typewriter';
import './focus.css';

/** Typewriter scrolling and focus dimming: their editor extensions and the toolbar's Typewriter and dimming options beside Focus. */
export const focusEditorPlugin: EditorPlugin = {
  name: 'focus',
  extensions: () => [TypewriterScrolling, FocusDimming],
  FocusOptions,
};
