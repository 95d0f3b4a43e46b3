import type { EditorPlugin } from '@client/features/editor';
import { FolderBreadcrumbs } from './FolderBreadcrumbs';

/** The folders above the document, in the editor header's breadcrumb. */
export const foldersEditorPlugin: EditorPlugin = {
  name: 'folders',
  Breadcrumbs: FolderBreadcrumbs,
};
