import Collaboration from '@tiptap/extension-collaboration';
import type { Plugin, PluginView } from '@tiptap/pm/state';
import { ySyncPluginKey } from '@tiptap/y-tiptap';

/**
 * The Yjs binding's view copies the editor document into the shared Y.Doc after every transaction, including
 * those that only change decorations or the selection (grammar underlines, suggestion cards, menus): a Yjs
 * transaction that compares the whole document, about a millisecond at 100,000 words, on every grammar answer.
 * When the document is the same object as before the transaction there is nothing to copy, so the binding is
 * not asked.
 */
function skipUnchangedDocuments(plugin: Plugin): Plugin {
  const createView = plugin.spec.view;
  if (!createView) return plugin;
  (plugin.spec as { view: typeof createView }).view = (view) => {
    const inner: PluginView = createView(view);
    return {
      update(updated, previous) {
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

/** TipTap's Collaboration extension, with the binding left alone on transactions that keep the document. */
export const DocumentCollaboration = Collaboration.extend({
  addProseMirrorPlugins() {
    const plugins = this.parent?.() ?? [];
    return plugins.map((plugin) =>
      plugin.spec.key === ySyncPluginKey ? skipUnchangedDocuments(plugin) : plugin,
    );
  },
});
