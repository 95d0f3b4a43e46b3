import { Editor } from '@tiptap/core';
import { BubbleMenuPlugin } from '@tiptap/extension-bubble-menu';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Suggestion } from '@tiptap/suggestion';
import { afterEach, expect, it } from 'vitest';
import { createEditorExtensions } from '@shared/editor/extensions';
import { LatePluginViews } from './late-plugin-views';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

/** A plugin whose view counts how often it is made, updated and destroyed (an open palette, a menu). */
function counted(name: string, extra: Partial<ConstructorParameters<typeof Plugin>[0]> = {}) {
  const counts = { made: 0, updated: 0, destroyed: 0 };
  const plugin = new Plugin({
    key: new PluginKey(name),
    view: () => {
      counts.made += 1;
      return { update: () => void (counts.updated += 1), destroy: () => void (counts.destroyed += 1) };
    },
    ...extra,
  });
  return { plugin, counts };
}

function setup() {
  const palette = counted('palette');
  editor = new Editor({
    extensions: [...createEditorExtensions({ history: false }), LatePluginViews],
    content: '<p>Hello world.</p>',
  });
  editor.registerPlugin(palette.plugin, (plugin, plugins) => [...plugins, plugin]);
  return { e: editor, palette: palette.counts };
}

it('a menu registered after the editor was made does not change the plugin list or re-create the other views', () => {
  const { e, palette } = setup();
  const plugins = e.state.plugins;
  const element = document.createElement('div');
  e.registerPlugin(BubbleMenuPlugin({ pluginKey: 'selectionToolbar', editor: e, element }));
  const menu = counted('blockMenu');
  e.registerPlugin(menu.plugin);

  expect(e.state.plugins).toBe(plugins);
  expect(palette).toEqual({ made: 1, updated: 0, destroyed: 0 });
  expect(menu.counts.made).toBe(1);

  // The menu's view follows the editor as a view of the state's own plugins would.
  e.commands.insertContentAt(1, 'Oh. ');
  expect(menu.counts.updated).toBe(1);
  expect(palette.updated).toBe(1);

  e.unregisterPlugin('blockMenu');
  expect(menu.counts.destroyed).toBe(1);
  e.commands.insertContentAt(1, 'Ah. ');
  expect(menu.counts.updated).toBe(1);
  expect(e.state.plugins).toBe(plugins);
  expect(palette.destroyed).toBe(0);
});

it('a menu registered again after it was removed (a remount) gets a new view', () => {
  const { e } = setup();
  const first = counted('bubble');
  e.registerPlugin(first.plugin);
  e.unregisterPlugin(new PluginKey('unrelated'));
  expect(first.counts.destroyed).toBe(0);
  e.unregisterPlugin('bubble');
  const second = counted('bubble');
  e.registerPlugin(second.plugin);
  e.commands.insertContentAt(1, 'x');
  expect(first.counts).toEqual({ made: 1, updated: 0, destroyed: 1 });
  expect(second.counts).toEqual({ made: 1, updated: 1, destroyed: 0 });
});

it('a plugin with props or state is registered as TipTap does, and the menus still work after it', () => {
  const { e } = setup();
  const menu = counted('menu');
  e.registerPlugin(menu.plugin);
  const withProps = counted('underlines', { props: { handleClick: () => false } });
  const before = e.state.plugins.length;
  e.registerPlugin(withProps.plugin);
  expect(e.state.plugins.length).toBe(before + 1);
  // Reconfiguring re-creates the views of the state's plugins, the host's and so the menu's with them.
  e.commands.insertContentAt(1, 'x');
  expect(menu.counts).toEqual({ made: 2, updated: 1, destroyed: 1 });
  e.unregisterPlugin('underlines');
  expect(e.state.plugins.length).toBe(before);
  expect(withProps.counts.destroyed).toBe(1);
});

it('destroying the editor destroys the hosted views', () => {
  const { e } = setup();
  const menu = counted('menu');
  e.registerPlugin(menu.plugin);
  e.destroy();
  expect(menu.counts.destroyed).toBe(1);
});

it("a menu mounting while the writer types in the '/' palette leaves the palette open", () => {
  const lifecycle = (hosted: boolean) => {
    const events: string[] = [];
    const e = new Editor({
      extensions: [...createEditorExtensions({ history: false }), ...(hosted ? [LatePluginViews] : [])],
      content: '<p>Hello</p>',
    });
    e.registerPlugin(
      Suggestion({
        editor: e,
        char: '/',
        items: () => ['heading'],
        render: () => ({
          onStart: () => void events.push('open'),
          onUpdate: ({ query }) => void events.push(`query ${query}`),
          onExit: () => void events.push('closed'),
        }),
      }),
    );
    e.commands.insertContentAt(e.state.doc.content.size - 1, ' /he');
    e.registerPlugin(
      BubbleMenuPlugin({ pluginKey: 'selectionToolbar', editor: e, element: document.createElement('div') }),
    );
    e.commands.insertContentAt(e.state.doc.content.size - 1, 'a');
    e.destroy();
    return events.slice(0, -1);
  };
  const hosted = lifecycle(true);
  expect(hosted).not.toContain('closed');
  expect(hosted.at(-1)).toBe('query hea');
  // What a menu's own registration does: ProseMirror destroys every plugin view, the palette's with it.
  expect(lifecycle(false)).toContain('closed');
});
