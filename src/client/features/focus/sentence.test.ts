import { describe, expect, it } from 'vitest';
import { sentenceAt, sentenceRanges } from './sentence';

const pieces = (text: string) => sentenceRanges(text).map(([from, to]) => text.slice(from, to));
/** The sentence at the caret marked by `|`. */
function at(marked: string): string {
  const offset = marked.indexOf('|');
  const text = marked.replace('|', '');
  const [from, to] = sentenceAt(text, offset);
  return text.slice(from, to);
}

describe('sentenceRanges', () => {
  it('splits after . ! ? and … followed by a space or the end', () => {
    expect(pieces('One here. Two there! Three? Four… Five')).toEqual([
      'One here.',
      'Two there!',
      'Three?',
      'Four…',
      'Five',
    ]);
  });

  it('keeps closing quotes and brackets with the sentence and runs of marks together', () => {
    expect(pieces('He said “Stop.” Then (quietly.) Why?!  Yes...')).toEqual([
      'He said “Stop.”',
      'Then (quietly.)',
      'Why?!',
      'Yes...',
    ]);
  });

  it('does not split inside numbers or before a non-space', () => {
    expect(pieces('Pi is 3.14 roughly, e.g.,like that. End')).toEqual([
      'Pi is 3.14 roughly, e.g.,like that.',
      'End',
    ]);
  });

  it('treats an abbreviation before a space simply, as the end of a sentence', () => {
    expect(pieces('Dr. Watson came.')).toEqual(['Dr.', 'Watson came.']);
  });

  it('ends a sentence at a line break and leaves out surrounding spaces', () => {
    expect(pieces('  first line \nsecond line')).toEqual(['first line', 'second line']);
    expect(pieces('')).toEqual([]);
    expect(pieces('   ')).toEqual([]);
  });
});

describe('sentenceAt', () => {
  it('finds the sentence holding the caret', () => {
    expect(at('One. Tw|o. Three.')).toBe('Two.');
    expect(at('|One. Two.')).toBe('One.');
    expect(at('One. Two.|')).toBe('Two.');
  });

  it('keeps a caret right after the full stop in its sentence, and one after the space in the next', () => {
    expect(at('One.| Two.')).toBe('One.');
    expect(at('One. |Two.')).toBe('Two.');
    expect(at('One.  |  Two.')).toBe('Two.');
  });

  it('is empty where the writer is about to start a new sentence', () => {
    const text = 'One. Two. ';
    expect(sentenceAt(text, text.length)).toEqual([text.length, text.length]);
    expect(sentenceAt('', 0)).toEqual([0, 0]);
    expect(sentenceAt('One. \nTwo', 5)).toEqual([5, 5]);
  });
});
