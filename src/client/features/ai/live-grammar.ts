import type { Node as PmNode } from '@tiptap/pm/model';
import { Plugin, type EditorState } from '@tiptap/pm/state';
import { Mapping, StepMap } from '@tiptap/pm/transform';
import { Decoration, DecorationSet, type EditorView } from '@tiptap/pm/view';
import type { GrammarChange } from '@shared/schemas/ai';
import { changedRange } from '@client/features/editor';
import { textWithPositions } from '@client/features/editor';
import { liveGrammarKey } from './live-grammar-slot';
import { grammarMessageText } from './grammar-message';

/**
 * Live grammar underlines: each changed paragraph is checked in the background (by Harper in a Web Worker,
 * see live-grammar-checker.ts) and its issues are underlined with decorations; clicking one offers the fix.
 * Nothing here waits on a check: an edit only marks its paragraph for checking, one check runs at a time
 * (the paragraph nearest the caret first), and an answer for a paragraph that changed meanwhile is dropped
 * (the change queued that paragraph again, so the latest text is what gets checked next).
 */

export interface GrammarIssue {
  from: number;
  to: number;
  original: string;
  replacement: string;
  message: string;
}

export interface LiveGrammarOptions {
  check(text: string): Promise<GrammarChange[]>;
  /** Pause after the last edit before checking; read at each edit, so it can follow the checker's mode. */
  delayMs: number | (() => number);
  /** Pause in editing before paragraphs other than the caret's are checked (default 500 ms). */
  idleMs?: number;
  /**
   * Whether the checker is up. While it is not, even the caret's paragraph waits for a pause in editing, so
   * its start (the worker's download and compile: seconds of CPU) does not compete with typing.
   */
  started?: () => boolean;
  /**
   * How long after the plugin arrives no check is made at all (default none). The first pass over the document,
   * and the checker's start with it, then waits for a pause in editing like every other check of a paragraph away
   * from the caret: a writer who types as the document opens is not slowed by it.
   */
  firstPassAfterMs?: number;
  onIssueClick(issue: GrammarIssue, target: HTMLElement): void;
}

const UNDERLINE_STYLE =
  'text-decoration-line: underline; text-decoration-style: wavy; text-decoration-color: rgb(239 68 68); ' +
  'text-decoration-skip-ink: none; text-underline-offset: 3px; cursor: pointer';

type Meta = { blocks: { from: number; to: number; decorations: Decoration[] }[] } | { clear: true };

interface Answer {
  pos: number;
  text: string;
  changes: GrammarChange[];
}

interface BlockText {
  text: string;
  positions: number[];
}

function blockText(doc: PmNode, pos: number): BlockText | null {
  const node = doc.nodeAt(pos);
  if (!node || !node.isTextblock) return null;
  return textWithPositions(doc, pos + 1, pos + node.nodeSize - 1);
}

/**
 * The block's issues as decorations. An issue reaching the caret is the word being typed ("recie…", or a word
 * being written into the middle of another): it is held back (Word and Docs do the same) and shown once the
 * writer types past it or moves the caret. Underlining it would change the word under the caret on every
 * keystroke, and each change redraws the paragraph and places the DOM selection again.
 */
function decorationsFor(
  source: BlockText,
  changes: GrammarChange[],
  caret: number | null,
): { decorations: Decoration[]; heldBack: boolean } {
  const decorations: Decoration[] = [];
  let heldBack = false;
  for (const change of changes) {
    const first = source.positions[change.offset];
    const last = source.positions[change.offset + Math.max(0, change.length - 1)];
    if (first === undefined || last === undefined || first < 0 || last < 0 || change.length === 0) continue;
    if (caret !== null && caret >= first && caret <= last + 1) {
      heldBack = true;
      continue;
    }
    const issue: GrammarIssue = {
      from: first,
      to: last + 1,
      original: change.original,
      replacement: change.replacement,
      message: change.message,
    };
    decorations.push(
      Decoration.inline(
        issue.from,
        issue.to,
        {
          class: 'qw-grammar-issue',
          style: UNDERLINE_STYLE,
          title: grammarMessageText(change.message),
          'data-testid': 'grammar-issue',
        },
        { issue },
      ),
    );
  }
  return { decorations, heldBack };
}

function sameIssues(a: Decoration[], b: Decoration[]): boolean {
  if (a.length !== b.length) return false;
  const key = (d: Decoration) => {
    const issue = (d.spec as { issue: GrammarIssue }).issue;
    return `${d.from}:${d.to}:${issue.replacement}:${issue.message}`;
  };
  const keys = new Set(a.map(key));
  return b.every((d) => keys.has(key(d)));
}

function textblocksIn(doc: PmNode, from: number, to: number, into: Set<number>) {
  doc.nodesBetween(Math.max(0, from - 1), Math.min(doc.content.size, to + 1), (node, pos) => {
    if (node.isTextblock) {
      into.add(pos);
      return false;
    }
    return true;
  });
}

