import { useQueryClient } from '@tanstack/react-query';
import type { Editor } from '@tiptap/core';
import { useEditor } from '@tiptap/react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import * as Y from 'yjs';
import { DEFAULT_DOCUMENT_TITLE } from '@shared/constants';
import { MAX_DOCUMENT_TITLE_LENGTH } from '@shared/constants';
import { Separator } from '@client/components/ui/separator';
import { toast } from '@client/components/ui/use-toast';
import { useAuth, type AuthUser } from '@client/features/auth';
import { registerAiSettingsOpener, useUserSettings } from '@client/features/settings';
import { getSession, needsRefresh, refreshSession } from '@client/lib/session-store';
import { ApiError, errorMessage } from '@client/lib/api';
import { cn } from '@client/lib/utils';
import type { EditorAiActions } from './ai-actions';
import { AccountDialog } from './components/AccountDialog';
import { EditorHeader, SaveStatus } from './components/EditorHeader';
import { EDITOR_BODY_CLASS, EditorSurface } from './components/EditorSurface';
import { FormattingToolbar } from './components/FormattingToolbar';
import { LiveCounts, ModeToolbar } from './components/ModeToolbar';
import { useFocusModeChrome } from './hooks/useFocusModeChrome';
import { ShortcutsHint } from './components/ShortcutsHint';
import { StatsPanel } from './components/StatsPanel';
import { createClientExtensions } from './extensions/client-extensions';
import { caretColorFor, displayNameFromEmail } from './hooks/collab-user';
import { useAiEnabled, usePlanName } from './hooks/useAccountInfo';
import {
  useCollaboration,
  type CollabSession,
  type CollabState,
  type CollabUser,
} from './hooks/useCollaboration';
import {
  documentQueryKey,
  useDocumentContent,
  useCreateDocument,
  useDocumentQuery,
  type EditorDocument,
} from './hooks/useDocument';
import { useContentSaving, useUnsavedChanges } from './hooks/useSaveStatus';
import { useTitleAutosave } from './hooks/useTitleAutosave';
import { markOpening } from './opening-marks';
import {
  EditorPluginsProvider,
  pluginExtensions,
  useEditorPlugins,
  type EditorAiTools,
  type EditorPlugin,
} from './plugins';
import { editorFontFromPreferences, fontStack, useAutoSavePreference, useOutlineOpen } from './preferences';
import './editor.css';
import '@client/styles/tracked-changes.css';
import '@client/styles/collaboration-carets.css';
import { displayTitle } from '@client/lib/document-title';
import { QuickSwitcher } from '@client/features/search';
import { KEYMAP, matchesShortcut } from '@shared/keymap';
import { ShortcutSheetHost } from '@client/features/shortcuts';
import { memberDocumentPath } from '@client/lib/member-document-path';

const LOCAL_EDIT_CLOCK_MS = 10_000;
// The menus floating over the text (selection toolbar, block menu, suggestion bubble) bring TipTap's floating
// menus, which typing does not need: fetched as the page mounts, alongside the document's first sync, and shown
// once the body is ready.
const loadSelectionToolbar = () => import('./components/SelectionToolbar');
const loadBlockMenu = () => import('./components/BlockMenu');
const SelectionToolbar = lazy(() => loadSelectionToolbar().then((m) => ({ default: m.SelectionToolbar })));
const loadTableMenu = () => import('./components/TableMenu');
const TableMenu = lazy(() => loadTableMenu().then((m) => ({ default: m.TableMenu })));
const BlockMenu = lazy(() => loadBlockMenu().then((m) => ({ default: m.BlockMenu })));
/**
 * The title the input starts with: a new document's stored title is the default name, which the input shows as
 * its placeholder, so what the writer types is the whole title.
 */
function editableTitle(storedTitle: string): string {
  return storedTitle === DEFAULT_DOCUMENT_TITLE ? '' : storedTitle;
}

/** Tailwind's md breakpoint: from here the stats panel is a left column. */
const WIDE_LAYOUT_QUERY = '(min-width: 768px)';

/** The current AI actions of each live editor session (read by the slash commands and shortcuts). */
const aiActionsBySession = new WeakMap<CollabSession, EditorAiActions>();

function FullPageMessage({ children }: { children: React.ReactNode }) {
  return (
    <div className="grid min-h-dvh place-items-center p-6 text-center text-muted-foreground" role="status">
      {children}
    </div>
  );
}

