import { Extension, type Editor } from '@tiptap/core';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet, type EditorView } from '@tiptap/pm/view';
import {
  GHOST_COMPLETION_CONTEXT_CHARS,
  GHOST_COMPLETION_MAX_CHARS,
  GHOST_COMPLETION_MIN_WORDS,
} from '@shared/constants';
import { asOneUndoStep } from '@client/features/editor';
import './ghost-text.css';

/**
 * Ghost-text completion: when the writer pauses with the caret at the end of a paragraph of a few words, a
 * continuation streams in as grey text after the caret. Tab keeps it (one undo step), Ctrl/⌘+→ keeps its
 * next word, Escape dismisses it, and anything else the writer does (typing, moving, clicking) dismisses it
 * and cancels a request in flight. The ghost is a decoration of this editor only: nothing reaches the shared
 * document, and collaborators never see it, until it is kept. At most one request per pause.
 */

export interface GhostTextOptions {
  /**
   * Asks for a continuation of `text` (what precedes the caret); `onText` receives the answer so far.
   * Resolves when the answer is complete; rejects or stops when `signal` aborts.
   */
  complete: (text: string, signal: AbortSignal, onText: (textSoFar: string) => void) => Promise<void>;
}

interface GhostState {
  /** Where the ghost sits (the caret when it was asked for). */
  at: number;
  text: string;
}

const ghostTextKey = new PluginKey<GhostState | null>('ghostText');

const SET = 'ghostTextSet';

/** The first word of `text` with the spaces before it and one space after, or all of it. */
function firstWord(text: string): string {
  const match = /^\s*\S+\s?/u.exec(text);
  return match ? match[0] : text;
}

/** The answer as inline ghost text: one line, bounded, spaced from what precedes it. */
export function ghostFromAnswer(answer: string, before: string): string {
  let text = answer.replace(/\s*\n\s*/gu, ' ').replace(/^\s+/u, '');
  if (text.length > GHOST_COMPLETION_MAX_CHARS) {
    const cut = text.slice(0, GHOST_COMPLETION_MAX_CHARS);
    const lastSpace = cut.lastIndexOf(' ');
    text = lastSpace > 0 ? cut.slice(0, lastSpace) : cut;
  }
  if (!text) return '';
  const needsSpace = before !== '' && !/\s$/u.test(before) && !/^[\s.,;:!?)\]'"’”]/u.test(text);
  return needsSpace ? ` ${text}` : text;
}

/** Whether the caret is where a continuation makes sense: the end of a paragraph of a few words. */
function continuationPoint(state: EditorState): { at: number; before: string } | null {
  const { selection } = state;
  if (!selection.empty) return null;
  const $caret = selection.$head;
  const block = $caret.parent;
  if (!block.isTextblock || block.type.name === 'codeBlock') return null;
  if ($caret.parentOffset !== block.content.size) return null;
  const paragraph = block.textContent;
  if (paragraph.trim().split(/\s+/u).filter(Boolean).length < GHOST_COMPLETION_MIN_WORDS) return null;
  const from = Math.max(0, $caret.pos - GHOST_COMPLETION_CONTEXT_CHARS);
  const before = state.doc.textBetween(from, $caret.pos, '\n', ' ');
  return { at: $caret.pos, before };
}

interface GhostTextStorage {
  /** The pause before asking, or null while ghost completion is off (preference, AI unavailable). */
  delayMs: number | null;
}

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    ghostText: {
      /** The pause before a continuation is asked for; null turns ghost completion off. */
      setGhostCompletionDelay: (delayMs: number | null) => ReturnType;
    };
  }
  interface Storage {
    ghostText: GhostTextStorage;
  }
}

class GhostController {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private request: AbortController | null = null;

  constructor(
    private readonly view: EditorView,
    private readonly options: GhostTextOptions,
    private readonly storage: GhostTextStorage,
  ) {}

  /** Something happened: whatever was shown or asked for is over; a new pause may begin. */
  restart() {
    this.cancel();
    if (!this.view.hasFocus() || !this.view.editable) return;
    const delay = this.storage.delayMs;
    if (delay === null) return;
    const point = continuationPoint(this.view.state);
    if (!point) return;
    this.timer = setTimeout(() => this.ask(point), delay);
  }

