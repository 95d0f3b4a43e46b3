export { focusEditorPlugin } from './editor-plugin';
