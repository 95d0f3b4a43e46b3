import type { HocuspocusProvider } from '@hocuspocus/provider';
import type { AnyExtension, Editor } from '@tiptap/core';
import { createContext, useContext, useMemo, type ComponentType, type ReactNode } from 'react';
import type { EditorAiActions } from './ai-actions';

/**
 * The editor page's slot for the features around it (AI, suggestions, sharing, history, export, chat, analysis…).
 * Each feature describes what it adds as an EditorPlugin; the app composes the list in one place above the
 * features (src/client/editor-page.tsx) and hands it to EditorPage. The editor never imports those features:
 * they import the editor's public surface (index.ts), so the dependency goes one way.
 */

/**
 * What an image plugin offers the editor's own controls (the toolbar's Insert image button, the '/image'
 * command): its extension is named `imageUpload` and keeps this in its storage.
 */
export interface ImageUploadStorage {
  /** Opens the file chooser; the chosen images are uploaded and inserted at the selection. */
  chooseFile: () => void;
}

declare module '@tiptap/core' {
  interface Storage {
    imageUpload?: ImageUploadStorage;
  }
}

/** Who is writing where, for a plugin's TipTap extensions. */
export interface EditorPluginContext {
  documentId: string;
  /** The writer as collaborators see them (the suggestion author, the caret's name). */
  user: { id: string; name: string; color: string };
}

/** A header action (Share, History, Export…), in the header's row after the save status. */
export interface EditorHeaderActionProps {
  documentId: string;
  /** Absent while the editor is being made: actions that need the text are shown disabled. */
  editor: Editor | null;
  /** The title as the page shows it (the default name for an untitled document). */
  title: string;
}

/** What the AI features give one live editor, every render. */
export interface EditorAiTools {
  /** The palette items, shortcuts and buttons of the page (a missing action disables its control). */
  actions: EditorAiActions;
  assistantOpen: boolean;
  toggleAssistant: () => void;
  rewriteOpen: boolean;
  toggleRewrite: () => void;
  /** Its section of the toolbar row, after the formatting tools. */
  toolbar: ReactNode;
  /** A line under the toolbar, in the page's flow (the AI setup notice). */
  notice: ReactNode;
  /** What floats over the page: panels, dialogs, underlines, the selection helper. */
  overlay: ReactNode;
}

/** Chat with the document: the side panel the toolbar's Chat toggle and Ctrl/⌘+J open. */
interface EditorChatPanelProps {
  documentId: string;
  editor: Editor;
  open: boolean;
  onClose: () => void;
}

/** The Outline: the side panel the toolbar's Outline toggle opens. */
interface EditorOutlinePanelProps {
  editor: Editor;
  onClose: () => void;
}

