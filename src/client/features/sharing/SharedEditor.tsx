import { COLLAB_FRAGMENT } from '@shared/editor/collab-protocol';
import { createEditorExtensions } from '@shared/editor/extensions';
import type { SharedDocument } from '@shared/schemas/sharing';
import { Collaboration } from '@tiptap/extension-collaboration';
import { CollaborationCaret } from '@tiptap/extension-collaboration-caret';
import { EditorContent, useEditor } from '@tiptap/react';
import { useEffect, useState } from 'react';
import { caretColorFor } from '../editor/hooks/collab-user';
import { useCollaboration, type CollabSession } from '../editor/hooks/useCollaboration';
import { storedShareToken } from './api';
import '@client/styles/document.css';
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

function LiveEditor({ session, user }: { session: CollabSession; user: ReturnType<typeof visitorIdentity> }) {
  const editor = useEditor(
    {
      extensions: [
        ...createEditorExtensions({ history: false }),
        Collaboration.configure({ document: session.ydoc, field: COLLAB_FRAGMENT }),
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
  return <EditorContent editor={editor} data-testid="shared-editor" />;
}

/**
 * The live editor for a visitor whose link allows editing. The server authorizes the socket with the share
 * token and re-checks it, so switching sharing off ends the session; the visitor can do nothing else here.
 */
export function SharedEditor({ shared, onAccessLost }: { shared: SharedDocument; onAccessLost: () => void }) {
  const [user] = useState(visitorIdentity);
  const { session, live, ready } = useCollaboration({
    documentId: shared.id,
    user,
    getToken: () => storedShareToken(shared.id) ?? shared.shareToken,
  });

  useEffect(() => {
    if (!session) return;
    const onClose = ({ event }: { event: { reason?: string } }) => {
      if (event.reason === 'access-revoked' || event.reason === 'document-not-found') onAccessLost();
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
      <div className="mb-4 flex items-center gap-2 text-xs text-muted-foreground">
        <span
          className={`inline-block size-2 rounded-full ${live ? 'bg-green-500' : 'bg-amber-500'}`}
          aria-hidden="true"
        />
        <span data-testid="connection-badge">{live ? 'Live' : 'Offline'}</span>
        <span>· editing as {user.name}</span>
      </div>
      {session && ready ? (
        <LiveEditor session={session} user={user} />
      ) : (
        <p className="text-sm text-muted-foreground">Loading editor...</p>
      )}
    </div>
  );
}
