// For the app's route table only: the document's requests the editor's route starts as it matches, before the
// editor's code arrives (the page takes their answers when it opens the document). Kept apart from index.ts so
// the route table's chunk holds these two small modules and nothing else of the editor.
export { requestServerStateEarly } from './server-state';
export { readCopyEarly } from './offline-copy-store';
