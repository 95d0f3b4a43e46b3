/** What other folders may use from folders; everything else in the folder is its own business. */
export { documentFolderRoutes, folderRoutes, folderTrashRoutes, registerFolderTrashPurge } from './routes';
export { assertFolderOf, folderWithSubfolders } from './service';
