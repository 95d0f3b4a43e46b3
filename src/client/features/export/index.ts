export { exportEditorPlugin } from './editor-plugin';

/** The exporters (and their libraries) load when a file is first asked for. */
export const loadExportDocument = () => import('./export-document');