/**
 * Of the blocks waiting, the one containing the caret, else the nearest to it. Runs after every keystroke with
 * up to every block of the document waiting (the first pass over a novel takes minutes), so it looks up one
 * block only: text blocks do not overlap, so the nearest is either the last one starting at or before the caret
 * or the first one after it. Looking every block up (`doc.nodeAt`) made this quadratic, a millisecond per
 * keystroke at 1,000 paragraphs.
 */
function nearestBlock(
  doc: PmNode,
  blocks: Set<number>,
  head: number,
): { pos: number; atCaret: boolean } | undefined {
  let before = -1;
  let after = Infinity;
  for (const pos of blocks) {
    if (pos <= head) before = Math.max(before, pos);
    else after = Math.min(after, pos);
  }
  const beforeEnd = before < 0 ? -Infinity : before + (doc.nodeAt(before)?.nodeSize ?? 0);
  if (head <= beforeEnd) return { pos: before, atCaret: true };
  if (before < 0 && after === Infinity) return undefined;
  return head - beforeEnd <= after - head ? { pos: before, atCaret: false } : { pos: after, atCaret: false };
}

const IDLE_MS = 500;
const SHORT_CHECK_MS = 20;
/**
 * Answers for paragraphs away from the caret are gathered for this long and shown in one transaction. Each
 * transaction runs the editor's whole update (plugin views, React re-renders of what reads the editor state),
 * which on a long document costs far more than a check: one per paragraph kept the main thread busy through the
 * first pass.
 */
const BATCH_MS = 100;

