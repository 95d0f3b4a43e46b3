export { fileDropEditorPlugin } from './editor-plugin';
export { FileDropZone } from './FileDropZone';
export { ImportButton } from './ImportButton';
export { useImportFiles } from './use-import-files';
