import { act, renderHook, waitFor } from '@testing-library/react';
import { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createEditorExtensions } from '@shared/editor/extensions';
import { documentStats, useEditorStats } from './useEditorStats';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

function statsOf(content: string | object) {
  editor = new Editor({ extensions: createEditorExtensions({ history: false }), content });
  return documentStats(editor.state.doc);
}

describe('document statistics', () => {
  it('counts words across blocks and nested lists without gluing them together', () => {
    expect(
      statsOf('<h1>Title here</h1><p>One two.</p><ul><li><p>three</p></li><li><p>four</p></li></ul>'),
    ).toEqual({ wordCount: 6, charCount: 'Title hereOne two.threefour'.length, readingTime: 1 });
  });

  it('reads pending suggestions as taken: deleted words are not counted next to their replacement', () => {
    const change = (type: string) => [{ type, attrs: { id: 's1', author_id: 'a', source: 'ai' } }];
    const pending = {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'The ' },
            { type: 'text', text: 'cat', marks: change('deletion') },
            { type: 'text', text: 'black dog', marks: change('insertion') },
            { type: 'text', text: ' sat.' },
          ],
        },
      ],
    };
    expect(statsOf(pending)).toMatchObject({ wordCount: 4, charCount: 'The black dog sat.'.length });
  });
});

describe('live counts', () => {
  it('a change is counted in idle time after a short delay, not from a timer that could fall before a keystroke is painted', async () => {
    const idle: (() => void)[] = [];
    const browser = window as unknown as Record<string, unknown>;
    browser.requestIdleCallback = (callback: () => void) => idle.push(callback);
    browser.cancelIdleCallback = () => {};
    try {
      editor = new Editor({
        extensions: createEditorExtensions({ history: false }),
        content: '<p>One two three.</p>',
      });
      const { result } = renderHook(() => useEditorStats(editor!));
      act(() => {
        editor!.commands.insertContentAt(editor!.state.doc.content.size - 1, ' four five');
      });
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(result.current).toMatchObject({ wordCount: 3 });
      expect(idle).toHaveLength(1);
      act(() => idle.shift()!());
      expect(result.current).toMatchObject({ wordCount: 5 });
    } finally {
      delete browser.requestIdleCallback;
      delete browser.cancelIdleCallback;
    }
  });

  it('a short document is counted as the editor mounts', () => {
    editor = new Editor({
      extensions: createEditorExtensions({ history: false }),
      content: '<p>One two three.</p>',
    });
    const { result } = renderHook(() => useEditorStats(editor!));
    expect(result.current).toMatchObject({ wordCount: 3 });
  });

  it('a novel-length document is counted just after it opens, not while the editor mounts', async () => {
    const paragraph = `<p>${'word '.repeat(100).trim()}</p>`;
    editor = new Editor({
      extensions: createEditorExtensions({ history: false }),
      content: paragraph.repeat(250),
    });
    const { result } = renderHook(() => useEditorStats(editor!));
    expect(result.current).toBeNull();
    await waitFor(() => expect(result.current).toMatchObject({ wordCount: 25_000, readingTime: 125 }));
  });

  it('a novel that arrives into an empty editor (the first sync) is counted like one that opens', async () => {
    editor = new Editor({ extensions: createEditorExtensions({ history: false }), content: '' });
    const shown: (number | null)[] = [];
    const { result } = renderHook(() => {
      const stats = useEditorStats(editor!);
      shown.push(stats?.wordCount ?? null);
      return stats;
    });
    editor.commands.setContent(`<p>${'word '.repeat(100).trim()}</p>`.repeat(250), { emitUpdate: true });
    await waitFor(() => expect(result.current).toMatchObject({ wordCount: 25_000 }));
    // "Counting words…" between the empty document and the novel, never a whole count inside the change.
    expect(shown.filter((count, index) => count !== shown[index - 1])).toEqual([0, null, 25_000]);
  });
});
