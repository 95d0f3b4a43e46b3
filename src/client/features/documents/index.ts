export { documentContentQueryKey, documentQueryKey } from './document-query-key';
export {
  documentsQueryKey,
  useCreateDocument,
  useDeleteDocument,
  useTrash,
  useTrashActions,
} from './queries';
