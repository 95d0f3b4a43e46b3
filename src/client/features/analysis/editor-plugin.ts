import { lazy } from 'react';
import type { EditorPlugin } from '@client/features/editor';

/** The Document Stats panel's Analyze section: it (and the worker with its libraries) loads on first open. */
export const analysisEditorPlugin: EditorPlugin = {
  name: 'analysis',
  AnalysisPanel: lazy(() => import('./AnalysisPanel').then((module) => ({ default: module.AnalysisPanel }))),
};
