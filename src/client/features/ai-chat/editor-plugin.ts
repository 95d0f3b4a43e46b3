import { lazy } from 'react';
import type { EditorPlugin } from '@client/features/editor';

/** Chat with the document: loaded on first open, so the editor's first load does not carry it. */
export const chatEditorPlugin: EditorPlugin = {
  name: 'chat',
  ChatPanel: lazy(() => import('./ChatPanel').then((module) => ({ default: module.ChatPanel }))),
};
