import { Button } from '@client/components/ui/button';
import type { AuthUser } from '@client/features/auth';
import {
  caretColorFor,
  DocumentCollaboration,
  FootnoteBehaviour,
  LinkBehaviour,
  useCollaboration,
  type CollabSession,
} from '@client/features/editor';
import { CollaboratorStatus } from '@client/components/CollaboratorStatus';
import { CommentsBesideText, CommentUi, documentCommentsApi } from '@client/features/comments';
import { ImageSettingsDialog, ImageUpload } from '@client/features/images';
import { SuggestingMode } from '@client/features/suggestions';
import { getSession, needsRefresh, refreshSession } from '@client/lib/session-store';
import { COLLAB_CLOSE, COLLAB_FRAGMENT, parseStatelessMessage } from '@shared/editor/collab-protocol';
import { createEditorExtensions } from '@shared/editor/extensions';
import { CollaborationCaret } from '@tiptap/extension-collaboration-caret';
import { EditorContent, useEditor } from '@tiptap/react';
import { useEffect, useMemo, useState } from 'react';
import '@client/styles/document.css';
import '@client/styles/tracked-changes.css';
import '@client/styles/collaboration-carets.css';

/** Why the server ended a member's live session for good: the role no longer opens the live document. */
const LOST_REASONS: ReadonlySet<string> = new Set([
  COLLAB_CLOSE.accessRevoked.reason,
  COLLAB_CLOSE.notFound.reason,
  COLLAB_CLOSE.viewOnly.reason,
  COLLAB_CLOSE.unauthorized.reason,
]);

interface MemberIdentity {
  id: string;
  name: string;
  color: string;
}

/** The person's own name on carets and suggestions: the account's name, else the e-mail's local part. */
function identityOf(user: AuthUser): MemberIdentity {
  const fullName = user.user_metadata.full_name?.trim();
  const local = user.email.split('@')[0] || user.email;
  return { id: user.id, name: fullName || local, color: caretColorFor(user.id) };
}

/** The session's access token for the socket, refreshed first when it is about to expire. */
async function collabToken(): Promise<string | null> {
  const session = getSession();
  if (!session) return null;
  if (!needsRefresh(session)) return session.access_token;
  const refreshed = await refreshSession().catch(() => null);
  return refreshed?.access_token ?? session.access_token;
}

function LiveBody({
  documentId,
  session,
  user,
  suggesting,
  editable,
}: {
  documentId: string;
  session: CollabSession;
  user: MemberIdentity;
  suggesting: boolean;
  editable: boolean;
}) {
  const editor = useEditor(
    {
      extensions: [
        ...createEditorExtensions({ history: false }),
        LinkBehaviour,
        FootnoteBehaviour,
        // An editor adds images; a suggester sees them (an image cannot be a tracked change).
        ImageUpload.configure({ documentId, auth: { kind: 'session' }, canUpload: !suggesting }),
        ...(suggesting
          ? [
              SuggestingMode.configure({
                author: { author_id: user.id, author_name: user.name },
                forced: true,
              }),
            ]
          : []),
        CommentUi.configure({ api: documentCommentsApi(documentId), canComment: true, asksForName: false }),
        DocumentCollaboration.configure({ document: session.ydoc, field: COLLAB_FRAGMENT }),
        CollaborationCaret.configure({
          provider: session.provider,
          user: { name: user.name, color: user.color },
        }),
      ],
      editorProps: {
        attributes: {
          class: 'qw-document min-h-[50vh] outline-none',
          'aria-label': 'Document body',
          'data-testid': 'member-editor-body',
        },
      },
    },
    [session],
  );
  useEffect(() => {
    editor?.setEditable(editable);
  }, [editor, editable]);
  return (
    <>
      <CommentsBesideText editor={editor} live={session.provider}>
        <EditorContent editor={editor} />
      </CommentsBesideText>
      <ImageSettingsDialog editor={editor} />
    </>
  );
}

/**
 * The live document for a member who may edit or suggest. The server authorizes the socket with the person's
 * session and re-decides it whenever the owner changes people; a suggester is in Suggesting mode for good, as
 * the server refuses anything else. When the session ends for good (removed, made viewer, document gone) the
 * text stops taking input at once and `onAccessChanged` asks the page to find out what the person may do now.
 */
export function MemberEditor({
  documentId,
  user,
  suggesting,
  onAccessChanged,
}: {
  documentId: string;
  user: AuthUser;
  suggesting: boolean;
  onAccessChanged: () => void;
}) {
  const identity = useMemo(() => identityOf(user), [user]);
  const [ended, setEnded] = useState<'lost' | 'refused' | null>(null);
  const { session, live, ready } = useCollaboration({ documentId, user: identity, getToken: collabToken });

  useEffect(() => {
    if (!session) return;
    const end = (why: 'lost' | 'refused') => {
      setEnded(why);
      // Reconnecting would only be refused again; the change the server refused must not be sent again either.
      session.provider.disconnect();
      void session.discardLocalCopy();
      onAccessChanged();
    };
    const onClose = ({ event }: { event: { reason?: string } }) => {
      if (event.reason === COLLAB_CLOSE.suggestionsOnly.reason) end('refused');
      else if (event.reason && LOST_REASONS.has(event.reason)) end('lost');
    };
    const onAuthFailed = () => end('lost');
    // The owner changed the role and the socket stays open (editor ⇄ suggester): the page reopens in it now.
    const onStateless = ({ payload }: { payload: string }) => {
      if (parseStatelessMessage(payload)?.type === 'access') onAccessChanged();
    };
    session.provider.on('close', onClose);
    session.provider.on('authenticationFailed', onAuthFailed);
    session.provider.on('stateless', onStateless);
    return () => {
      session.provider.off('close', onClose);
      session.provider.off('authenticationFailed', onAuthFailed);
      session.provider.off('stateless', onStateless);
    };
  }, [session, onAccessChanged]);

  return (
    <div>
      <CollaboratorStatus live={live} suggesting={suggesting} name={identity.name} />
      {ended === 'refused' ? (
        <div
          role="alert"
          className="mb-4 rounded-lg border border-destructive/40 bg-destructive/5 p-4 text-sm"
        >
          <p className="font-medium">Your last change could not be kept as a suggestion.</p>
          <p className="mt-1 text-muted-foreground">
            Nothing of it reached the document. Reload the page to go on suggesting.
          </p>
          <Button size="sm" variant="outline" className="mt-3" onClick={() => window.location.reload()}>
            Reload
          </Button>
        </div>
      ) : ended === 'lost' ? (
        <p role="status" className="mb-4 rounded-lg bg-muted px-3 py-2 text-sm">
          Your access to this document changed. Checking what you can do now…
        </p>
      ) : null}
      {session && ready ? (
        <LiveBody
          documentId={documentId}
          session={session}
          user={identity}
          suggesting={suggesting}
          editable={ended === null}
        />
      ) : (
        <p className="text-sm text-muted-foreground">Loading document…</p>
      )}
    </div>
  );
}
