import { Editor } from '@tiptap/core';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createEditorExtensions } from '@shared/editor/extensions';
import { SlashCommandExtension } from './slash-command';

const browser = window as unknown as Record<string, unknown>;
let idle: (() => void)[] = [];
let editor: Editor | null = null;

beforeEach(() => {
  idle = [];
  browser.requestIdleCallback = (callback: () => void) => idle.push(callback);
  browser.cancelIdleCallback = () => {};
});

afterEach(() => {
  editor?.destroy();
  editor = null;
  delete browser.requestIdleCallback;
  delete browser.cancelIdleCallback;
});

function paletteOf(target: Editor): string {
  return (target.storage as unknown as { slashCommand: { palette: string } }).slashCommand.palette;
}

function typeSlash(target: Editor) {
  const { from, to } = target.state.selection;
  const handled = target.view.someProp('handleTextInput', (handle) =>
    handle(target.view, from, to, '/', () => target.state.tr),
  );
  if (!handled) target.view.dispatch(target.state.tr.insertText('/'));
}

it('fetches the palette in idle time after the editor is created, not while it opens', async () => {
  editor = new Editor({ extensions: [...createEditorExtensions({ history: false }), SlashCommandExtension] });
  const target = editor;
  // TipTap announces the editor's creation in a task of its own.
  await vi.waitFor(() => expect(idle).toHaveLength(1));
  expect(paletteOf(target)).toBe('waiting');
  idle.shift()!();
  await vi.waitFor(() => expect(paletteOf(target)).toBe('here'));
});

it('a "/" typed before idle time fetches the palette at once, and it opens when it arrives', async () => {
  editor = new Editor({
    extensions: [...createEditorExtensions({ history: false }), SlashCommandExtension],
    content: '<p></p>',
  });
  const target = editor;
  typeSlash(target);
  expect(paletteOf(target)).toBe('loading');
  await vi.waitFor(() => expect(paletteOf(target)).toBe('here'));
  // The idle fetch, when it comes, asks for nothing more.
  idle.shift()?.();
  expect(paletteOf(target)).toBe('here');
});