  cancel() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.request?.abort();
    this.request = null;
  }

  private ask(point: { at: number; before: string }) {
    this.timer = null;
    // The rest of a ghost kept word by word is still showing: this pause already has its answer.
    if (ghostTextKey.getState(this.view.state)) return;
    const request = new AbortController();
    this.request = request;
    this.options
      .complete(point.before, request.signal, (textSoFar) => {
        if (request.signal.aborted || this.view.isDestroyed) return;
        const text = ghostFromAnswer(textSoFar, point.before);
        if (text) this.view.dispatch(this.view.state.tr.setMeta(SET, { at: point.at, text }));
      })
      .catch(() => {
        // A ghost that could not be fetched is simply not shown; the writer was not waiting for it.
      })
      .finally(() => {
        if (this.request === request) this.request = null;
      });
  }
}

/** Writes `text` at the ghost's place as the writer's own typing would (one undo step). */
function keep(editor: Editor, ghost: GhostState, text: string): boolean {
  return asOneUndoStep(editor, () => {
    editor.view.dispatch(editor.state.tr.insertText(text, ghost.at).scrollIntoView());
    return true;
  });
}

export const GhostText = Extension.create<GhostTextOptions>({
  name: 'ghostText',
  // Its keys (Tab, Ctrl/⌘+→, Escape) come before lists' Tab and the other shortcuts while a ghost shows.
  priority: 1000,

  addOptions() {
    return { complete: () => Promise.resolve() };
  },

  addStorage() {
    return { delayMs: null } as GhostTextStorage;
  },

  addCommands() {
    return {
      setGhostCompletionDelay:
        (delayMs) =>
        ({ editor: current }) => {
          current.storage.ghostText.delayMs = delayMs;
          return true;
        },
    };
  },

  addProseMirrorPlugins() {
    const editor = this.editor;
    const options = this.options;
    const storage = this.storage;
    let controller: GhostController | null = null;
    return [
      new Plugin<GhostState | null>({
        key: ghostTextKey,
        state: {
          init: () => null,
          apply(tr, current) {
            const set = tr.getMeta(SET) as GhostState | null | undefined;
            if (set !== undefined) return set;
            // Any change of the document or the caret ends the ghost.
            if (current && (tr.docChanged || tr.selectionSet)) return null;
            return current;
          },
        },
        props: {
          decorations(state) {
            const ghost = ghostTextKey.getState(state);
            if (!ghost) return null;
            const widget = document.createElement('span');
            widget.className = 'ghost-text';
            widget.textContent = ghost.text;
            widget.setAttribute('aria-hidden', 'true');
            widget.dataset.testid = 'ghost-text';
            return DecorationSet.create(state.doc, [
              Decoration.widget(ghost.at, widget, { side: 1, key: `ghost:${ghost.text}` }),
            ]);
          },
          handleKeyDown(view, event) {
            const ghost = ghostTextKey.getState(view.state);
            if (!ghost) return false;
            const plain = !event.altKey && !event.shiftKey;
            if (event.key === 'Tab' && plain && !event.ctrlKey && !event.metaKey) {
              controller?.cancel();
              return keep(editor, ghost, ghost.text);
            }
            if (event.key === 'ArrowRight' && plain && (event.ctrlKey || event.metaKey)) {
              const word = firstWord(ghost.text);
              const rest = ghost.text.slice(word.length);
              keep(editor, ghost, word);
              if (rest) view.dispatch(view.state.tr.setMeta(SET, { at: ghost.at + word.length, text: rest }));
              return true;
            }
            if (event.key === 'Escape') {
              controller?.cancel();
              view.dispatch(view.state.tr.setMeta(SET, null));
              return true;
            }
            return false;
          },
          handleDOMEvents: {
            blur: (view) => {
              controller?.cancel();
              if (ghostTextKey.getState(view.state)) view.dispatch(view.state.tr.setMeta(SET, null));
              return false;
            },
          },
        },
        view(view) {
          controller = new GhostController(view, options, storage);
          return {
            update(updated, previous) {
              // A ghost arriving or being kept word by word is not a pause of the writer's.
              const changed =
                !updated.state.doc.eq(previous.doc) || !updated.state.selection.eq(previous.selection);
              if (changed) controller?.restart();
            },
            destroy() {
              controller?.cancel();
              controller = null;
            },
          };
        },
      }),
    ];
  },
});
