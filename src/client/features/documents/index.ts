export { documentContentQueryKey, documentQueryKey } from './document-query-key';
export {
  documentsQueryKey,
  useCreateDocument,
  useDeleteDocument,
  usePinState,
  useSetPinned,
  useTrash,
  useTrashActions,
} from './queries';
