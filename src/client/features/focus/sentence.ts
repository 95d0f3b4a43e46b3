/**
 * Sentences of a paragraph's text, for focus dimming. The rule is deliberately simple: a sentence ends after a
 * run of `.`, `!`, `?` or `…`, with any closing quotes or brackets, when whitespace or the end of the text
 * follows; a line break (Shift+Enter) ends one too. So "3.14" and "e.g.," do not end a sentence, but an
 * abbreviation followed by a space does: "Dr. Watson" is two sentences, "Dr." and "Watson".
 */

/** The character an inline leaf (a line break) stands for in a paragraph's text: one position, like in the doc. */
export const LINE_BREAK_CHAR = '\n';

const TERMINATORS = '.!?…';
const CLOSERS = `"'”’)]»›`;
const isSpace = (char: string) => /\s/u.test(char) && char !== LINE_BREAK_CHAR;

/** Each sentence's [start, end): from its first non-space character to after its closing punctuation. */
export function sentenceRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let start = -1;
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === LINE_BREAK_CHAR) {
      if (start >= 0) ranges.push([start, trimEnd(text, start, index)]);
      start = -1;
      index += 1;
      continue;
    }
    if (start < 0 && !isSpace(char)) start = index;
    if (start >= 0 && TERMINATORS.includes(char)) {
      let end = index + 1;
      while (end < text.length && TERMINATORS.includes(text[end]!)) end += 1;
      while (end < text.length && CLOSERS.includes(text[end]!)) end += 1;
      if (end === text.length || isSpace(text[end]!) || text[end] === LINE_BREAK_CHAR) {
        ranges.push([start, end]);
        start = -1;
      }
      index = end;
      continue;
    }
    index += 1;
  }
  if (start >= 0) ranges.push([start, trimEnd(text, start, text.length)]);
  return ranges;
}

function trimEnd(text: string, start: number, end: number): number {
  while (end > start && isSpace(text[end - 1]!)) end -= 1;
  return end;
}

/**
 * The sentence the caret at `offset` is in, as [start, end). A caret right after a sentence's last character
 * is still in it; a caret in the spaces after it is in the next one, or, where none has begun yet, in an empty
 * sentence of its own ([offset, offset]): the one the writer is about to type.
 */
export function sentenceAt(text: string, offset: number): [number, number] {
  for (const [start, end] of sentenceRanges(text)) {
    if (offset > end) continue;
    const inSpacesBefore = offset < start;
    if (inSpacesBefore && text.slice(offset, start).includes(LINE_BREAK_CHAR)) break;
    return [start, end];
  }
  return [offset, offset];
}
