import { Extension } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import { focusSettings, subscribeFocusSettings } from './settings';

/** Where the caret's line is held, as a share of the window's height from its top. */
const TYPEWRITER_LINE = 0.45;
/** Below this the caret is where it should be: a smaller scroll would only make the text shiver. */
const SETTLED_PX = 2;
/** On the editor's body while typewriter scrolling is on: focus.css gives the end of the text room to rise. */
const TYPEWRITER_CLASS = 'qw-typewriter';

const typewriterKey = new PluginKey<boolean>('typewriterScrolling');
const SETTINGS_CHANGED = 'typewriterSettingsChanged';

const prefersReducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** Scrolls the window so the caret's line sits at the typewriter line; returns false when it cannot measure it. */
function scrollCaretToLine(view: EditorView): boolean {
  let caret: { top: number; bottom: number };
  try {
    caret = view.coordsAtPos(view.state.selection.head, 1);
  } catch {
    return false;
  }
  const delta = (caret.top + caret.bottom) / 2 - window.innerHeight * TYPEWRITER_LINE;
  if (Math.abs(delta) < SETTLED_PX) return true;
  window.scrollTo({ top: window.scrollY + delta, behavior: prefersReducedMotion() ? 'instant' : 'smooth' });
  return true;
}

/**
 * Typewriter scrolling: while the writer types or moves the caret with the keys, the caret's line stays at the
 * typewriter line and the page scrolls instead. It takes over ProseMirror's "scroll the selection into view",
 * which only the writer's own typing, keys and commands ask for: a collaborator's change, a click (which would
 * move the text under the mouse mid-selection) and the Outline's jumps do not, so they never scroll the page.
 */
export const TypewriterScrolling = Extension.create({
  name: 'typewriterScrolling',

  addProseMirrorPlugins() {
    return [
      new Plugin<boolean>({
        key: typewriterKey,
        state: {
          init: () => focusSettings().typewriter,
          apply: (tr, previous) => (tr.getMeta(SETTINGS_CHANGED) ? focusSettings().typewriter : previous),
        },
        props: {
          attributes: (state): Record<string, string> =>
            typewriterKey.getState(state) ? { class: TYPEWRITER_CLASS } : {},
          handleScrollToSelection: (view) =>
            typewriterKey.getState(view.state) === true && scrollCaretToLine(view),
        },
        view: (view) => {
          const unsubscribe = subscribeFocusSettings(() => {
            if (view.isDestroyed) return;
            view.dispatch(view.state.tr.setMeta(SETTINGS_CHANGED, true));
            // Turned on while writing: the caret's line goes to its place at once.
            if (typewriterKey.getState(view.state) && view.hasFocus()) scrollCaretToLine(view);
          });
          return { destroy: unsubscribe };
        },
      }),
    ];
  },
});
