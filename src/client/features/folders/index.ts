/** What other features may use from folders; everything else in the folder is its own business. */
export { documentDragSource, documentDropTarget } from './drag';
export { foldersEditorPlugin } from './editor-plugin';
export { FolderTrashList } from './FolderTrashList';
export { FolderTree } from './FolderTree';
export { folderHref, folderOfSearch } from './links';
export { MoveToDialog } from './MoveToDialog';
export {
  useDocumentPlacement,
  useFolderActions,
  useFolders,
  useFolderTrashActions,
  useTrashedFolders,
} from './queries';