/** An access token for the collaboration socket, refreshed first when it is about to expire. */
async function collabToken(): Promise<string | null> {
  const session = getSession();
  if (!session) return null;
  if (!needsRefresh(session)) return session.access_token;
  const refreshed = await refreshSession().catch(() => null);
  return refreshed?.access_token ?? session.access_token;
}

/**
 * /editor/:id — and /editor, which creates a document and replaces the URL with its id. The features around the
 * text (AI, suggestions, sharing, history…) come in as `plugins` (see plugins.tsx), composed above the features.
 */
export function EditorPage({ plugins }: { plugins: readonly EditorPlugin[] }) {
  return (
    <EditorPluginsProvider plugins={plugins}>
      <EditorRoute />
    </EditorPluginsProvider>
  );
}

function EditorRoute() {
  const params = useParams<{ id?: string }>();
  const { user, loading } = useAuth();
  const [, navigate] = useLocation();
  const create = useCreateDocument();
  const creating = useRef(false);

  useEffect(() => {
    if (!loading && !user) navigate('/', { replace: true });
  }, [loading, user, navigate]);

  useEffect(() => {
    if (loading || !user || params.id || creating.current) return;
    creating.current = true;
    create.mutate(undefined, {
      onSuccess: (document) => {
        toast({ title: 'Document created', description: 'Your new document has been created successfully.' });
        navigate(`/editor/${document.id}`, { replace: true });
      },
      onError: (error) => {
        toast({ title: 'Error creating document', description: errorMessage(error), variant: 'destructive' });
        navigate('/', { replace: true });
      },
      onSettled: () => {
        creating.current = false;
      },
    });
  }, [loading, user, params.id, create, navigate]);

  if (loading || !user || !params.id) return <FullPageMessage>Loading document...</FullPageMessage>;
  return <DocumentLoader key={params.id} documentId={params.id} user={user} />;
}

/**
 * The document's REST copy (title, the read-only preview) and its collaboration session start together: the
 * session (the offline copy, the socket) does not wait for the REST response, on a novel-length document the
 * largest of the page (bench:editor --profile). The session is dropped if the document cannot be loaded.
 */
function DocumentLoader({ documentId, user }: { documentId: string; user: AuthUser }) {
  const query = useDocumentQuery(documentId, true);
  const queryClient = useQueryClient();
  const collabUser = useMemo<CollabUser>(
    () => ({ id: user.id, name: displayNameFromEmail(user.email), color: caretColorFor(user.id) }),
    [user.id, user.email],
  );
  const [storedAt, setStoredAt] = useState<Date | null>(null);
  const autoSave = useAutoSavePreference();
  const collab = useCollaboration({
    documentId,
    user: collabUser,
    getToken: collabToken,
    onRemoteChange: () =>
      toast({ title: 'Document updated', description: 'This document was updated by another user.' }),
    onTitleChange: (title) =>
      queryClient.setQueryData<EditorDocument>(documentQueryKey(documentId), (old) =>
        old ? { ...old, title } : old,
      ),
    onStored: (updatedAt) => setStoredAt(new Date(updatedAt)),
    autoSave,
    enabled: !query.isError,
    openFromServerState: true,
  });
  if (query.isPending) return <FullPageMessage>Loading document...</FullPageMessage>;
  if (!query.isError && query.data.user_id !== user.id) return <MemberRedirect documentId={documentId} />;
  if (query.isError) {
    const missing =
      query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
    return (
      <FullPageMessage>
        <div className="space-y-3">
          <p className="font-medium text-foreground">
            {missing ? 'Document not found' : 'The document could not be loaded.'}
          </p>
          {!missing && <p className="text-sm">{errorMessage(query.error)}</p>}
          <Link href="/" className="text-sm text-primary underline-offset-4 hover:underline">
            Back to Documents
          </Link>
        </div>
      </FullPageMessage>
    );
  }
  return (
    <EditorWorkspace
      document={query.data}
      user={user}
      collabUser={collabUser}
      collab={collab}
      storedAt={storedAt}
    />
  );
}

/**
 * Someone else's document, opened by its editor address: this page is the owner's (sharing, history, export, AI),
 * so a member goes to the page made for their role.
 */
