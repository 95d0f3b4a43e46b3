/** What other areas may use from images: the editor plugin, and the pieces the shared and member pages add. */
export { imagesEditorPlugin } from './editor-plugin';
export { ImageSettingsDialog } from './ImageSettingsDialog';
export { ImageUpload } from './image-upload';
export { useHtmlWithImageAccess } from './read-only';
