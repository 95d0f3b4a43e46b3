import type { EditorPlugin } from '@client/features/editor';
import { EditorFileDrop } from './editor-file-drop';

/**
 * Files dropped or pasted onto the text are converted and inserted at the drop point; `beforeInsert` runs first
 * for the document (the app keeps a version there, so the import can be undone from history).
 */
export function fileDropEditorPlugin(options: {
  beforeInsert: (documentId: string) => Promise<void>;
}): EditorPlugin {
  return {
    name: 'file-drop',
    extensions: ({ documentId }) => [
      EditorFileDrop.configure({ beforeInsert: () => options.beforeInsert(documentId) }),
    ],
  };
}
