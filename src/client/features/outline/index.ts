export { outlineEditorPlugin } from './editor-plugin';