function MemberRedirect({ documentId }: { documentId: string }) {
  const [, navigate] = useLocation();
  // The query comes along: `?thread=` opens a comment thread (a notification's link).
  useEffect(
    () => navigate(`${memberDocumentPath(documentId)}${window.location.search}`, { replace: true }),
    [documentId, navigate],
  );
  return <FullPageMessage>Loading document...</FullPageMessage>;
}

interface WorkspaceProps {
  document: EditorDocument;
  user: AuthUser;
  collabUser: CollabUser;
  collab: CollabState;
  /** When the server last stored the document's content, as its collaboration session reported it. */
  storedAt: Date | null;
}

function EditorWorkspace({ document, user, collabUser, collab, storedAt }: WorkspaceProps) {
  const documentId = document.id;
  const [openedWith] = useState(() => new Date(document.updated_at));
  const [localEditAt, setLocalEditAt] = useState<Date | null>(null);

  const [accountOpen, setAccountOpen] = useState(false);
  const [accountTab, setAccountTab] = useState<'profile' | 'ai'>('profile');

  // An admin's AI messages ("AI is not set up yet") open Account settings → AI.
  const isAdmin = user.role === 'admin';
  useEffect(() => {
    if (!isAdmin) return;
    return registerAiSettingsOpener(() => {
      setAccountTab('ai');
      setAccountOpen(true);
    });
  }, [isAdmin]);

  const titleState = useTitleAutosave(documentId, editableTitle(document.title));
  // "Last edited": the latest of the stored document, this editor's own changes and the title's last save.
  const lastEdited = [storedAt, localEditAt, titleState.lastSavedAt].reduce<Date>(
    (latest, at) => (at && at > latest ? at : latest),
    openedWith,
  );

  const frame: FrameProps = {
    document,
    user,
    collabUser,
    live: collab.live,
    ready: collab.ready,
    waitsForSocket: collab.waitsForSocket,
    lastEditedAt: lastEdited,
    onLocalEdit: setLocalEditAt,
    title: titleState.title,
    onTitleChange: titleState.setTitle,
    titleSaving: titleState.pending,
    titleUnsaved: titleState.unsaved,
    onRetryTitle: titleState.retryNow,
    onAccountOpenChange: (open) => {
      setAccountTab('profile');
      setAccountOpen(open);
    },
  };
  return (
    <>
      {collab.session ? (
        <LiveEditor key={collab.session.ydoc.guid} session={collab.session} frame={frame} />
      ) : (
        <EditorFrame {...frame} editor={null} session={null} />
      )}
      {/* Outside the editor: turning auto-save on or off there starts a new session and a new editor. */}
      <AccountDialog open={accountOpen} onOpenChange={setAccountOpen} defaultTab={accountTab} />
    </>
  );
}

interface FrameProps {
  document: EditorDocument;
  user: AuthUser;
  collabUser: CollabUser;
  live: boolean;
  ready: boolean;
  /** Only the socket's first sync can make the document ready (see CollabState): the stored content is shown. */
  waitsForSocket: boolean;
  lastEditedAt: Date | null;
  onLocalEdit: (at: Date) => void;
  title: string;
  onTitleChange: (title: string) => void;
  titleSaving: boolean;
  /** A title save failed and is being retried: the header says "Unsaved changes" until it is stored. */
  titleUnsaved: boolean;
  onRetryTitle: () => void;
  /** Opens the account dialog, which lives above the editor (see EditorWorkspace). */
  onAccountOpenChange: (open: boolean) => void;
}

/** Without an AI plugin: no AI tools (their controls are disabled). */
const useNoAiTools = (): EditorAiTools | undefined => undefined;