export function liveGrammarPlugin(options: LiveGrammarOptions): Plugin<DecorationSet> {
  // Text blocks waiting for a check (document positions), kept mapped through every change.
  let dirty = new Set<number>();
  // Blocks with an issue held back at the caret: checked again when the caret moves.
  let waiting = new Set<number>();
  // The block being checked right now; `null` once a change deleted it.
  let inFlight: { pos: number | null } | null = null;
  // Checked blocks whose answers wait to be shown together (BATCH_MS), kept mapped like `dirty`.
  let answered: Answer[] = [];
  const delay = () => (typeof options.delayMs === 'function' ? options.delayMs() : options.delayMs);

  const mapAnswers = (answers: Answer[], map: StepMap) =>
    answers.flatMap((answer) => {
      const result = map.mapResult(answer.pos, 1);
      return result.deleted ? [] : [{ ...answer, pos: result.pos }];
    });

  const mapSet = (set: Set<number>, map: StepMap) => {
    const mapped = new Set<number>();
    for (const pos of set) {
      const result = map.mapResult(pos, 1);
      if (!result.deleted) mapped.add(result.pos);
    }
    return mapped;
  };

  return new Plugin<DecorationSet>({
    key: liveGrammarKey,
    state: {
      init: () => DecorationSet.empty,
      apply(tr, set: DecorationSet, old: EditorState, state: EditorState) {
        const meta = tr.getMeta(liveGrammarKey) as Meta | undefined;
        if (meta && 'clear' in meta) return DecorationSet.empty;
        let next = set;
        if (tr.docChanged) {
          const changed = changedRange(old.doc, state.doc);
          if (!changed) return set;
          next = set.map(new Mapping([changed.map]), state.doc);
          // Issues touching the edited text are stale until the next check; the rest of the paragraph keeps its
          // underlines (mapped), so they do not blink on every keystroke.
          next = next.remove(next.find(changed.from, changed.to));
          dirty = mapSet(dirty, changed.map);
          waiting = mapSet(waiting, changed.map);
          answered = mapAnswers(answered, changed.map);
          if (inFlight?.pos != null) {
            const result = changed.map.mapResult(inFlight.pos, 1);
            inFlight.pos = result.deleted ? null : result.pos;
          }
          textblocksIn(state.doc, changed.from, changed.to, dirty);
        }
        if (meta) {
          for (const block of meta.blocks) {
            next = next.remove(next.find(block.from, block.to));
            next = next.add(state.doc, block.decorations);
          }
        }
        return next;
      },
    },
    props: {
      decorations: (state) => liveGrammarKey.getState(state),
      handleClick(view, pos, event) {
        const set = liveGrammarKey.getState(view.state);
        const found = set?.find(pos, pos, (spec) => Boolean((spec as { issue?: GrammarIssue }).issue))[0];
        if (!found) return false;
        const issue = (found.spec as { issue: GrammarIssue }).issue;
        const target = (event.target as HTMLElement | null)?.closest(
          '.qw-grammar-issue',
        ) as HTMLElement | null;
        if (!target) return false;
        options.onIssueClick({ ...issue, from: found.from, to: found.to }, target);
        return false;
      },
    },
    view(view: EditorView) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let running = false;
      let destroyed = false;

      const checkOne = async (pos: number) => {
        const source = blockText(view.state.doc, pos);
        if (!source || !source.text.trim()) return;
        const current = { pos: pos as number | null };
        inFlight = current;
        let changes: GrammarChange[];
        try {
          changes = await options.check(source.text);
        } catch {
          return; // Offline or signed out: no underlines, never an error while typing.
        } finally {
          inFlight = null;
        }
        if (destroyed || current.pos === null) return;
        answered.push({ pos: current.pos, text: source.text, changes });
      };

      let showTimer: ReturnType<typeof setTimeout> | undefined;
      // Shows the gathered answers in one transaction (none if no underline changed).
      const show = () => {
        clearTimeout(showTimer);
        showTimer = undefined;
        const answers = answered;
        answered = [];
        if (destroyed || answers.length === 0) return;
        const blocks: { from: number; to: number; decorations: Decoration[] }[] = [];
        const existingSet = liveGrammarKey.getState(view.state);
        for (const { pos: at, text, changes } of answers) {
          // Dropped if the paragraph changed meanwhile: that change queued it again.
          const now = blockText(view.state.doc, at);
          if (!now || now.text !== text) continue;
          if (view.composing) {
            dirty.add(at); // Decorations changing under an IME composition can break it; retried after.
            continue;
          }
          const { selection } = view.state;
          const { decorations, heldBack } = decorationsFor(
            now,
            changes,
            selection.empty ? selection.head : null,
          );
          if (heldBack) waiting.add(at);
          else waiting.delete(at);
          const node = view.state.doc.nodeAt(at)!;
          const block = { from: at, to: at + node.nodeSize };
          const existing = existingSet?.find(block.from, block.to) ?? [];
          if (!sameIssues(existing, decorations)) blocks.push({ ...block, decorations });
        }
        if (blocks.length === 0) return;
        view.dispatch(view.state.tr.setMeta(liveGrammarKey, { blocks }).setMeta('addToHistory', false));
      };
      const showSoon = () => {
        if (showTimer === undefined) showTimer = setTimeout(show, BATCH_MS);
      };

      let lastEditAt = -Infinity;
      let lastCheck = { end: -Infinity, took: 0 };
      const idleMs = options.idleMs ?? IDLE_MS;
      const holdUntil = performance.now() + (options.firstPassAfterMs ?? 0);

      const wake = (ms: number) => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          timer = undefined;
          void run();
        }, ms);
      };
      const schedule = () => {
        const ms = delay();
        if (ms > 0) return wake(ms);
        // No pause: the check goes out right after this transaction, before the browser paints the keystroke,
        // so the worker lints while the page renders (a timer would wait for the frame: ~10–20 ms more).
        // Sending costs well under a millisecond (the paragraph's text and one postMessage).
        clearTimeout(timer);
        timer = undefined;
        queueMicrotask(() => void run());
      };

      // One check at a time; stops when the writer types again (the pause timer restarts it). While the writer
      // types, only the paragraph with the caret is checked, and after a check longer than SHORT_CHECK_MS the
      // checker rests as long as that check took: on a long sentence its thread works at most half the time
      // however fast they type, which matters on a machine with few cores (bench:editor, bench:grammar); short
      // checks (most sentences) need no rest, which would only add to the time to the underline. Other
      // paragraphs wait for a pause in editing.
      const run = async () => {
        if (running) return;
        running = true;
        try {
          while (!destroyed && timer === undefined && dirty.size > 0) {
            const next = nearestBlock(view.state.doc, dirty, view.state.selection.head);
            if (!next) break;
            const now = performance.now();
            if (now < holdUntil) {
              wake(holdUntil - now);
              break;
            }
            const typing = now - lastEditAt < idleMs;
            const started = options.started?.() ?? true;
            const wait = typing
              ? next.atCaret && started
                ? lastCheck.end + (lastCheck.took > SHORT_CHECK_MS ? lastCheck.took : 0) - now
                : lastEditAt + idleMs - now
              : 0;
            if (wait > 0) {
              wake(wait);
              break;
            }
            dirty.delete(next.pos);
            await checkOne(next.pos);
            const end = performance.now();
            lastCheck = { end, took: end - now };
            // The caret's paragraph is shown at once (the writer waits for it); the rest in batches.
            if (next.atCaret) show();
            else showSoon();
          }
        } finally {
          running = false;
          if (answered.length > 0) showSoon();
        }
      };

      view.state.doc.descendants((node, pos) => {
        if (node.isTextblock) {
          dirty.add(pos);
          return false;
        }
        return true;
      });
      schedule();

      return {
        update(updated, previous) {
          const docChanged = !updated.state.doc.eq(previous.doc);
          if (docChanged) lastEditAt = performance.now();
          if (!docChanged && waiting.size > 0 && !updated.state.selection.eq(previous.selection)) {
            for (const pos of waiting) dirty.add(pos);
            waiting = new Set();
          }
          if (dirty.size > 0 && (docChanged || !running)) schedule();
        },
        destroy() {
          destroyed = true;
          clearTimeout(timer);
          clearTimeout(showTimer);
        },
      };
    },
  });
}
