import { Focus, ListTree, MessagesSquare, PenLine, Sparkles } from 'lucide-react';
import type { Editor } from '@tiptap/core';
import type { ReactNode } from 'react';
import { useEditorStats } from '../hooks/useEditorStats';
import { ToolbarButton } from './ToolbarButton';

export interface ModeToolbarProps {
  focusMode: boolean;
  onFocusModeChange: (value: boolean) => void;
  /** Options of writing in focus (typewriter scrolling, dimming), right after the Focus toggle. */
  focusOptions?: ReactNode;
  assistantOpen: boolean;
  /** Absent until the AI features are wired: the toggle is then disabled. */
  onAssistantToggle?: () => void;
  rewriteOpen: boolean;
  onRewriteToggle?: () => void;
  chatOpen: boolean;
  /** Chat with the document (also Ctrl/⌘+J); absent until the editor exists. */
  onChatToggle?: () => void;
  outlineOpen: boolean;
  /** The Outline panel; absent until the editor exists. */
  onOutlineToggle?: () => void;
}

/** The toolbar toggles (Focus, AI Assistant, Rewrite), Chat and Outline: the first group of the editor's toolbar row. */
export function ModeToolbar(props: ModeToolbarProps) {
  const {
    focusMode,
    onFocusModeChange,
    focusOptions,
    assistantOpen,
    onAssistantToggle,
    rewriteOpen,
    onRewriteToggle,
    chatOpen,
    onChatToggle,
    outlineOpen,
    onOutlineToggle,
  } = props;
  return (
    <div role="group" aria-label="Panels" className="flex shrink-0 items-center gap-1">
      <ToolbarButton
        label="Focus"
        active={focusMode}
        onClick={() => onFocusModeChange(!focusMode)}
        className="px-2"
      >
        <Focus />
        <span className="hidden text-xs 2xl:inline">Focus</span>
      </ToolbarButton>
      {focusOptions}
      <ToolbarButton
        label="AI Assistant"
        active={assistantOpen}
        disabled={!onAssistantToggle}
        onClick={onAssistantToggle}
        className="px-2"
      >
        <Sparkles />
        <span className="hidden text-xs 2xl:inline">AI Assistant</span>
      </ToolbarButton>
      <ToolbarButton
        label="Rewrite"
        active={rewriteOpen}
        disabled={!onRewriteToggle}
        onClick={onRewriteToggle}
        className="px-2"
      >
        <PenLine />
        <span className="hidden text-xs 2xl:inline">Rewrite</span>
      </ToolbarButton>
      <ToolbarButton
        label="Chat"
        title="Chat with the document (Ctrl+J)"
        aria-keyshortcuts="Control+J Meta+J"
        aria-controls={chatOpen ? 'document-chat' : undefined}
        active={chatOpen}
        disabled={!onChatToggle}
        onClick={onChatToggle}
        className="px-2"
        data-testid="chat-toggle"
      >
        <MessagesSquare />
        <span className="hidden text-xs 2xl:inline">Chat</span>
      </ToolbarButton>
      <ToolbarButton
        label="Outline"
        aria-controls={outlineOpen ? 'document-outline' : undefined}
        active={outlineOpen}
        disabled={!onOutlineToggle}
        onClick={onOutlineToggle}
        className="px-2"
        data-testid="outline-toggle"
      >
        <ListTree />
        <span className="hidden text-xs 2xl:inline">Outline</span>
      </ToolbarButton>
    </div>
  );
}

/** Words, characters and minutes to read (in the header); re-renders on its own as the document changes. */
export function LiveCounts({ editor, documentReady }: { editor: Editor | null; documentReady: boolean }) {
  const stats = useEditorStats(documentReady ? editor : null);
  return (
    <div
      className="flex shrink-0 items-center gap-3 text-xs text-muted-foreground tabular-nums"
      data-testid="live-counts"
    >
      {!documentReady ? null : stats ? (
        <>
          <span>{stats.wordCount.toLocaleString()} words</span>
          <span className="hidden sm:inline">{stats.charCount.toLocaleString()} characters</span>
          <span>{stats.readingTime} min read</span>
        </>
      ) : (
        <span aria-busy="true">Counting words…</span>
      )}
    </div>
  );
}
