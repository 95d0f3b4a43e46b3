import type { RichTextDoc, RichTextMark, RichTextNode } from '../schemas/richText';
import { pairFootnotesInTree } from '../editor/footnotes';
import type { SuggestionMarkName } from '../editor/suggestion-marks';

/**
 * Deciding pending tracked changes in stored content (JSON), where no editor is at hand: exports write a
 * document "as it stood" (every pending change rejected). Accepting keeps inserted text and drops deleted
 * text; rejecting does the opposite; either way the suggestion marks go. The editor does the same on its
 * own document (src/client/features/suggestions/), and the two are tested to agree.
 */

export type SuggestionDecision = 'accept' | 'reject';

/** Which mark's text goes for a decision: accepting removes deletions, rejecting removes insertions. */
const REMOVED_BY: Record<SuggestionDecision, SuggestionMarkName> = {
  accept: 'deletion',
  reject: 'insertion',
};

function isSuggestionMark(mark: RichTextMark, ids: ReadonlySet<string> | undefined): boolean {
  if (mark.type !== 'insertion' && mark.type !== 'deletion') return false;
  return !ids || ids.has(String(mark.attrs?.id ?? ''));
}

function decideNodes(
  nodes: RichTextNode[],
  decision: SuggestionDecision,
  ids: ReadonlySet<string> | undefined,
): RichTextNode[] {
  const out: RichTextNode[] = [];
  for (const node of nodes) {
    const marks = node.marks ?? [];
    const suggestion = marks.find((mark) => isSuggestionMark(mark, ids));
    if (suggestion?.type === REMOVED_BY[decision]) continue;
    const rest = suggestion ? marks.filter((mark) => mark !== suggestion) : marks;
    const decided: RichTextNode = { ...node };
    if (node.marks) {
      if (rest.length > 0) decided.marks = rest;
      else delete decided.marks;
    }
    if (node.content) decided.content = decideNodes(node.content, decision, ids);
    out.push(decided);
  }
  return out;
}

/**
 * The document with pending changes decided: all of them, or those of the given suggestion ids. The input
 * is not modified.
 */
export function decideSuggestions(
  doc: RichTextDoc,
  decision: SuggestionDecision,
  ids?: Iterable<string>,
): RichTextDoc {
  const decided = { ...doc, content: decideNodes(doc.content, decision, ids ? new Set(ids) : undefined) };
  // A suggested footnote reference that went takes its note with it (the editor's pairing rule).
  pairFootnotesInTree(decided);
  return decided;
}

export const acceptAllSuggestions = (doc: RichTextDoc) => decideSuggestions(doc, 'accept');
export const rejectAllSuggestions = (doc: RichTextDoc) => decideSuggestions(doc, 'reject');

/** Whether the document holds pending changes. */
export function hasSuggestions(doc: RichTextDoc): boolean {
  const walk = (nodes: RichTextNode[] | undefined): boolean =>
    (nodes ?? []).some(
      (node) => (node.marks ?? []).some((mark) => isSuggestionMark(mark, undefined)) || walk(node.content),
    );
  return walk(doc.content);
}
