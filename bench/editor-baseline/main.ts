/**
 * The baseline of bench:editor: a bare TipTap editor with StarterKit and nothing else, loaded with the same
 * document (window.BENCH_CONTENT, set by the bench before the page's scripts run).
 */
import { Editor, type JSONContent } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';

declare global {
  interface Window {
    BENCH_CONTENT?: JSONContent;
  }
}

const element = document.querySelector<HTMLElement>('#editor');
if (!element) throw new Error('#editor is missing');
new Editor({ element, extensions: [StarterKit], content: window.BENCH_CONTENT ?? '' });
