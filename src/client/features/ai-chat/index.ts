export { chatEditorPlugin } from './editor-plugin';
