export { historyEditorPlugin } from './editor-plugin';
export { keepVersionBeforeAiChange, keepVersionBeforeImport } from './checkpoint';
