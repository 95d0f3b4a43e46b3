import { aiEditorPlugin } from '@client/features/ai';
import { chatEditorPlugin } from '@client/features/ai-chat';
import { commentsEditorPlugin } from '@client/features/comments';
import { analysisEditorPlugin } from '@client/features/analysis';
import { EditorPage as Editor, type EditorPlugin } from '@client/features/editor';
import { exportEditorPlugin } from '@client/features/export';
import { historyEditorPlugin, keepVersionBeforeImport } from '@client/features/history';
import { outlineEditorPlugin } from '@client/features/outline';
import { focusEditorPlugin } from '@client/features/focus';
import { foldersEditorPlugin } from '@client/features/folders';
import { imagesEditorPlugin } from '@client/features/images';
import { notificationsEditorPlugin } from '@client/features/notifications';
import { fileDropEditorPlugin } from '@client/features/imports';
import { goalsEditorPlugin } from '@client/features/goals';
import { sharingEditorPlugin } from '@client/features/sharing';
import { suggestionsEditorPlugin } from '@client/features/suggestions';
import { templatesEditorPlugin } from '@client/features/templates';

/**
 * The editor page with the features around the text, composed here, above the features, so the editor never
 * imports them (features/editor/plugins.tsx). The order is the page's: header actions the goal ring, Share, History,
 * Export, Document actions.
 */
const EDITOR_PLUGINS: readonly EditorPlugin[] = [
  aiEditorPlugin,
  suggestionsEditorPlugin,
  // A file dropped onto the text first keeps a version, so the import can be undone from history.
  fileDropEditorPlugin({ beforeInsert: keepVersionBeforeImport }),
  goalsEditorPlugin,
  imagesEditorPlugin,
  sharingEditorPlugin,
  commentsEditorPlugin,
  historyEditorPlugin,
  exportEditorPlugin,
  templatesEditorPlugin,
  chatEditorPlugin,
  analysisEditorPlugin,
  foldersEditorPlugin,
  notificationsEditorPlugin,
  outlineEditorPlugin,
  focusEditorPlugin,
];

export function EditorPage() {
  return <Editor plugins={EDITOR_PLUGINS} />;
}
