import { lazy } from 'react';
import type { EditorPlugin } from '@client/features/editor';

/** The Outline panel: loaded on first open, so the editor's first load does not carry it. */
export const outlineEditorPlugin: EditorPlugin = {
  name: 'outline',
  OutlinePanel: lazy(() => import('./OutlinePanel').then((module) => ({ default: module.OutlinePanel }))),
};
