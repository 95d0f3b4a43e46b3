import Collaboration from '@tiptap/extension-collaboration';
import type { Node as PmNode } from '@tiptap/pm/model';
import type { Plugin, PluginView } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import { ySyncPluginKey } from '@tiptap/y-tiptap';

interface Binding {
  _forceRerender: () => void;
}

/**
 * Runs `createView` without the binding rendering the whole document from Yjs again. ProseMirror makes every
 * plugin's view anew whenever the editor's plugins change (a menu or live grammar registering its plugin as the
 * editor opens), and the binding's view, when made, renders the Yjs document into the editor from scratch:
 * on a book, about 20–100 ms each time (a profile of opening from the offline copy had four such renders,
 * 228 ms). Within one editor view and one document that render changes nothing: the binding's map from Yjs
 * types to nodes is still the document's.
 */
function createWithoutRerender(view: EditorView, createView: (view: EditorView) => PluginView): PluginView {
  const binding = (ySyncPluginKey.getState(view.state) as { binding?: Binding } | undefined)?.binding;
  if (!binding) return createView(view);
  const rerender = binding._forceRerender;
  binding._forceRerender = () => {};
  try {
    return createView(view);
  } finally {
    binding._forceRerender = rerender;
  }
}

/**
 * The Yjs binding's view, with two costs of a long document removed.
 *
 * It copies the editor document into the shared Y.Doc after every transaction, including those that only change
 * decorations or the selection (grammar underlines, suggestion cards, menus): a Yjs transaction that compares
 * the whole document, about a millisecond at 100,000 words, on every grammar answer. When the document is the
 * same object as before the transaction there is nothing to copy, so the binding is not asked.
 *
 * Made again for the same editor view and document (the plugins changed), it does not render the document anew
 * (see createWithoutRerender). A new editor view, or a document changed meanwhile, is rendered as before.
 */
function withBindingView(plugin: Plugin): Plugin {
  const createView = plugin.spec.view;
  if (!createView) return plugin;
  let lastView: EditorView | null = null;
  let lastDoc: PmNode | null = null;
  (plugin.spec as { view: typeof createView }).view = (view) => {
    const same = view === lastView && view.state.doc === lastDoc;
    const inner: PluginView = same ? createWithoutRerender(view, createView) : createView(view);
    lastView = view;
    lastDoc = view.state.doc;
    return {
      update(updated, previous) {
        lastDoc = updated.state.doc;
        if (updated.state.doc === previous.doc) return;
        inner.update?.(updated, previous);
      },
      destroy() {
        inner.destroy?.();
      },
    };
  };
  return plugin;
}

/**
 * TipTap's Collaboration extension, with the binding left alone on transactions that keep the document and not
 * rendering the document again when the editor's plugins change.
 */
export const DocumentCollaboration = Collaboration.extend({
  addProseMirrorPlugins() {
    const plugins = this.parent?.() ?? [];
    return plugins.map((plugin) => (plugin.spec.key === ySyncPluginKey ? withBindingView(plugin) : plugin));
  },
});