function LiveEditor({ session, frame }: { session: CollabSession; frame: FrameProps }) {
  const { plugins, useAiTools = useNoAiTools } = useEditorPlugins();
  // The AI plugin reaches the slash commands and shortcuts through aiActionsBySession: the extensions are
  // created once, the actions change with the editor state.
  const getAi = useCallback(() => aiActionsBySession.get(session) ?? {}, [session]);

  const editor = useEditor({
    extensions: [
      ...createClientExtensions({ session, user: frame.collabUser, getAi }),
      ...pluginExtensions(plugins, { documentId: frame.document.id, user: frame.collabUser }),
    ],
    shouldRerenderOnTransaction: false,
    onCreate: () => markOpening('editor-created'),
    // TipTap's 'delete' events (nothing here listens) cost a timer and a diff of every change per keystroke.
    enableCoreExtensions: { delete: false },
    editorProps: {
      attributes: {
        class: `${EDITOR_BODY_CLASS} tiptap`,
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': 'Document body',
        'data-testid': 'editor-body',
      },
    },
  });

  // "Last edited" follows this editor's own changes too (at most every few seconds, not per keystroke). Heard
  // after each transaction rather than as an update: Yjs encodes a transaction for its 'update' listeners, so
  // one here made it encode the whole book again when the offline copy fills the document.
  const { onLocalEdit } = frame;
  useEffect(() => {
    let last = 0;
    const onTransaction = (transaction: Y.Transaction) => {
      if (!transaction.local || transaction.origin === session.provider || transaction.changed.size === 0)
        return;
      const now = Date.now();
      if (now - last < LOCAL_EDIT_CLOCK_MS) return;
      last = now;
      onLocalEdit(new Date(now));
    };
    session.ydoc.on('afterTransaction', onTransaction);
    return () => session.ydoc.off('afterTransaction', onTransaction);
  }, [session, onLocalEdit]);

  // Always the same hook while the app runs: the plugin list is fixed when the page is composed.
  const ai = useAiTools(editor, { documentId: frame.document.id, isAdmin: frame.user.role === 'admin' });
  const aiActions = ai?.actions;
  useEffect(() => {
    aiActionsBySession.set(session, aiActions ?? {});
  }, [session, aiActions]);

  // Ctrl+S / ⌘S saves with auto-save off; with it on there is nothing to do, and never the browser's "Save page".
  const { manualSave } = session;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (matchesShortcut(event, KEYMAP.save.keys)) {
        event.preventDefault();
        manualSave?.save();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [manualSave]);

  return (
    <>
      <EditorFrame {...frame} editor={editor} session={session} aiTools={ai} />
      <QuickSwitcher currentId={frame.document.id} />
      <ShortcutSheetHost />
    </>
  );
}

/**
 * 'Saving...' while the title or this editor's content is not yet stored; with auto-save off, 'Unsaved changes'
 * and Save while the draft holds changes the writer has not saved. Subscribes on its own.
 */
function DocumentSaveStatus({
  session,
  titleSaving,
  titleUnsaved,
  onRetryTitle,
}: {
  session: CollabSession | null;
  titleSaving: boolean;
  titleUnsaved: boolean;
  onRetryTitle: () => void;
}) {
  const contentSaving = useContentSaving(session?.provider ?? null, session?.ydoc ?? null);
  const contentUnsaved = useUnsavedChanges(session?.manualSave);
  return (
    <SaveStatus
      saving={titleSaving || contentSaving}
      unsaved={contentUnsaved || titleUnsaved}
      onSave={() => {
        session?.manualSave?.save();
        onRetryTitle();
      }}
    />
  );
}

interface EditorFrameProps extends FrameProps {
  editor: Editor | null;
  session: CollabSession | null;
  /** The AI tools for this editor (absent while the editor is being created: AI controls are disabled). */
  aiTools?: EditorAiTools;
}

