import type { Node as PmNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, type EditorState, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet, type EditorView } from '@tiptap/pm/view';
import type { GrammarChange } from '@shared/schemas/ai';
import { textWithPositions } from './editor-ops';

/**
 * Live grammar underlines: after the writer pauses, each changed paragraph is checked (offline, by Harper on
 * the server) and its issues are underlined with decorations; clicking one offers the fix. Checks run in the
 * background and never block typing; an answer for a paragraph that changed meanwhile is dropped.
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
  /** Pause after the last keystroke before a paragraph is checked. */
  delayMs: number;
  onIssueClick(issue: GrammarIssue, target: HTMLElement): void;
}

export const liveGrammarKey = new PluginKey<DecorationSet>('liveGrammar');

const UNDERLINE_STYLE =
  'text-decoration-line: underline; text-decoration-style: wavy; text-decoration-color: rgb(239 68 68); ' +
  'text-decoration-skip-ink: none; text-underline-offset: 3px; cursor: pointer';

type Meta = { block: { from: number; to: number }; decorations: Decoration[] } | { clear: true };

function blockText(doc: PmNode, pos: number): { text: string; positions: number[] } | null {
  const node = doc.nodeAt(pos);
  if (!node || !node.isTextblock) return null;
  return textWithPositions(doc, pos + 1, pos + node.nodeSize - 1);
}

function decorationsFor(
  source: { text: string; positions: number[] },
  changes: GrammarChange[],
): { decorations: Decoration[] } {
  const decorations: Decoration[] = [];
  for (const change of changes) {
    const first = source.positions[change.offset];
    const last = source.positions[change.offset + Math.max(0, change.length - 1)];
    if (first === undefined || last === undefined || first < 0 || last < 0 || change.length === 0) continue;
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
          title: change.message,
          'data-testid': 'grammar-issue',
        },
        { issue },
      ),
    );
  }
  return { decorations };
}

/** Top-level positions of the text blocks a transaction touched. */
function touchedBlocks(tr: Transaction, doc: PmNode): Set<number> {
  const blocks = new Set<number>();
  tr.mapping.maps.forEach((map, index) => {
    map.forEach((_oldStart, _oldEnd, newStart, newEnd) => {
      const rest = tr.mapping.slice(index + 1);
      const from = rest.map(newStart, -1);
      const to = Math.min(doc.content.size, rest.map(newEnd, 1));
      doc.nodesBetween(from, Math.max(from, to), (node, pos) => {
        if (node.isTextblock) {
          blocks.add(pos);
          return false;
        }
        return true;
      });
    });
  });
  return blocks;
}

export function liveGrammarPlugin(options: LiveGrammarOptions): Plugin<DecorationSet> {
  // Text blocks waiting for a check (document positions), kept mapped through every transaction.
  let dirty = new Set<number>();
  return new Plugin<DecorationSet>({
    key: liveGrammarKey,
    state: {
      init: () => DecorationSet.empty,
      apply(tr, set: DecorationSet, _old: EditorState, state: EditorState) {
        let next = set.map(tr.mapping, tr.doc);
        const meta = tr.getMeta(liveGrammarKey) as Meta | undefined;
        if (meta && 'clear' in meta) return DecorationSet.empty;
        if (meta) {
          next = next.remove(next.find(meta.block.from, meta.block.to));
          next = next.add(state.doc, meta.decorations);
        } else if (tr.docChanged) {
          const mapped = new Set<number>();
          for (const pos of dirty) {
            const to = tr.mapping.mapResult(pos, 1);
            if (!to.deleted) mapped.add(to.pos);
          }
          // Issues inside text that was just edited are stale until the next check.
          for (const pos of touchedBlocks(tr, tr.doc)) {
            const node = tr.doc.nodeAt(pos);
            if (node) next = next.remove(next.find(pos, pos + node.nodeSize));
            mapped.add(pos);
          }
          dirty = mapped;
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
      let destroyed = false;

      const run = async () => {
        const positions = [...dirty].sort((a, b) => a - b);
        dirty = new Set();
        for (const pos of positions) {
          if (destroyed) return;
          const source = blockText(view.state.doc, pos);
          if (!source || !source.text.trim()) continue;
          let changes: GrammarChange[];
          try {
            changes = await options.check(source.text);
          } catch {
            continue; // Offline or signed out: no underlines, never an error while typing.
          }
          if (destroyed) return;
          // Drop the answer if the paragraph changed meanwhile (it is queued again by that change).
          const now = blockText(view.state.doc, pos);
          if (!now || now.text !== source.text) continue;
          const node = view.state.doc.nodeAt(pos)!;
          const { decorations } = decorationsFor(now, changes);
          view.dispatch(
            view.state.tr
              .setMeta(liveGrammarKey, { block: { from: pos, to: pos + node.nodeSize }, decorations })
              .setMeta('addToHistory', false),
          );
        }
      };
      const schedule = () => {
        clearTimeout(timer);
        timer = setTimeout(() => void run(), options.delayMs);
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
          if (!updated.state.doc.eq(previous.doc) && dirty.size > 0) schedule();
        },
        destroy() {
          destroyed = true;
          clearTimeout(timer);
        },
      };
    },
  });
}
