import { describe, expect, it } from 'vitest';
import { GHOST_COMPLETION_MAX_CHARS } from '@shared/constants';
import { ghostFromAnswer } from './ghost-text';

describe('ghost text from an answer', () => {
  it('is spaced from a word before it but not from a space or before punctuation', () => {
    expect(ghostFromAnswer('and the roses.', 'We planted tulips')).toBe(' and the roses.');
    expect(ghostFromAnswer('and the roses.', 'We planted tulips ')).toBe('and the roses.');
    expect(ghostFromAnswer(', and roses.', 'We planted tulips')).toBe(', and roses.');
    expect(ghostFromAnswer('  \nand roses.', 'We planted tulips')).toBe(' and roses.');
  });

  it('stays on one line and is cut at a word when long', () => {
    expect(ghostFromAnswer('one\ntwo\n\nthree', 'x ')).toBe('one two three');
    const long = 'word '.repeat(200);
    const ghost = ghostFromAnswer(long, 'x ');
    expect(ghost.length).toBeLessThanOrEqual(GHOST_COMPLETION_MAX_CHARS);
    expect(ghost.endsWith('word')).toBe(true);
    expect(ghostFromAnswer('   ', 'x')).toBe('');
  });
});
