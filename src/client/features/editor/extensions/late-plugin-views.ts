import { Extension, type Editor } from '@tiptap/core';
import { Plugin, PluginKey, type PluginView } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';

/** A plugin that has nothing but a key and a view: the floating menus' (selection toolbar, block menu, bubbles). */
function isViewOnly(plugin: Plugin): boolean {
  return (
    typeof plugin.spec.view === 'function' &&
    Object.entries(plugin.spec).every(
      ([name, value]) => name === 'key' || name === 'view' || value === undefined,
    )
  );
}

/**
 * Whether `nameOrKey` names the plugin: a string as TipTap's unregisterPlugin reads it (every key made from that
 * name: 'menu$', 'menu$1'), a PluginKey only its own plugin.
 */
function names(nameOrKey: string | PluginKey, plugin: Plugin): boolean {
  const key = (plugin as unknown as { key: string }).key;
  return typeof nameOrKey === 'string'
    ? key.startsWith(`${nameOrKey}$`)
    : key === (nameOrKey as unknown as { key: string }).key;
}

interface Hosted {
  plugin: Plugin;
  view: PluginView | null;
}

/** The views of plugins registered after the editor was made, kept by one plugin that is there from the start. */
class PluginViewHost {
  private readonly hosted: Hosted[] = [];
  private editorView: EditorView | null = null;

  readonly plugin = new Plugin({
    key: new PluginKey('latePluginViews'),
    view: (editorView) => {
      this.editorView = editorView;
      for (const entry of this.hosted) entry.view ??= entry.plugin.spec.view!(editorView);
      return {
        update: (view, previous) => {
          for (const entry of [...this.hosted]) entry.view?.update?.(view, previous);
        },
        destroy: () => {
          for (const entry of this.hosted) {
            entry.view?.destroy?.();
            entry.view = null;
          }
          this.editorView = null;
        },
      };
    },
  });

  add(plugin: Plugin): void {
    // As ProseMirror does for a plugin added to the state: its view is made at once, updated from the next state.
    this.hosted.push({ plugin, view: this.editorView ? plugin.spec.view!(this.editorView) : null });
  }

  /** Destroys and drops the views of the plugins `nameOrKey` names; false when none is hosted here. */
  remove(nameOrKey: string | PluginKey): boolean {
    const leaving = this.hosted.filter((entry) => names(nameOrKey, entry.plugin));
    for (const entry of leaving) {
      this.hosted.splice(this.hosted.indexOf(entry), 1);
      entry.view?.destroy?.();
    }
    return leaving.length > 0;
  }
}

interface LatePluginViewsStorage {
  host: PluginViewHost;
}

/**
 * Plugins made of a view only (the floating menus mount theirs with their React component, after the editor was
 * made) join the editor without changing its plugin list. `editor.registerPlugin` reconfigures the state, and
 * ProseMirror then destroys and re-creates every plugin view: the '/' palette's closes it mid-query, and the
 * menus could not be mounted while the writer types. Their views are kept here instead, in one plugin that is in
 * the editor from the start; any other plugin is registered as TipTap does.
 */
export const LatePluginViews = Extension.create<object, LatePluginViewsStorage>({
  name: 'latePluginViews',

  addStorage() {
    return { host: new PluginViewHost() };
  },

  addProseMirrorPlugins() {
    return [this.storage.host.plugin];
  },

  onBeforeCreate() {
    const { host } = this.storage;
    const editor: Editor = this.editor;
    const register = editor.registerPlugin.bind(editor);
    const unregister = editor.unregisterPlugin.bind(editor);
    editor.registerPlugin = (plugin, handlePlugins) => {
      if (handlePlugins || !isViewOnly(plugin)) return register(plugin, handlePlugins);
      host.add(plugin);
      return editor.state;
    };
    editor.unregisterPlugin = (nameOrKey) => {
      if (editor.isDestroyed) return undefined;
      const removedHere = ([] as (string | PluginKey)[])
        .concat(nameOrKey)
        .map((name) => host.remove(name))
        .some(Boolean);
      // TipTap's own leaves the state as it is (no reconfiguration) when no plugin of the state is named.
      return unregister(nameOrKey) ?? (removedHere ? editor.state : undefined);
    };
  },
});
