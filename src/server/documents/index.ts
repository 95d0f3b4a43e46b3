/** What other folders may use from documents; everything else in the folder is its own business. */
export { authorizeDocument, can, documentForUser, documentRole, userRoles } from './access';
export type { DocumentAbility, DocumentActor, DocumentRole } from './access';
export { isMemberRole, strongestRole, tokenMay } from './policy';
export { DOCUMENT_EVENT_TYPES, DocumentEvents } from './events';
export { countDocumentsByUser, countDocumentsOf, findDocumentOwner, listSharedWith } from './repository';
export type { LiveStoreResult } from './repository';
export {
  accessOfShare,
  entryFingerprint,
  findShareSettings,
  findSharedPageMeta,
  loadSharedDocument,
  SHARE_TOKEN_TTL_SECONDS,
  shareLinkState,
  signShareToken,
  tokenPassedPassword,
  updateShareSettings,
  verifyShareToken,
} from './share-links';
export type { ShareChanges, ShareRow } from './share-links';
export { documentRoutes, documentsContextOf, etagOf, presentDocument } from './routes';
export type { MarkdownConversion } from './routes';
export { MATCH_END, MATCH_START, listLibrary, searchDocuments } from './search-repository';
export type { ParsedSearchQuery } from './search-repository';
export { getDocument } from './service';
export { pinRoutes } from './pins';
export { registerTrashPurge, trashRoutes } from './trash';
export type { DocumentCreationCheck, DocumentRecord, DocumentsContext } from './service';
export { DocumentWriter } from './writer';
export type { FolderTransaction } from './writer';
export {
  countDocumentsPerFolder,
  countDocumentsTrashedWith,
  findDocumentFolder,
  listDocumentIdsInFolders,
  listDocumentsInFolders,
} from './folder-repository';
export type { ContentChange, LiveDocumentStorage, LiveDocumentWrites, LiveWrite } from './writer';
