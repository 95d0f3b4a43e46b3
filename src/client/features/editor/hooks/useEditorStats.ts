import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { useSyncExternalStore } from 'react';
import { whenIdle } from '@client/lib/when-idle';
import { countCharacters, countWords, readingTimeMinutes, type DocumentStats } from '../stats';

/**
 * After a change the counts are brought up to date at most this often, in the browser's idle time after the delay
 * (at the latest RECOUNT_IDLE_TIMEOUT_MS later): a recount re-renders the counts, and run from a timer it could
 * fall between a keystroke and its paint (bench:editor --profile, 20,000 words: about one keystroke in four).
 */
const RECOUNT_DELAY_MS = 150;
const RECOUNT_IDLE_TIMEOUT_MS = 500;
const EMPTY: DocumentStats = { wordCount: 0, charCount: 0, readingTime: 0 };
/**
 * A document larger than this (ProseMirror positions, about one per character: ≈ 16,000 words) is first counted
 * in idle time, not while the editor mounts: at 100,000 words that count took about 150 ms of the opening
 * (bench:editor). Later recounts only read the blocks that changed.
 */
const COUNT_LATER_SIZE = 100_000;
const FIRST_COUNT_TIMEOUT_MS = 1_000;

interface BlockCount {
  words: number;
  chars: number;
}

// ProseMirror nodes are immutable and shared between document versions: a block that did not change is the same
// object, so its count is reused and a recount after a keystroke only reads the edited block.
const blockCounts = new WeakMap<ProseMirrorNode, BlockCount>();

/** Text of a pending suggestion to delete it: left out of counts and analysis (the text as it would read). */
export const isProposedForDeletion = (node: ProseMirrorNode) =>
  node.marks.some((mark) => mark.type.name === 'deletion');

/**
 * The block's text as it reads with pending suggestions taken: text proposed for deletion is left out (and
 * proposed insertions counted), so replacing a word with a suggestion does not count both words.
 */
function countedText(block: ProseMirrorNode, blockSeparator: string): string {
  if (block.isText) return isProposedForDeletion(block) ? '' : (block.text ?? '');
  let text = '';
  let separated = true;
  block.descendants((node) => {
    if (node.isText) {
      if (!isProposedForDeletion(node)) text += node.text ?? '';
      separated = false;
      return false;
    }
    if (node.isBlock && !separated) {
      text += blockSeparator;
      separated = true;
    }
    return true;
  });
  return text;
}

function countBlock(block: ProseMirrorNode): BlockCount {
  let count = blockCounts.get(block);
  if (!count) {
    // Nested blocks are separated by a space so words in adjacent paragraphs are not glued together.
    count = { words: countWords(countedText(block, ' ')), chars: countCharacters(countedText(block, '')) };
    blockCounts.set(block, count);
  }
  return count;
}

/**
 * The words of one top-level block as the live counts read it (pending deletions left out), cached per block, so
 * counts of parts of the document (the outline's sections) add up to the header's total.
 */
export function blockWordCount(block: ProseMirrorNode): number {
  return countBlock(block).words;
}

/** Statistics of a whole document: words split on whitespace, reading time at 200 wpm (min 1). */
export function documentStats(doc: ProseMirrorNode): DocumentStats {
  let words = 0;
  let chars = 0;
  doc.forEach((block) => {
    const count = countBlock(block);
    words += count.words;
    chars += count.chars;
  });
  return { wordCount: words, charCount: chars, readingTime: readingTimeMinutes(words) };
}

interface StatsStore {
  subscribe: (listener: () => void) => () => void;
  /** Null until a large document's first count is done. */
  get: () => DocumentStats | null;
}

const stores = new WeakMap<Editor, StatsStore>();

/** One store per editor: recounts a little after changes (off the keystroke), tells only its readers. */
function storeFor(editor: Editor): StatsStore {
  let store = stores.get(editor);
  if (store) return store;
  let current: DocumentStats | null = null;
  const listeners = new Set<() => void>();
  /** Cancels the recount that is waiting (for its delay, then for idle time), if one is. */
  let cancelRecount: (() => void) | null = null;
  let cancelFirstCount: (() => void) | null = null;
  const recount = () => {
    cancelRecount = null;
    if (editor.isDestroyed) return;
    // The document arrived after the editor was made (from the offline copy or the server): a novel is then
    // counted as when it opens, in idle time, rather than all at once here.
    if (current?.wordCount === 0 && editor.state.doc.content.size > COUNT_LATER_SIZE) {
      current = countSoon();
      for (const listener of listeners) listener();
      return;
    }
    const next = documentStats(editor.state.doc);
    if (
      current &&
      next.wordCount === current.wordCount &&
      next.charCount === current.charCount &&
      next.readingTime === current.readingTime
    ) {
      return;
    }
    current = next;
    for (const listener of listeners) listener();
  };
  /** Counts now, or for a large document not yet counted, in idle time (null meanwhile). */
  const countSoon = (): DocumentStats | null => {
    if (current?.wordCount || editor.state.doc.content.size <= COUNT_LATER_SIZE) {
      return documentStats(editor.state.doc);
    }
    cancelFirstCount ??= whenIdle(() => {
      cancelFirstCount = null;
      recount();
    }, FIRST_COUNT_TIMEOUT_MS);
    return null;
  };
  current = countSoon();
  const onUpdate = () => {
    if (cancelRecount) return;
    const timer = setTimeout(() => {
      cancelRecount = whenIdle(recount, RECOUNT_IDLE_TIMEOUT_MS);
    }, RECOUNT_DELAY_MS);
    cancelRecount = () => clearTimeout(timer);
  };
  store = {
    subscribe: (listener) => {
      if (listeners.size === 0) {
        // Changes made while nobody was listening are counted now (React re-reads the snapshot after this).
        current = countSoon();
        editor.on('update', onUpdate);
      }
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          editor.off('update', onUpdate);
          cancelRecount?.();
          cancelRecount = null;
          cancelFirstCount?.();
          cancelFirstCount = null;
        }
      };
    },
    get: () => current,
  };
  stores.set(editor, store);
  return store;
}

const noopSubscribe = () => () => {};

const getEmpty = () => EMPTY;

/**
 * Live word, character and reading-time counts; only the component that reads them re-renders. Null while a
 * novel-length document is first counted (in idle time, just after it opens).
 */
export function useEditorStats(editor: Editor | null): DocumentStats | null {
  const store = editor ? storeFor(editor) : null;
  return useSyncExternalStore(store ? store.subscribe : noopSubscribe, store ? store.get : getEmpty);
}