export interface EditorPlugin {
  /** Names the plugin in errors and React's developer tools. */
  name: string;
  /**
   * TipTap extensions, made with the editor. A plugin registered later would reconfigure the editor, which
   * re-creates every plugin view; code that arrives late takes a stand-in made here instead (StandInPlugin).
   */
  extensions?: (context: EditorPluginContext) => AnyExtension[];
  /** Code fetched as the page mounts, alongside the document's first sync (floating menus, bubbles). */
  preload?: () => void;
  /** Controls in the header's row (in plugin order). */
  HeaderAction?: ComponentType<EditorHeaderActionProps>;
  /** Links before the title in the header's breadcrumb, e.g. the document's folders (one plugin offers it). */
  Breadcrumbs?: ComponentType<{ documentId: string }>;
  /** The notifications bell, in the header's top row beside the account button (one plugin offers it). */
  Notifications?: ComponentType;
  /** Typewriter scrolling and dimming, in the toolbar right after Focus (one plugin offers it). */
  FocusOptions?: ComponentType;
  /** The editing mode control beside the title (one plugin offers it). */
  ModeSwitch?: ComponentType<{ editor: Editor }>;
  /** Above the text, under the title, once the document is ready (e.g. the suggestions under review). */
  AboveText?: ComponentType<{ editor: Editor }>;
  /**
   * Panels and dialogs over the page (in plugin order), also while the editor is being made. `provider` is the
   * document's collaboration socket (its stateless messages), absent while the session starts.
   */
  Overlay?: ComponentType<{ documentId: string; editor: Editor | null; provider: HocuspocusProvider | null }>;
  /** A column beside the text, after the Outline (in plugin order), once the document is ready. */
  SidePanel?: ComponentType<{ editor: Editor }>;
  /** Controls in the toolbar row, after the panel toggles (in plugin order). */
  ToolbarAction?: ComponentType<{ editor: Editor }>;
  /** Buttons at the end of the floating selection toolbar (in plugin order). */
  SelectionAction?: ComponentType<{ editor: Editor }>;
  /**
   * The AI tools of a live editor (one plugin offers them). A hook: the page calls it on every render of the
   * live editor, always the same one, as the plugin list never changes while the app runs.
   */
  useAiTools?: (editor: Editor | null, context: { documentId: string; isAdmin: boolean }) => EditorAiTools;
  /** Chat with the document (one plugin offers it); loaded on first open. */
  ChatPanel?: ComponentType<EditorChatPanelProps>;
  /** The Document Stats panel's Analyze section (one plugin offers it); loaded on first open. */
  AnalysisPanel?: ComponentType<{ editor: Editor }>;
  /** The document's headings as a tree (one plugin offers it); loaded on first open. */
  OutlinePanel?: ComponentType<EditorOutlinePanelProps>;
}

/** The plugins, and the parts only one plugin may fill (the first plugin that offers one fills it). */
export interface EditorSlots {
  plugins: readonly EditorPlugin[];
  useAiTools: EditorPlugin['useAiTools'];
  ModeSwitch: EditorPlugin['ModeSwitch'];
  FocusOptions: EditorPlugin['FocusOptions'];
  Breadcrumbs: EditorPlugin['Breadcrumbs'];
  Notifications: EditorPlugin['Notifications'];
  ChatPanel: EditorPlugin['ChatPanel'];
  AnalysisPanel: EditorPlugin['AnalysisPanel'];
  OutlinePanel: EditorPlugin['OutlinePanel'];
}

function slotsOf(plugins: readonly EditorPlugin[]): EditorSlots {
  const first = <K extends keyof EditorPlugin>(part: K): EditorPlugin[K] | undefined =>
    plugins.find((plugin) => plugin[part] !== undefined)?.[part];
  return {
    plugins,
    useAiTools: first('useAiTools'),
    ModeSwitch: first('ModeSwitch'),
    FocusOptions: first('FocusOptions'),
    Breadcrumbs: first('Breadcrumbs'),
    Notifications: first('Notifications'),
    ChatPanel: first('ChatPanel'),
    AnalysisPanel: first('AnalysisPanel'),
    OutlinePanel: first('OutlinePanel'),
  };
}

const EditorSlotsContext = createContext<EditorSlots>(slotsOf([]));

export function EditorPluginsProvider({
  plugins,
  children,
}: {
  plugins: readonly EditorPlugin[];
  children: ReactNode;
}) {
  const slots = useMemo(() => slotsOf(plugins), [plugins]);
  return <EditorSlotsContext.Provider value={slots}>{children}</EditorSlotsContext.Provider>;
}

/** The editor page's plugins (in the order the app listed them) and the parts they fill. */
export function useEditorPlugins(): EditorSlots {
  return useContext(EditorSlotsContext);
}

/** Every plugin's TipTap extensions, in plugin order. */
export function pluginExtensions(
  plugins: readonly EditorPlugin[],
  context: EditorPluginContext,
): AnyExtension[] {
  return plugins.flatMap((plugin) => plugin.extensions?.(context) ?? []);
}
