import { Extension } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';

/**
 * The part of ProseMirror's DOM observer used here. It is not in prosemirror-view's public types; `flush()` is
 * what the view itself runs on 'selectionchange': it reads the browser's selection, if it moved since the view
 * last saw it, into the editor state (and takes any pending DOM mutations first).
 */
interface DomObserver {
  flush(): void;
}

function domObserverOf(view: EditorView): DomObserver | null {
  const observer = (view as unknown as { domObserver?: Partial<DomObserver> }).domObserver;
  return typeof observer?.flush === 'function' ? (observer as DomObserver) : null;
}

/** A keydown that belongs to an IME composition: its selection is the composition's business. */
function isComposing(event: KeyboardEvent): boolean {
  return event.isComposing || event.keyCode === 229;
}

/**
 * Every key acts on the selection the writer sees.
 *
 * ProseMirror learns that the browser's selection moved (a click, Ctrl+End, Shift+arrows) from the document's
 * 'selectionchange' event, which the browser sends as a separate, low-priority task. Chromium runs input first,
 * so on a busy page (a long book, a slow machine) the next keydown can reach the editor before that event: Enter
 * or Delete then act on the previous selection, and a word that was selected a moment ago is replaced although
 * the caret is already elsewhere. Before any key handler runs, the browser's selection is read in.
 */
export const SelectionBeforeKeys = Extension.create({
  name: 'selectionBeforeKeys',
  // Ahead of every keymap, so that all of them see the selection read in.
  priority: 10_000,

  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: new PluginKey('selectionBeforeKeys'),
        props: {
          handleKeyDown(view, event) {
            if (!isComposing(event) && view.hasFocus()) domObserverOf(view)?.flush();
            return false;
          },
        },
      }),
    ];
  },
});
