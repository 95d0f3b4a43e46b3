import { describe, expect, it } from 'vitest';
import { grammarMessageParts, grammarMessageText } from './grammar-message';

describe('grammar messages', () => {
  it('shows the quoted words without backticks', () => {
    expect(grammarMessageText('Did you mean `there`?')).toBe('Did you mean “there”?');
    expect(grammarMessageText('Use `a` instead of `an`.')).toBe('Use “a” instead of “an”.');
    expect(grammarMessageText('Plain message.')).toBe('Plain message.');
  });

  it('marks the quoted parts for the fix card', () => {
    expect(grammarMessageParts('Did you mean `there`?')).toEqual([
      { text: 'Did you mean ', quoted: false },
      { text: 'there', quoted: true },
      { text: '?', quoted: false },
    ]);
  });

  it('drops an unpaired backtick', () => {
    expect(grammarMessageText('Odd ` message')).toBe('Odd  message');
    expect(grammarMessageText('`one` and ` two')).toBe('“one” and  two');
  });
});
