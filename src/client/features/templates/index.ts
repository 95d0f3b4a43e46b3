export { templatesEditorPlugin } from './editor-plugin';
export { NewFromTemplateDialog } from './NewFromTemplateDialog';
