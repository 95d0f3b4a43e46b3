import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { createRenderExtensions } from '@shared/editor/extensions';
import type { RichTextDoc } from '@shared/schemas/richText';
import type { SharedDocument } from '@shared/schemas/sharing';
import { SHARE_LINK_KEY_PARAM } from '@shared/share-links';
import { hasSuggestions } from '@shared/suggestions/resolve';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { generateHTML } from '@tiptap/html';
import { FileQuestion, Link2Off, Lock, TimerOff, Trash2 } from 'lucide-react';
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useState,
  type FormEvent,
  type ReactNode,
} from 'react';
import { Link, useParams, useSearch } from 'wouter';
import { sanitizeRenderedHtml } from '@client/lib/sanitize-html';
import { CommentableText, sharedCommentsApi } from '@client/features/comments';
import { ImageUpload, useHtmlWithImageAccess } from '@client/features/images';
import { SuggestionLegend } from '@client/features/suggestions';
import { fetchSharedDocument, ShareAccessError, storedShareToken, unlockSharedDocument } from './api';
import '@client/styles/document.css';
import '@client/styles/tracked-changes.css';
import { PageNotice } from '@client/components/PageNotice';

const SharedEditor = lazy(() => import('./SharedEditor').then((m) => ({ default: m.SharedEditor })));

function Shell({ children, title }: { children: ReactNode; title?: string }) {
  useEffect(() => {
    if (title) document.title = `${title} — Quillwright`;
  }, [title]);
  return (
    <div className="min-h-screen bg-background text-foreground">
      <header className="border-b">
        <div className="mx-auto flex h-14 max-w-3xl items-center justify-between px-4">
          <Link href="/" className="font-semibold tracking-tight">
            Quillwright
          </Link>
          <span className="text-xs text-muted-foreground">Shared document</span>
        </div>
      </header>
      <main className="mx-auto max-w-3xl px-4 py-10">{children}</main>
    </div>
  );
}

function Notice({ icon, title, text }: { icon: ReactNode; title: string; text: string }) {
  return (
    <Shell>
      <PageNotice icon={icon} title={title} text={text} backLabel="Go to Quillwright" />
    </Shell>
  );
}

function PasswordPrompt({
  documentId,
  linkKey,
  onUnlocked,
}: {
  documentId: string;
  linkKey: string | null;
  onUnlocked: () => void;
}) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await unlockSharedDocument(documentId, linkKey, password);
      onUnlocked();
    } catch (e) {
      setError(
        e instanceof ShareAccessError && e.status === 429
          ? 'Too many attempts. Please wait a minute and try again.'
          : e instanceof ShareAccessError && e.status === 401
            ? 'Incorrect password.'
            : 'Could not unlock the document. Please try again.',
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <Shell>
      <form onSubmit={submit} className="mx-auto max-w-sm space-y-4 py-16">
        <div className="mx-auto flex size-12 items-center justify-center rounded-full bg-muted">
          <Lock className="size-5" />
        </div>
        <h1 className="text-center text-xl font-semibold">This document is protected</h1>
        <p className="text-center text-sm text-muted-foreground">
          Enter the password you were given to read it.
        </p>
        <div className="space-y-1.5">
          <Label htmlFor="share-password">Password</Label>
          <Input
            id="share-password"
            type="password"
            autoFocus
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={error ? true : undefined}
          />
          {error && (
            <p className="text-sm text-destructive" role="alert">
              {error}
            </p>
          )}
        </div>
        <Button type="submit" className="w-full" disabled={busy || !password}>
          {busy ? 'Unlocking…' : 'Open document'}
        </Button>
      </form>
    </Shell>
  );
}

function ReadOnlyDocument({ shared }: { shared: SharedDocument }) {
  const sanitized = useMemo(
    () =>
      sanitizeRenderedHtml(
        generateHTML(shared.content as RichTextDoc, createRenderExtensions(shared.content as RichTextDoc)),
      ),
    [shared.content],
  );
  const imageAuth = useMemo(
    () => ({ kind: 'share' as const, token: () => storedShareToken(shared.id) ?? shared.shareToken }),
    [shared.id, shared.shareToken],
  );
  const html = useHtmlWithImageAccess(sanitized, imageAuth);
  // The server sends pending suggestions only when the owner chose to show them to readers.
  const pending = useMemo(
    () => shared.showSuggestions && hasSuggestions(shared.content as RichTextDoc),
    [shared.showSuggestions, shared.content],
  );
  return (
    <Shell title={shared.title}>
      <h1 className="mb-8 text-3xl font-bold tracking-tight">{shared.title}</h1>
      {pending && <SuggestionLegend />}
      {/* Sanitized above: DOMPurify plus the link whitelist and safe rel. */}
      <article
        className="qw-document"
        data-testid="shared-document"
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </Shell>
  );
}

