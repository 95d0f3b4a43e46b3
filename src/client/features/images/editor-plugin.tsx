import type { EditorPlugin } from '@client/features/editor';
import { ImageSettingsDialog } from './ImageSettingsDialog';
import { ImageUpload } from './image-upload';

/** Images in the editor: upload (toolbar, '/image', paste, drop), display, and the settings dialog. */
export const imagesEditorPlugin: EditorPlugin = {
  name: 'images',
  extensions: ({ documentId }) => [ImageUpload.configure({ documentId, auth: { kind: 'session' } })],
  Overlay: ({ editor }) => <ImageSettingsDialog editor={editor} />,
};
