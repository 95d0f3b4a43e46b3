export { goalsEditorPlugin } from './editor-plugin';
