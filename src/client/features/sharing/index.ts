export { sharingEditorPlugin } from './editor-plugin';
