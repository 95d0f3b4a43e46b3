import type { EditorPlugin } from '@client/features/editor';
import { documentCommentsApi } from './api';
import { CommentUi } from './comment-ui';
import {
  CommentsButton,
  CommentSelectionButton,
  CommentsOverlay,
  CommentsSidePanel,
} from './components/CommentControls';

/** Comments on passages in the owner's editor: the header's Comments button, the panel, the composer. */
export const commentsEditorPlugin: EditorPlugin = {
  name: 'comments',
  extensions: ({ documentId }) => [
    CommentUi.configure({ api: documentCommentsApi(documentId), canComment: true, asksForName: false }),
  ],
  HeaderAction: CommentsButton,
  ToolbarAction: ({ editor }) => <CommentsButton editor={editor} placement="toolbar" />,
  SelectionAction: CommentSelectionButton,
  SidePanel: CommentsSidePanel,
  Overlay: ({ editor, provider }) => <CommentsOverlay editor={editor} live={provider} />,
};
