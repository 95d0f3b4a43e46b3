import { COLLAB_CLOSE, COLLAB_FRAGMENT } from '@shared/editor/collab-protocol';
import { Button } from '@client/components/ui/button';
import { CommentsBesideText, CommentUi, sharedCommentsApi } from '@client/features/comments';
import { ImageSettingsDialog, ImageUpload } from '@client/features/images';
import { SuggestingMode } from '@client/features/suggestions';
import { createEditorExtensions } from '@shared/editor/extensions';
import type { SharedDocument } from '@shared/schemas/sharing';
import { CollaborationCaret } from '@tiptap/extension-collaboration-caret';
import { EditorContent, useEditor } from '@tiptap/react';
import { useEffect, useState } from 'react';
import {
  caretColorFor,
  DocumentCollaboration,
  FootnoteBehaviour,
  LinkBehaviour,
  useCollaboration,
  type CollabSession,
} from '@client/features/editor';
import { storedShareToken } from './api';
import { CollaboratorStatus } from '@client/components/CollaboratorStatus';
import '@client/styles/document.css';
import '@client/styles/tracked-changes.css';
import '@client/styles/collaboration-carets.css';

const ANIMALS = ['Otter', 'Heron', 'Fox', 'Lynx', 'Owl', 'Wren', 'Badger', 'Marten', 'Ibis', 'Hare'];

/** A visitor gets a stable anonymous name for this browser tab. */
function visitorIdentity() {
  const key = 'qw-visitor-id';
  let id = sessionStorage.getItem(key);
  if (!id) {
    id = `visitor-${crypto.randomUUID()}`;
    sessionStorage.setItem(key, id);
  }
  const animal =
    ANIMALS[Math.abs([...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 0)) % ANIMALS.length];
  return { id, name: `Anonymous ${animal}`, color: caretColorFor(id) };
}

function LiveEditor({
  documentId,
  shareToken,
  session,
  user,
  suggesting,
}: {
  documentId: string;
  shareToken: () => string | undefined;
  session: CollabSession;
  user: ReturnType<typeof visitorIdentity>;
  suggesting: boolean;
}) {
  const editor = useEditor(
    {
      extensions: [
        ...createEditorExtensions({ history: false }),
        LinkBehaviour,
        FootnoteBehaviour,
        // A link that allows editing adds images; a suggesting visitor sees them.
        ImageUpload.configure({
          documentId,
          auth: { kind: 'share', token: shareToken },
          canUpload: !suggesting,
        }),
        ...(suggesting
          ? [
              SuggestingMode.configure({
                author: { author_id: user.id, author_name: user.name },
                forced: true,
              }),
            ]
          : []),
        CommentUi.configure({
          api: sharedCommentsApi(documentId, shareToken),
          canComment: true,
          asksForName: true,
        }),
        DocumentCollaboration.configure({ document: session.ydoc, field: COLLAB_FRAGMENT }),
        CollaborationCaret.configure({
          provider: session.provider,
          user: { name: user.name, color: user.color },
        }),
      ],
      editorProps: {
        attributes: { class: 'qw-document min-h-[50vh] outline-none', 'aria-label': 'Document' },
      },
    },
    [session],
  );
  return (
    <>
      <CommentsBesideText editor={editor} live={session.provider}>
        <EditorContent editor={editor} data-testid="shared-editor" />
      </CommentsBesideText>
      <ImageSettingsDialog editor={editor} />
    </>
  );
}

/** What a refused change means for the visitor: nothing of it was kept, and the page must start afresh. */
function RefusedNotice() {
  return (
    <div role="alert" className="rounded-lg border border-destructive/40 bg-destructive/5 p-4 text-sm">
      <p className="font-medium">Your last change could not be kept as a suggestion.</p>
      <p className="mt-1 text-muted-foreground">
        Nothing of it reached the document. Reload the page to go on suggesting.
      </p>
      <Button size="sm" variant="outline" className="mt-3" onClick={() => window.location.reload()}>
        Reload
      </Button>
    </div>
  );
}

/**
 * The live editor for a visitor whose link allows editing or suggesting. The server authorizes the socket with
 * the share token and re-checks it, so switching sharing off ends the session; the visitor can do nothing else
 * here. With "Can suggest" the editor is in Suggesting mode for good, and the server refuses anything else.
 */
export function SharedEditor({ shared, onAccessLost }: { shared: SharedDocument; onAccessLost: () => void }) {
  const [user] = useState(visitorIdentity);
  const suggesting = shared.access === 'suggest';
  const [refused, setRefused] = useState(false);
  const { session, live, ready } = useCollaboration({
    documentId: shared.id,
    user,
    getToken: () => storedShareToken(shared.id) ?? shared.shareToken,
  });

  useEffect(() => {
    if (!session) return;
    const onClose = ({ event }: { event: { reason?: string } }) => {
      if (event.reason === 'access-revoked' || event.reason === 'document-not-found') onAccessLost();
      if (event.reason === COLLAB_CLOSE.suggestionsOnly.reason) {
        // The local copy holds the refused change: stop here rather than send it again on every reconnect.
        setRefused(true);
        session.provider.disconnect();
        void session.discardLocalCopy();
      }
    };
    const onAuthFailed = () => onAccessLost();
    session.provider.on('close', onClose);
    session.provider.on('authenticationFailed', onAuthFailed);
    return () => {
      session.provider.off('close', onClose);
      session.provider.off('authenticationFailed', onAuthFailed);
    };
  }, [session, onAccessLost]);

  return (
    <div>
      <CollaboratorStatus live={live} suggesting={suggesting} name={user.name} />
      {refused ? (
        <RefusedNotice />
      ) : session && ready ? (
        <LiveEditor
          documentId={shared.id}
          shareToken={() => storedShareToken(shared.id) ?? shared.shareToken}
          session={session}
          user={user}
          suggesting={suggesting}
        />
      ) : (
        <p className="text-sm text-muted-foreground">Loading editor...</p>
      )}
    </div>
  );
}
