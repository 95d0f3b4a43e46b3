import { Badge } from '@client/components/ui/badge';
import { useAuth } from '@client/features/auth';
import { CommentableText, documentCommentsApi } from '@client/features/comments';
import { NotificationsBell } from '@client/features/notifications';
import { ImageUpload } from '@client/features/images';
import { SuggestionLegend } from '@client/features/suggestions';
import { ApiError, errorMessage } from '@client/lib/api';
import { displayTitle } from '@client/lib/document-title';
import type { MemberDocument, MemberRole } from '@shared/schemas/people';
import type { RichTextDoc } from '@shared/schemas/richText';
import { hasSuggestions } from '@shared/suggestions/resolve';
import { ArrowLeft, FileQuestion, UserX } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { useMemberDocument } from './api';
import { ROLE_LABELS } from './constants';
import '@client/styles/document.css';
import '@client/styles/tracked-changes.css';
import { PageNotice } from '@client/components/PageNotice';

const MemberEditor = lazy(() => import('./MemberEditor').then((m) => ({ default: m.MemberEditor })));

/** What each role lets the person do, said once under the title. */
const ROLE_HINTS: Record<MemberRole, string> = {
  viewer: 'You can read this document.',
  commenter: 'You can read this document and comment on it.',
  suggester: 'You can suggest changes for the owner to accept or reject.',
  editor: 'You can edit this document with the others, live.',
};

function Shell({ children, title, aside }: { children: ReactNode; title?: string; aside?: ReactNode }) {
  useEffect(() => {
    if (title) document.title = `${title} — Quillwright`;
  }, [title]);
  return (
    <div className="min-h-dvh bg-background text-foreground">
      <header className="border-b">
        <div className="mx-auto flex h-14 max-w-3xl items-center justify-between gap-3 px-4">
          <Link
            href="/"
            className="flex items-center gap-1.5 text-sm font-medium text-muted-foreground hover:text-foreground"
          >
            <ArrowLeft className="size-4" aria-hidden="true" />
            Documents
          </Link>
          <div className="flex min-w-0 items-center gap-2">
            {aside}
            <NotificationsBell />
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-3xl px-4 py-10">{children}</main>
    </div>
  );
}

function Notice({ icon, title, text }: { icon: ReactNode; title: string; text: string }) {
  return (
    <Shell>
      <PageNotice icon={icon} title={title} text={text} backLabel="Back to Documents" />
    </Shell>
  );
}

const SESSION_IMAGES = { kind: 'session' } as const;

/**
 * A commenter reads the saved copy (the live document is not theirs to open) as text they can select and
 * comment on; the page asks for the copy again with the role, and at once after a new thread (its highlight).
 * A viewer reads it the same way with the threads read-only (no composer, no reply, no resolve).
 */
function CommenterBody({
  documentId,
  content,
  canComment,
  onThreadCreated,
}: {
  documentId: string;
  content: unknown;
  /** False for a viewer: the threads are shown, read-only. */
  canComment: boolean;
  onThreadCreated: () => void;
}) {
  const api = useMemo(() => documentCommentsApi(documentId), [documentId]);
  const images = useMemo(
    () => [ImageUpload.configure({ documentId, auth: SESSION_IMAGES, canUpload: false })],
    [documentId],
  );
  const pending = useMemo(() => hasSuggestions(content as RichTextDoc), [content]);
  return (
    <>
      {pending && <SuggestionLegend />}
      <CommentableText
        content={content}
        api={api}
        canComment={canComment}
        asksForName={false}
        extensions={images}
        testId={canComment ? 'member-commentable-document' : 'member-document'}
        onThreadCreated={onThreadCreated}
      />
    </>
  );
}

/**
 * /shared-with-me/:id — a document someone invited this person to, opened in their role: an editor writes live,
 * a suggester only suggests, a viewer reads the saved document (asked again every few seconds). Nothing of the
 * owner's (sharing, people, history, export, AI, deleting) is here: the server refuses all of it to a member.
 * The role is asked again while the page is open, so a change the owner makes shows up here on its own.
 */
export function MemberDocumentPage() {
  const { id = '' } = useParams<{ id: string }>();
  const { user, loading } = useAuth();
  const [, navigate] = useLocation();
  const query = useMemberDocument(id, Boolean(user));
  const [session, setSession] = useState(0);
  const role = query.data?.role;
  const [firstRole, setFirstRole] = useState<MemberDocument['role'] | undefined>(undefined);
  // The role the page opened with, kept while rendering (React's way to remember a value from a previous render).
  if (role && firstRole === undefined) setFirstRole(role);

  useEffect(() => {
    if (!loading && !user) navigate('/', { replace: true });
  }, [loading, user, navigate]);
  // One's own document opens in the editor, with everything an owner has.
  useEffect(() => {
    if (role === 'owner') navigate(`/editor/${id}`, { replace: true });
  }, [role, id, navigate]);

  const { refetch } = query;
  const onAccessChanged = useCallback(() => {
    void refetch().then((result) => {
      // The same role as before: the connection ended for another reason (a revoked session was renewed); start a
      // new one rather than leave the text locked.
      if (result.data && result.data.role === role) setSession((n) => n + 1);
    });
  }, [refetch, role]);

  if (loading || !user || query.isPending || role === 'owner') {
    return (
      <Shell>
        <p className="text-sm text-muted-foreground" role="status">
          Loading document…
        </p>
      </Shell>
    );
  }
  if (query.isError) {
    const gone =
      query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
    if (gone && query.data) {
      return (
        <Notice
          icon={<UserX className="size-5" />}
          title="You no longer have access to this document"
          text="The owner removed you from it, or moved it to the trash. Anything you typed after that was not kept."
        />
      );
    }
    if (gone) {
      return (
        <Notice
          icon={<FileQuestion className="size-5" />}
          title="This document is not available"
          text="It was not shared with you, or the owner removed you from it or deleted it."
        />
      );
    }
    if (!query.data) {
      return (
        <Notice
          icon={<FileQuestion className="size-5" />}
          title="The document could not be loaded"
          text={errorMessage(query.error)}
        />
      );
    }
  }
  const document = query.data;
  if (!document || document.role === 'owner') return null;
  const changed = firstRole !== undefined && firstRole !== document.role;
  const title = displayTitle(document.title);

  return (
    <Shell
      title={title}
      aside={
        <span className="flex min-w-0 items-center gap-2 text-xs text-muted-foreground">
          <span className="truncate">Shared by {document.ownerName}</span>
          <Badge variant="secondary" data-testid="member-role">
            {ROLE_LABELS[document.role]}
          </Badge>
        </span>
      }
    >
      <h1 className="mb-2 text-3xl font-bold tracking-tight break-words">{title}</h1>
      <p className="mb-8 text-sm text-muted-foreground" data-testid="member-role-hint">
        {changed ? `The owner changed your role. ${ROLE_HINTS[document.role]}` : ROLE_HINTS[document.role]}
      </p>
      {document.role === 'viewer' || document.role === 'commenter' ? (
        <CommenterBody
          documentId={document.id}
          content={document.content}
          canComment={document.role === 'commenter'}
          onThreadCreated={() => void refetch()}
        />
      ) : (
        <Suspense fallback={<p className="text-sm text-muted-foreground">Loading document…</p>}>
          <MemberEditor
            key={`${document.role}:${session}`}
            documentId={document.id}
            user={user}
            suggesting={document.role === 'suggester'}
            onAccessChanged={onAccessChanged}
          />
        </Suspense>
      )}
    </Shell>
  );
}
