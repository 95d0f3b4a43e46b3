import { useQueryClient } from '@tanstack/react-query';
import type { Editor } from '@tiptap/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { RewriteStyleId } from '@shared/ai/catalog';
import { toast } from '@client/components/ui/use-toast';
import type { EditorAiActions } from '@client/features/editor';
import type { AiCommand } from '@shared/schemas/ai-commands';
import { runCommandEndpoint, useAiCommands } from '@client/features/ai-commands';
import { aiApi, streamAi, type StreamingEndpoint } from './api';
import {
  Anchor,
  anchorSelection,
  paragraphAtCursor,
  selectedText,
  textBeforeCursor,
  textWithPositions,
  type ApplyMode,
  loadMarkdown,
} from '@client/features/editor';
import { keepVersionBeforeAiChange } from '@client/features/history';
import { useUserSettings } from '@client/features/settings';
import { applyAiAnswer, applyAiGrammarChanges } from './apply-ai-change';
import { reportAiError } from './errors';
import {
  FAILED,
  NO_TEXT_SELECTED,
  SUCCESS,
  grammarFixedMessage,
  selectTextMessage,
  type SelectionPurpose,
} from './messages';
import { aiUsageKey } from './queries';

/** What a suggestion card is showing. */
type SuggestionKind =
  | 'improve'
  | 'complete'
  | 'rewrite'
  | 'summarize'
  | 'outline'
  | 'generate'
  /** A writer's own command (Settings → AI commands). */
  | 'command';

export interface PendingSuggestion {
  key: number;
  kind: SuggestionKind;
  /** Card title. */
  label: string;
  status: 'streaming' | 'ready';
  originalText: string;
  text: string;
  mode: ApplyMode;
  /** Set when the text it was asked about changed meanwhile: it is then inserted, never overwritten. */
  stale: boolean;
}

interface SuggestionRuntime {
  anchor: Anchor;
  controller: AbortController;
  storedId: Promise<string | null> | null;
  successTitle: string;
}

const SUCCESS_BY_KIND: Record<SuggestionKind, string> = {
  improve: SUCCESS.improve,
  complete: SUCCESS.complete,
  rewrite: SUCCESS.rewrite,
  summarize: SUCCESS.summarize,
  outline: SUCCESS.outline,
  generate: SUCCESS.generate,
  command: SUCCESS.command,
};
const FAILURE_BY_KIND: Record<SuggestionKind, string> = {
  improve: FAILED.improve,
  complete: FAILED.complete,
  rewrite: FAILED.rewrite,
  summarize: FAILED.summarize,
  outline: FAILED.outline,
  generate: FAILED.generate,
  command: FAILED.command,
};

export interface AiController {
  editor: Editor | null;
  documentId: string;
  /** For the editor's slash commands, shortcuts, floating toolbar and side panel (features/editor/ai-actions.ts). */
  actions: EditorAiActions;
  /** Top AI toolbar: Complete continues from the cursor without a selection; the others require one. */
  toolbar: {
    complete(): void;
    improve(): void;
    professional(): void;
    casual(): void;
    grammar(): void;
    summarize(): void;
  };
  /** Which toolbar/panel action is running (buttons show a spinner; the editor stays editable). */
  busy: string | null;
  suggestion: PendingSuggestion | null;
  acceptSuggestion(editedText?: string): void;
  rejectSuggestion(): void;
  /** Replaces the suggestion's text (Modify) before accepting. */
  modifySuggestion(text: string): void;
  assistantOpen: boolean;
  setAssistantOpen(open: boolean): void;
  toggleAssistant(): void;
  rewriteOpen: boolean;
  setRewriteOpen(open: boolean): void;
  toggleRewrite(): void;
  /** Selection captured when the rewrite dialog opened. */
  rewriteAnchor: Anchor | null;
  generateOutline(topic: string): void;
  /** Panel buttons: they report a missing selection inline (returns false) instead of a toast. */
  improveFromPanel(): boolean;
  summarizeFromPanel(): boolean;
  /** The writer's commands offered in the selection helper. */
  selectionCommands: readonly AiCommand[];
  runCustomCommand(commandId: string): void;
  /** The selection the Alternatives dialog rephrases (null while it is closed). */
  alternativesAnchor: Anchor | null;
  setAlternativesOpen(open: boolean): void;
}

function requireSelection(editor: Editor | null, purpose: SelectionPurpose): Anchor | null {
  const anchor = editor ? anchorSelection(editor) : null;
  if (!anchor) {
    toast({ title: NO_TEXT_SELECTED, description: selectTextMessage(purpose), variant: 'destructive' });
    return null;
  }
  return anchor;
}

