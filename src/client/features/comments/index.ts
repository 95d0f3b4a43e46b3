// Comments on passages: the owner's editor plugin, and the parts the member and shared pages compose.
export { commentsEditorPlugin } from './editor-plugin';
export { documentCommentsApi, sharedCommentsApi } from './api';
export { CommentUi } from './comment-ui';
export {
  CommentsButton,
  CommentSelectionButton,
  CommentsOverlay,
  CommentsSidePanel,
} from './components/CommentControls';
