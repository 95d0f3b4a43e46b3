import type { Editor } from '@tiptap/core';
import { isChangeOrigin } from '@tiptap/extension-collaboration';
import type { Transaction } from '@tiptap/pm/state';
import { useCallback, useEffect, useRef, useState } from 'react';
import { blockWordCount } from '@client/features/editor';
import { isSuggesting } from '@client/features/suggestions';
import { buildOutline, sectionAt, type Outline, type OutlineSection } from './outline';

/**
 * After a change the outline is rebuilt at most this often: a rebuild reads every top-level block (its word
 * count is cached per block, so only the edited one is counted again), and re-renders the panel.
 */
const REBUILD_DELAY_MS = 120;
/**
 * The reading line, from the top of the window: while scrolling, the current section is the last one whose
 * heading has passed it. Below the editor's sticky header, and below where a jump puts a heading (outline.css).
 */
const READING_LINE_PX = 176;
/**
 * A jump scrolls the page: the scroll events it causes, arriving in the frames after it, must not move the
 * highlight off the heading jumped to.
 */
const JUMP_SCROLL_GRACE_MS = 400;

export interface OutlineState {
  outline: Outline;
  /** The section the writer is in: where the caret went last, or where the page was scrolled to last. */
  current: OutlineSection | null;
  /** Positions of the collapsed sections' headings, carried along as the document changes. */
  collapsed: ReadonlySet<number>;
  toggleCollapsed: (section: OutlineSection) => void;
  /** Whether sections may be moved now (not in Suggesting mode, not read-only). */
  canMove: boolean;
  suggesting: boolean;
  /** Rebuilds at once (after a move, so the focus can follow the moved heading). */
  refresh: () => Outline;
  /** Scrolls the heading into view and puts the caret at its start. */
  jumpTo: (section: OutlineSection) => void;
}

function headingTop(editor: Editor, section: OutlineSection): number {
  const dom = editor.view.nodeDOM(section.pos);
  if (dom instanceof HTMLElement) return dom.getBoundingClientRect().top;
  // Not drawn as one element (never expected for a heading): where its first character is.
  return editor.view.coordsAtPos(Math.min(section.pos + 1, editor.state.doc.content.size)).top;
}

/** The last section whose heading is above the reading line (binary search: headings go down the page). */
function sectionAtReadingLine(editor: Editor, sections: readonly OutlineSection[]): OutlineSection | null {
  let low = 0;
  let high = sections.length - 1;
  let found: OutlineSection | null = null;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (headingTop(editor, sections[middle]!) <= READING_LINE_PX) {
      found = sections[middle]!;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

export function useOutline(editor: Editor): OutlineState {
  const [outline, setOutline] = useState(() => buildOutline(editor.state.doc, blockWordCount));
  const outlineRef = useRef(outline);
  const builtFrom = useRef(editor.state.doc);
  // Until the writer moves the caret or scrolls: the section the caret is in.
  const [currentPos, setCurrentPos] = useState<number | null>(() => editor.state.selection.from);
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(() => new Set());
  const [modes, setModes] = useState(() => ({
    suggesting: isSuggesting(editor),
    editable: editor.isEditable,
  }));
  /** When the last jump was, and the scroll position it landed on. */
  const jump = useRef({ at: 0, scrollY: 0 });

  const refresh = useCallback(() => {
    const next = buildOutline(editor.state.doc, blockWordCount);
    outlineRef.current = next;
    builtFrom.current = editor.state.doc;
    setOutline(next);
    return next;
  }, [editor]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const onTransaction = ({ transaction }: { transaction: Transaction }) => {
      setModes((old) => {
        const suggesting = isSuggesting(editor);
        const editable = editor.isEditable;
        return old.suggesting === suggesting && old.editable === editable ? old : { suggesting, editable };
      });
      if (transaction.docChanged) {
        setCollapsed((old) =>
          old.size === 0 ? old : new Set([...old].map((pos) => transaction.mapping.map(pos))),
        );
        timer ??= setTimeout(() => {
          timer = null;
          if (!editor.isDestroyed) refresh();
        }, REBUILD_DELAY_MS);
      }
      // The writer's own caret moves and edits; a collaborator's change (or the first sync) leaves the highlight
      // where the writer's scrolling put it.
      if (isChangeOrigin(transaction)) {
        if (transaction.docChanged)
          setCurrentPos((pos) => (pos === null || pos < 0 ? pos : transaction.mapping.map(pos)));
      } else if (transaction.selectionSet || transaction.docChanged) {
        setCurrentPos(editor.state.selection.from);
      }
    };
    editor.on('transaction', onTransaction);
    return () => {
      editor.off('transaction', onTransaction);
      if (timer) clearTimeout(timer);
    };
  }, [editor, refresh]);

  useEffect(() => {
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        if (editor.isDestroyed) return;
        // The jump's own scroll (it lands on the heading) is not the writer's; a scroll elsewhere is, even at once.
        const { at, scrollY } = jump.current;
        if (performance.now() - at < JUMP_SCROLL_GRACE_MS && window.scrollY === scrollY) return;
        // The headings' positions must be those of the document on the page (the rebuild waits a little).
        const sections =
          builtFrom.current === editor.state.doc ? outlineRef.current.sections : refresh().sections;
        const section = sectionAtReadingLine(editor, sections);
        // Above the first heading the highlight goes; scrolling never puts it on a section not yet reached.
        setCurrentPos(section ? section.pos : -1);
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame);
    };
  }, [editor, refresh]);

  const toggleCollapsed = useCallback((section: OutlineSection) => {
    setCollapsed((old) => {
      const next = new Set(old);
      if (!next.delete(section.pos)) next.add(section.pos);
      return next;
    });
  }, []);

  const jumpTo = useCallback(
    (section: OutlineSection) => {
      // The caret first (without ProseMirror's own scrolling, which brings the heading only to the window's
      // edge, under the sticky header), then the heading to the top of the page.
      editor.commands.focus(section.pos + 1, { scrollIntoView: false });
      const dom = editor.view.nodeDOM(section.pos);
      if (dom instanceof HTMLElement) dom.scrollIntoView({ block: 'start' });
      jump.current = { at: performance.now(), scrollY: window.scrollY };
      setCurrentPos(section.pos);
    },
    [editor],
  );

  const current = currentPos === null || currentPos < 0 ? null : sectionAt(outline.sections, currentPos);
  return {
    outline,
    current,
    collapsed,
    toggleCollapsed,
    canMove: modes.editable && !modes.suggesting,
    suggesting: modes.suggesting,
    refresh,
    jumpTo,
  };
}