function EditorFrame(props: EditorFrameProps) {
  const { document, user, live, ready, editor, session, lastEditedAt, title, onTitleChange, titleSaving } =
    props;
  const { titleUnsaved, onRetryTitle, waitsForSocket } = props;
  const { aiTools, onAccountOpenChange: setAccountOpen } = props;
  const ai: EditorAiActions = aiTools?.actions ?? {};
  const { plugins, ChatPanel, ModeSwitch, Breadcrumbs, Notifications, OutlinePanel, FocusOptions } =
    useEditorPlugins();
  const { preferences } = useUserSettings();
  const font = editorFontFromPreferences(preferences);
  const planName = usePlanName(true);
  const aiEnabled = useAiEnabled(true);
  // On a phone the stats start folded into one row above the text; on wider screens they are a column.
  const [statsCollapsed, setStatsCollapsed] = useState(() => !window.matchMedia(WIDE_LAYOUT_QUERY).matches);
  const [analysisOpen, setAnalysisOpen] = useState(false);

  // Focus mode starts from the user's preference once it is known; afterwards the toggle rules.
  const [focusOverride, setFocusOverride] = useState<boolean | null>(null);
  const focusMode = focusOverride ?? preferences.focusModeDefault;
  const exitFocusMode = useCallback(() => setFocusOverride(false), []);
  const chromeHidden = useFocusModeChrome(focusMode, exitFocusMode);

  // Chat with the document: mounted on first open and kept (an answer in progress survives closing).
  const [chatOpen, setChatOpen] = useState(false);
  const [chatMounted, setChatMounted] = useState(false);
  const closeChat = useCallback(() => {
    setChatOpen(false);
    editor?.commands.focus();
  }, [editor]);
  const toggleChat = useCallback(() => {
    if (chatOpen) return closeChat();
    setChatMounted(true);
    setChatOpen(true);
  }, [chatOpen, closeChat]);
  useEffect(() => {
    if (!editor || !ChatPanel) return;
    // Ctrl/⌘+J, from the text or anywhere on the page (the editor binds nothing to it).
    const onKeyDown = (event: KeyboardEvent) => {
      if (matchesShortcut(event, KEYMAP.chat.keys)) {
        event.preventDefault();
        toggleChat();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [editor, ChatPanel, toggleChat]);

  // The Outline: remembered open or closed in this browser (a writer of a long book keeps it open).
  const [outlineOpen, setOutlineOpen] = useOutlineOpen();
  const closeOutline = useCallback(() => {
    setOutlineOpen(false);
    editor?.commands.focus();
  }, [editor, setOutlineOpen]);

  useEffect(() => {
    void loadSelectionToolbar();
    void loadTableMenu();
    void loadBlockMenu();
    for (const plugin of plugins) plugin.preload?.();
  }, [plugins]);

  // The stored content, asked for only when nothing but the socket can open the document (a copy or the
  // server's Yjs state usually does, with the same content in fewer bytes).
  const content = useDocumentContent(document.id, !ready && waitsForSocket);
  // An empty document cannot be duplicated by the first sync, so it is editable at once, even offline.
  const bodyReady = ready || (content !== undefined && (content.content ?? []).length === 0);

  return (
    <div className={cn('flex min-h-dvh flex-col bg-background', chatOpen && 'lg:pr-96')}>
      {/* In focus mode the header and toolbar fade out (their room is kept, so the text does not move) and come
          back on a mouse movement; typing hides them again. */}
      <div
        className={cn(
          'top-0 z-30 border-b bg-background transition-[opacity,visibility] duration-300 md:sticky',
          chromeHidden && 'invisible opacity-0',
        )}
        data-testid="editor-chrome"
      >
        <EditorHeader
          title={title}
          saveStatus={
            <DocumentSaveStatus
              session={session}
              titleSaving={titleSaving}
              titleUnsaved={titleUnsaved}
              onRetryTitle={onRetryTitle}
            />
          }
          live={live}
          aiEnabled={aiEnabled}
          lastEditedAt={lastEditedAt}
          userName={displayNameFromEmail(user.email)}
          planName={planName}
          onOpenAccount={() => setAccountOpen(true)}
          modeSwitch={editor && ModeSwitch ? <ModeSwitch editor={editor} /> : undefined}
          crumbs={Breadcrumbs ? <Breadcrumbs documentId={document.id} /> : undefined}
          notifications={Notifications ? <Notifications /> : undefined}
          counts={
            preferences.showWordCount ? <LiveCounts editor={editor} documentReady={bodyReady} /> : undefined
          }
          actions={plugins.map(
            ({ name, HeaderAction }) =>
              HeaderAction && (
                <HeaderAction
                  key={name}
                  documentId={document.id}
                  editor={editor}
                  title={displayTitle(title)}
                />
              ),
          )}
        />
        {/* One row for every tool: it scrolls sideways where the window is too narrow for all of them. */}
        <div
          className="flex items-center gap-1 overflow-x-auto px-2 py-1 [scrollbar-width:none] sm:px-4"
          data-testid="editor-toolbar"
        >
          <ModeToolbar
            focusMode={focusMode}
            onFocusModeChange={setFocusOverride}
            focusOptions={FocusOptions && <FocusOptions />}
            assistantOpen={aiTools?.assistantOpen ?? false}
            onAssistantToggle={aiTools?.toggleAssistant}
            rewriteOpen={aiTools?.rewriteOpen ?? false}
            onRewriteToggle={aiTools?.toggleRewrite}
            chatOpen={chatOpen}
            onChatToggle={editor && ChatPanel ? toggleChat : undefined}
            outlineOpen={outlineOpen}
            onOutlineToggle={
              editor && OutlinePanel ? () => (outlineOpen ? closeOutline() : setOutlineOpen(true)) : undefined
            }
          />
          {editor &&
            plugins.map(
              ({ name, ToolbarAction }) => ToolbarAction && <ToolbarAction key={name} editor={editor} />,
            )}
          {editor && (
            <>
              <Separator orientation="vertical" className="mx-1 h-6" />
              <FormattingToolbar
                editor={editor}
                defaultFontFamily={font.fontFamily}
                defaultFontSizePx={font.fontSizePx}
              />
            </>
          )}
          {aiTools && (
            <>
              <Separator orientation="vertical" className="mx-1 h-6" />
              {aiTools.toolbar}
            </>
          )}
        </div>
        {/* E.g. while the instance has no AI provider: one line in the page's flow, never over the text. */}
        {aiTools?.notice}
      </div>
      <div className="flex flex-1 flex-col md:flex-row">
        {!focusMode && (
          <StatsPanel
            editor={editor}
            collapsed={statsCollapsed}
            onCollapsedChange={setStatsCollapsed}
            onSmartImprove={ai.openAssistant}
            onContinueWriting={ai.complete}
            onSummarize={ai.summarize}
            analysisOpen={analysisOpen}
            onAnalysisOpenChange={setAnalysisOpen}
          />
        )}
        <main
          className={cn(
            // min-w-0: without it the flex item's automatic minimum width makes the browser measure the whole
            // document's min-content width on every change, which costs milliseconds per keystroke in long texts.
            'mx-auto w-full min-w-0 flex-1 px-4 pb-32 pt-4 sm:px-8 sm:pt-8',
            focusMode ? 'max-w-2xl' : 'max-w-4xl',
          )}
        >
          <input
            value={title}
            onChange={(event) => onTitleChange(event.target.value)}
            onKeyDown={(event) => {
              // Enter goes on to the text, as the end of a heading would.
              if (event.key !== 'Enter' || event.nativeEvent.isComposing || !editor || !bodyReady) return;
              event.preventDefault();
              editor.commands.focus('start');
              // At once: the command's own focus waits a frame, and the keys typed meanwhile would go to the title.
              editor.view.focus();
            }}
            placeholder={DEFAULT_DOCUMENT_TITLE}
            maxLength={MAX_DOCUMENT_TITLE_LENGTH}
            aria-label="Document title"
            data-testid="title-input"
            className="mb-3 w-full border-none bg-transparent text-2xl font-bold tracking-tight outline-none placeholder:text-muted-foreground/60 sm:mb-6 sm:text-4xl"
          />
          {editor &&
            bodyReady &&
            plugins.map(({ name, AboveText }) => AboveText && <AboveText key={name} editor={editor} />)}
          <div style={{ fontFamily: fontStack(font.fontFamily), fontSize: font.fontSizePx }}>
            <EditorSurface editor={editor} ready={bodyReady} content={content} />
          </div>
        </main>
        {outlineOpen && !focusMode && editor && bodyReady && OutlinePanel && (
          <Suspense fallback={null}>
            <OutlinePanel editor={editor} onClose={closeOutline} />
          </Suspense>
        )}
        {!focusMode &&
          editor &&
          bodyReady &&
          plugins.map(({ name, SidePanel }) => SidePanel && <SidePanel key={name} editor={editor} />)}
      </div>
      {/* The open analysis fills the left column, where the hint would cover it. */}
      {!focusMode && !analysisOpen && <ShortcutsHint />}
      {editor && bodyReady && (
        <Suspense fallback={null}>
          <SelectionToolbar
            editor={editor}
            onImprove={ai.improveSelection}
            actions={plugins.map(
              ({ name, SelectionAction }) =>
                SelectionAction && <SelectionAction key={name} editor={editor} />,
            )}
          />
          <TableMenu editor={editor} />
          <BlockMenu editor={editor} onGenerate={ai.generate} />
        </Suspense>
      )}
      {aiTools?.overlay}
      {plugins.map(
        ({ name, Overlay }) =>
          Overlay && (
            <Overlay
              key={name}
              documentId={document.id}
              editor={editor}
              provider={session?.provider ?? null}
            />
          ),
      )}
      {chatMounted && editor && ChatPanel && (
        <Suspense fallback={null}>
          <ChatPanel documentId={document.id} editor={editor} open={chatOpen} onClose={closeChat} />
        </Suspense>
      )}
    </div>
  );
}
