import type { EditorPlugin } from '@client/features/editor';
import { DocumentHistory, HistoryButton } from './components/HistoryControls';

/** The editor header's History button and the page's history panel and "Save version…" dialog. */
export const historyEditorPlugin: EditorPlugin = {
  name: 'history',
  HeaderAction: HistoryButton,
  Overlay: DocumentHistory,
};
