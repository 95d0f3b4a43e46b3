export { analysisEditorPlugin } from './editor-plugin';