/**
 * Every AI action of the editor, for one TipTap editor and document. Answers stream into a suggestion card
 * (never into the document, so typing goes on); accepting writes them as one undo step at the text they were
 * asked about.
 */
/** After the editor's first paint and sync, well before a writer can ask for and receive an answer. */
const MARKDOWN_PRELOAD_DELAY_MS = 1_000;

export function useAiActions(editor: Editor | null, documentId: string): AiController {
  const queryClient = useQueryClient();
  const [suggestion, setSuggestion] = useState<PendingSuggestion | null>(null);
  const runtime = useRef<SuggestionRuntime | null>(null);
  const keyRef = useRef(0);
  const [busy, setBusy] = useState<string | null>(null);
  const [assistantOpen, setAssistantOpen] = useState(false);
  const [rewriteOpen, setRewriteOpenState] = useState(false);
  const [rewriteAnchor, setRewriteAnchor] = useState<Anchor | null>(null);
  const [alternativesAnchor, setAlternativesAnchor] = useState<Anchor | null>(null);
  const { commands } = useAiCommands(editor !== null);
  // The Markdown parser for answers, fetched once the editor has settled (it is not in the first load).
  useEffect(() => {
    if (!editor) return;
    const timer = setTimeout(() => void loadMarkdown(), MARKDOWN_PRELOAD_DELAY_MS);
    return () => clearTimeout(timer);
  }, [editor]);
  // Read when an answer is applied, not when the callbacks were made.
  const { preferences } = useUserSettings();
  const aiChangesRef = useRef(preferences.aiChanges);
  useEffect(() => {
    aiChangesRef.current = preferences.aiChanges;
  }, [preferences.aiChanges]);

  const closeSuggestion = useCallback(() => {
    const current = runtime.current;
    runtime.current = null;
    current?.controller.abort();
    current?.anchor.dispose();
    setSuggestion(null);
  }, []);

  // Leaving the editor cancels a running answer.
  useEffect(() => () => closeSuggestion(), [closeSuggestion, editor]);

  const startSuggestion = useCallback(
    (
      kind: SuggestionKind,
      label: string,
      anchor: Anchor,
      endpoint: StreamingEndpoint,
      body: Record<string, unknown>,
      mode: ApplyMode,
    ) => {
      closeSuggestion();
      const controller = new AbortController();
      const key = ++keyRef.current;
      const state: SuggestionRuntime = {
        anchor,
        controller,
        storedId: null,
        successTitle: SUCCESS_BY_KIND[kind],
      };
      runtime.current = state;
      setBusy(kind);
      setSuggestion({
        key,
        kind,
        label,
        status: 'streaming',
        originalText: anchor.originalText,
        text: '',
        mode,
        stale: false,
      });
      const isCurrent = () => runtime.current === state;
      streamAi(
        endpoint,
        { ...body, documentId },
        {
          signal: controller.signal,
          onDelta: (_delta, textSoFar) => {
            if (isCurrent()) setSuggestion((s) => (s && s.key === key ? { ...s, text: textSoFar } : s));
          },
        },
      )
        .then((result) => {
          if (!isCurrent()) return;
          const text = result.text.trim();
          setSuggestion((s) =>
            s && s.key === key
              ? { ...s, text, status: 'ready', stale: mode === 'replace' && !anchor.isIntact() }
              : s,
          );
          void queryClient.invalidateQueries({ queryKey: aiUsageKey });
          // The server kept the answer as a suggestion when the stream ended; its decision is recorded on it.
          state.storedId = Promise.resolve(result.suggestionId ?? null);
        })
        .catch((error: unknown) => {
          if (!isCurrent()) return;
          closeSuggestion();
          reportAiError(error, { description: FAILURE_BY_KIND[kind] });
        })
        .finally(() => setBusy((b) => (b === kind ? null : b)));
    },
    [closeSuggestion, documentId, queryClient],
  );

  const decide = useCallback((state: SuggestionRuntime, accepted: boolean) => {
    void state.storedId?.then(async (id) => {
      if (!id) return;
      try {
        await aiApi.decideSuggestion(id, accepted);
      } catch (error) {
        console.error('Failed to record the AI suggestion decision', error);
      }
    });
  }, []);

  const acceptSuggestion = useCallback(
    async (editedText?: string) => {
      const state = runtime.current;
      const current = suggestion;
      if (!editor || !state || !current || current.status !== 'ready') return;
      const text = (editedText ?? current.text).trim();
      if (!text) return;
      await keepVersionBeforeAiChange(documentId);
      // Closed or replaced while the version was being kept.
      if (runtime.current !== state || editor.isDestroyed) return;
      const range = state.anchor.resolve();
      // The asked-about text changed while the answer was written: insert below it instead of overwriting.
      const overwrite = current.mode === 'replace' && state.anchor.isIntact();
      const target = range ?? { from: editor.state.selection.to, to: editor.state.selection.to };
      const mode: ApplyMode = current.mode === 'replace' && !overwrite ? 'after' : current.mode;
      applyAiAnswer(editor, target, text, mode, aiChangesRef.current);
      toast({ title: state.successTitle });
      decide(state, true);
      runtime.current = null;
      state.anchor.dispose();
      setSuggestion(null);
    },
    [decide, documentId, editor, suggestion],
  );

  const rejectSuggestion = useCallback(() => {
    const state = runtime.current;
    if (state && suggestion?.status === 'ready') decide(state, false);
    closeSuggestion();
  }, [closeSuggestion, decide, suggestion]);

  const modifySuggestion = useCallback((text: string) => {
    setSuggestion((s) => (s ? { ...s, text } : s));
  }, []);

  // ---- actions

  const improve = useCallback(() => {
    const anchor = requireSelection(editor, 'improve');
    if (anchor)
      startSuggestion(
        'improve',
        'Improved text',
        anchor,
        'improve',
        { text: anchor.originalText },
        'replace',
      );
  }, [editor, startSuggestion]);

  const rewriteWithStyle = useCallback(
    (style: RewriteStyleId, label: string) => {
      const anchor = requireSelection(editor, 'rewrite');
      if (anchor)
        startSuggestion('rewrite', label, anchor, 'rewrite', { text: anchor.originalText, style }, 'replace');
    },
    [editor, startSuggestion],
  );

  const completeStrict = useCallback(() => {
    const anchor = requireSelection(editor, 'complete');
    if (anchor)
      startSuggestion('complete', 'Completion', anchor, 'complete', { text: anchor.originalText }, 'append');
  }, [editor, startSuggestion]);

  /** Continue Writing / AI Complete: the selection, or else the text before the cursor. */
  const completeLenient = useCallback(() => {
    if (!editor) return;
    if (selectedText(editor)) return completeStrict();
    const before = textBeforeCursor(editor);
    if (!before) return completeStrict();
    const anchor = new Anchor(editor, before.pos, before.pos, '');
    startSuggestion('complete', 'Completion', anchor, 'complete', { text: before.text }, 'append');
  }, [completeStrict, editor, startSuggestion]);

  const summarizeStrict = useCallback(() => {
    const anchor = requireSelection(editor, 'summarize');
    if (anchor)
      startSuggestion('summarize', 'Summary', anchor, 'summarize', { text: anchor.originalText }, 'after');
  }, [editor, startSuggestion]);

  /** Slash command / side panel Summarize: the selection, or else the whole document (summary at the end). */
  const summarizeLenient = useCallback(() => {
    if (!editor) return;
    if (selectedText(editor)) return summarizeStrict();
    const size = editor.state.doc.content.size;
    const { text } = textWithPositions(editor.state.doc, 0, size);
    if (!text.trim()) return summarizeStrict();
    const anchor = new Anchor(editor, size, size, '');
    startSuggestion('summarize', 'Summary', anchor, 'summarize', { text }, 'after');
  }, [editor, startSuggestion, summarizeStrict]);

  const grammar = useCallback(() => {
    if (!editor) return;
    const selection = selectedText(editor);
    if (!selection) {
      toast({
        title: NO_TEXT_SELECTED,
        description: selectTextMessage('check grammar'),
        variant: 'destructive',
      });
      return;
    }
    const source = textWithPositions(editor.state.doc, selection.from, selection.to);
    const anchor = new Anchor(editor, selection.from, selection.to, source.text);
    setBusy('grammar');
    aiApi
      .grammar(source.text)
      .then(async (result) => {
        if (result.changes.length === 0) {
          toast({ title: SUCCESS.noIssues });
          return;
        }
        await keepVersionBeforeAiChange(documentId);
        if (editor.isDestroyed) return;
        // Offsets refer to the text as it was sent; if it changed meanwhile, recompute positions.
        const range = anchor.resolve();
        if (!range) return;
        const now = textWithPositions(editor.state.doc, range.from, range.to);
        const applied = applyAiGrammarChanges(
          editor,
          now.text === source.text ? now : source,
          result.changes,
          aiChangesRef.current,
        );
        toast({ title: SUCCESS.grammar, description: grammarFixedMessage(applied) });
      })
      .catch((error: unknown) => reportAiError(error, { description: FAILED.grammar }))
      .finally(() => {
        anchor.dispose();
        setBusy((b) => (b === 'grammar' ? null : b));
      });
  }, [documentId, editor]);

  const generateOutline = useCallback(
    (topic: string) => {
      if (!editor || !topic.trim()) return;
      const pos = editor.state.selection.to;
      const anchor = new Anchor(editor, pos, pos, '');
      startSuggestion(
        'outline',
        `Outline: ${topic.trim()}`,
        anchor,
        'outline',
        { topic: topic.trim() },
        'replace',
      );
    },
    [editor, startSuggestion],
  );

  /** Block menu "AI Generate": continue from the text so far, or outline a topic the writer names. */
  const generate = useCallback(() => {
    if (!editor) return;
    const before = textBeforeCursor(editor);
    const pos = editor.state.selection.to;
    const anchor = new Anchor(editor, pos, pos, '');
    if (before) {
      startSuggestion('generate', 'Generated content', anchor, 'complete', { text: before.text }, 'append');
      return;
    }
    const topic = window.prompt('What should the AI write about?');
    if (!topic?.trim()) return anchor.dispose();
    startSuggestion('generate', 'Generated content', anchor, 'outline', { topic: topic.trim() }, 'replace');
  }, [editor, startSuggestion]);

  const setRewriteOpen = useCallback(
    (open: boolean) => {
      if (!open) {
        setRewriteOpenState(false);
        setRewriteAnchor((a) => {
          a?.dispose();
          return null;
        });
        return;
      }
      const anchor = requireSelection(editor, 'rewrite');
      if (!anchor) return;
      setRewriteAnchor((a) => {
        a?.dispose();
        return anchor;
      });
      setRewriteOpenState(true);
    },
    [editor],
  );

  /** A writer's command on the selection, or else on the paragraph at the caret; the answer is a suggestion. */
  const runCustomCommand = useCallback(
    (commandId: string) => {
      if (!editor) return;
      const command = commands.find((c) => c.id === commandId);
      if (!command) return;
      const target = selectedText(editor) ?? paragraphAtCursor(editor);
      if (!target) {
        requireSelection(editor, 'run the command on');
        return;
      }
      const anchor = new Anchor(editor, target.from, target.to, target.text);
      startSuggestion(
        'command',
        command.name,
        anchor,
        runCommandEndpoint(command.id),
        { text: anchor.originalText },
        'replace',
      );
    },
    [commands, editor, startSuggestion],
  );

  const setAlternativesOpen = useCallback(
    (open: boolean) => {
      const anchor = open ? requireSelection(editor, 'find alternatives') : null;
      if (open && !anchor) return;
      setAlternativesAnchor((a) => {
        a?.dispose();
        return anchor;
      });
    },
    [editor],
  );

  const selectionCommands = useMemo(() => commands.filter((c) => c.showInSelection), [commands]);

  const improveFromPanel = useCallback(() => {
    if (!editor || !selectedText(editor)) return false;
    improve();
    return true;
  }, [editor, improve]);

  const summarizeFromPanel = useCallback(() => {
    if (!editor || !selectedText(editor)) return false;
    summarizeStrict();
    return true;
  }, [editor, summarizeStrict]);

  const actions = useMemo<EditorAiActions>(
    () => ({
      improveSelection: improve,
      complete: completeLenient,
      rewrite: () => setRewriteOpen(true),
      summarize: summarizeLenient,
      openAssistant: () => setAssistantOpen(true),
      generate,
      paletteCommands: commands.filter((c) => c.showInSlash),
      runCustomCommand,
    }),
    [commands, completeLenient, generate, improve, runCustomCommand, setRewriteOpen, summarizeLenient],
  );

  const toolbar = useMemo(
    () => ({
      complete: completeLenient,
      improve,
      professional: () => rewriteWithStyle('professional', 'Professional'),
      casual: () => rewriteWithStyle('casual', 'Casual'),
      grammar,
      summarize: summarizeStrict,
    }),
    [completeLenient, grammar, improve, rewriteWithStyle, summarizeStrict],
  );

  return {
    editor,
    documentId,
    actions,
    toolbar,
    busy,
    suggestion,
    acceptSuggestion,
    rejectSuggestion,
    modifySuggestion,
    assistantOpen,
    setAssistantOpen,
    toggleAssistant: () => setAssistantOpen((o) => !o),
    rewriteOpen,
    setRewriteOpen,
    toggleRewrite: () => setRewriteOpen(!rewriteOpen),
    rewriteAnchor,
    generateOutline,
    improveFromPanel,
    summarizeFromPanel,
    selectionCommands,
    runCustomCommand,
    alternativesAnchor,
    setAlternativesOpen,
  };
}
