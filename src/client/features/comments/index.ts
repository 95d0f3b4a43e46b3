// Comments on passages: the owner's editor plugin, and what the member's and the shared page compose.
export { commentsEditorPlugin } from './editor-plugin';
export { documentCommentsApi, sharedCommentsApi } from './api';
export { CommentUi } from './comment-ui';
export { CommentsBesideText } from './components/CommentsBesideText';
export { CommentableText } from './components/CommentableText';
