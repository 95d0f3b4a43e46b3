import { Extension } from '@tiptap/core';
import { StandInPlugin } from './stand-in-plugin';

/** As many as linkBehaviourPlugins gives (link-behaviour.test.ts checks): paste rule, autolink, click, paste. */
export const LINK_BEHAVIOUR_PLUGIN_COUNT = 4;

interface LinkBehaviourStorage {
  standIns: StandInPlugin[];
}

/**
 * The link mark's behaviours (shared/editor/link-mark.ts has only its schema and commands): autolink, links
 * made from pasted URLs, click handling. They need linkifyjs, which typing does not: fetched as the editor is
 * created and handed to stand-ins that sit where TipTap's Link extension puts its plugins (same priority, just
 * before the mark's own ArrowRight exit key). A URL typed in the moment before they arrive stays plain text.
 */
export const LinkBehaviour = Extension.create<object, LinkBehaviourStorage>({
  name: 'linkBehaviour',
  priority: 1000,

  addStorage() {
    return {
      standIns: Array.from(
        { length: LINK_BEHAVIOUR_PLUGIN_COUNT },
        () => new StandInPlugin({ props: ['handleClick', 'handlePaste'], domEvents: ['drop', 'paste'] }),
      ),
    };
  },

  addProseMirrorPlugins() {
    return this.storage.standIns.map((standIn) => standIn.plugin);
  },

  onCreate() {
    const { editor, storage } = this;
    import('./link-behaviour-plugins').then(
      ({ linkBehaviourPlugins }) => {
        if (editor.isDestroyed) return;
        const plugins = linkBehaviourPlugins(editor);
        StandInPlugin.adopt(
          editor.view,
          storage.standIns
            .slice(0, plugins.length)
            .map((standIn, index) => [standIn, plugins[index]!] as const),
        );
        // More plugins than stand-ins (after a TipTap update): registered, which re-creates the plugin views.
        for (const plugin of plugins.slice(storage.standIns.length)) editor.registerPlugin(plugin);
      },
      // Offline: links are still kept, shown and made from the toolbar; only the automatic ones are missing.
      () => undefined,
    );
  },
});
