import { Editor } from '@tiptap/core';
import { ySyncPluginKey } from '@tiptap/y-tiptap';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEditorExtensions } from '@shared/editor/extensions';
import { LINK_BEHAVIOUR_PLUGIN_COUNT, LinkBehaviour } from './link-behaviour';
import { linkBehaviourPlugins } from './link-behaviour-plugins';

let editor: Editor | null = null;
afterEach(() => {
  editor?.destroy();
  editor = null;
});

function type(target: Editor, text: string) {
  for (const char of text) target.view.dispatch(target.state.tr.insertText(char));
}

describe('link behaviour after the first paint', () => {
  it('has a stand-in for each of TipTap Link’s plugins', () => {
    editor = new Editor({ extensions: createEditorExtensions({ history: false }) });
    expect(linkBehaviourPlugins(editor)).toHaveLength(LINK_BEHAVIOUR_PLUGIN_COUNT);
  });

  it('autolinks a typed URL once its code is here, without changing the editor’s plugins', async () => {
    editor = new Editor({
      extensions: [...createEditorExtensions({ history: false }), LinkBehaviour],
      content: '<p>Visit</p>',
    });
    const plugins = editor.state.plugins;
    const target = editor;
    target.commands.setTextSelection(6);
    type(target, ' example.com ');
    await vi.waitFor(() => {
      // Typed before the code arrived: stays plain text, as the comment in link-behaviour.ts says.
      type(target, 'and https://a.test/x ');
      expect(target.getHTML()).toContain(
        '<a target="_blank" rel="noopener noreferrer nofollow" href="https://a.test/x">',
      );
    });
    expect(target.getHTML()).not.toContain('href="http://example.com"');
    expect(target.state.plugins).toBe(plugins);
    // Not a link: a bare word and a disallowed scheme.
    type(target, 'localhost javascript:alert(1) ');
    expect(target.state.doc.textContent).toContain('localhost');
    expect(target.getHTML().match(/<a /g)).toHaveLength(1);
  });

  it('leaves a URL that arrives through Yjs as it came (its author’s editor decided), and links one typed here', async () => {
    editor = new Editor({
      extensions: [...createEditorExtensions({ history: false }), LinkBehaviour],
      content: '<p>Visit</p>',
    });
    const target = editor;
    target.commands.setTextSelection(6);
    await vi.waitFor(() => {
      type(target, ' https://local.test/b ');
      expect(target.getHTML()).toContain('href="https://local.test/b"');
    });
    // As y-tiptap marks the transactions it makes from a Yjs change.
    target.view.dispatch(target.state.tr.insertText('https://remote.test/a ').setMeta(ySyncPluginKey, {}));
    expect(target.state.doc.textContent).toContain('https://remote.test/a');
    expect(target.getHTML()).not.toContain('href="https://remote.test/a"');
  });
});