/**
 * A "Can comment" visitor reads the saved copy as text to select and comment on; they give a name with their
 * first comment. The copy is asked for again after a new thread, for its highlight.
 */
function CommentableDocument({
  shared,
  onThreadCreated,
}: {
  shared: SharedDocument;
  onThreadCreated: () => void;
}) {
  const token = useCallback(
    () => storedShareToken(shared.id) ?? shared.shareToken,
    [shared.id, shared.shareToken],
  );
  const api = useMemo(() => sharedCommentsApi(shared.id, token), [shared.id, token]);
  const images = useMemo(
    () => [
      ImageUpload.configure({ documentId: shared.id, auth: { kind: 'share', token }, canUpload: false }),
    ],
    [shared.id, token],
  );
  return (
    <Shell title={shared.title}>
      <h1 className="mb-2 text-3xl font-bold tracking-tight">{shared.title}</h1>
      <p className="mb-8 text-sm text-muted-foreground">
        You can read this document and comment on it: select text, then Comment.
      </p>
      <CommentableText
        content={shared.content}
        api={api}
        canComment
        asksForName
        extensions={images}
        testId="shared-document"
        onThreadCreated={onThreadCreated}
      />
    </Shell>
  );
}

/** /shared/:id — what a visitor with the link sees; the server decides what they may see. */
export function SharedDocumentPage() {
  const { id = '' } = useParams<{ id: string }>();
  // The address carries no access level (an old link's edit=true is ignored): the server grants what the
  // share settings hold now. A reset link's address carries its key.
  const linkKey = new URLSearchParams(useSearch()).get(SHARE_LINK_KEY_PARAM);
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['shared-document', id, linkKey],
    queryFn: () => fetchSharedDocument(id, linkKey),
    retry: false,
  });

  if (query.isPending) {
    return (
      <Shell>
        <p className="text-sm text-muted-foreground">Loading document...</p>
      </Shell>
    );
  }
  if (query.error) {
    const error = query.error;
    if (error instanceof ShareAccessError && error.status === 401) {
      return (
        <PasswordPrompt
          documentId={id}
          linkKey={linkKey}
          onUnlocked={() =>
            void queryClient.invalidateQueries({ queryKey: ['shared-document', id, linkKey] })
          }
        />
      );
    }
    if (error instanceof ShareAccessError && error.code === 'share_link_reset') {
      return (
        <Notice
          icon={<Link2Off className="size-5" />}
          title="This link no longer works"
          text="The owner replaced this share link with a new one. Ask them for the new link."
        />
      );
    }
    if (error instanceof ShareAccessError && error.code === 'document_trashed') {
      return (
        <Notice
          icon={<Trash2 className="size-5" />}
          title="This document is in the trash"
          text="The owner deleted it. If they restore it, this link works again."
        />
      );
    }
    if (error instanceof ShareAccessError && error.status === 410) {
      return (
        <Notice
          icon={<TimerOff className="size-5" />}
          title="This link has expired"
          text="The owner set this share link to stop working. Ask them for a new one."
        />
      );
    }
    return (
      <Notice
        icon={<FileQuestion className="size-5" />}
        title="This document is not available"
        text="It is private, was deleted, or the link is wrong. Ask the owner to share it again."
      />
    );
  }
  const shared = query.data;
  if (shared.access === 'edit' || shared.access === 'suggest') {
    return (
      <Shell title={shared.title}>
        <h1 className="mb-8 text-3xl font-bold tracking-tight">{shared.title}</h1>
        <Suspense fallback={<p className="text-sm text-muted-foreground">Loading editor...</p>}>
          <SharedEditor
            shared={shared}
            onAccessLost={() =>
              void queryClient.invalidateQueries({ queryKey: ['shared-document', id, linkKey] })
            }
          />
        </Suspense>
      </Shell>
    );
  }
  if (shared.access === 'comment') {
    return (
      <CommentableDocument
        shared={shared}
        onThreadCreated={() =>
          void queryClient.invalidateQueries({ queryKey: ['shared-document', id, linkKey] })
        }
      />
    );
  }
  return <ReadOnlyDocument shared={shared} />;
}
