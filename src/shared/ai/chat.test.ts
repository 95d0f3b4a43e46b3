import { describe, expect, it } from 'vitest';
import { CHAT_MAX_EDITS } from '../constants';
import { chatProse, parseChatAnswer } from './chat';

describe('chat answers', () => {
  it('splits the prose from the edits block', () => {
    const answer = 'Shorter now.\n\n```edits\n[{"find": "long text", "replace": "text"}]\n```\n';
    expect(parseChatAnswer(answer)).toEqual({
      prose: 'Shorter now.',
      edits: [{ find: 'long text', replace: 'text' }],
      dropped: 0,
    });
    expect(parseChatAnswer('Just an answer with `code`.')).toEqual({
      prose: 'Just an answer with `code`.',
      edits: [],
      dropped: 0,
    });
  });

  it('drops what is not a valid edit, and a block that is not JSON, without failing', () => {
    const mixed = parseChatAnswer(
      '```edits\n[{"find": "a", "replace": "b"}, {"find": ""}, {"find": 1, "replace": "x"}, null, {"find": "same", "replace": "same"}]\n```',
    );
    expect(mixed.edits).toEqual([{ find: 'a', replace: 'b' }]);
    expect(mixed.dropped).toBe(4);
    expect(parseChatAnswer('Done.\n```edits\n[{"find": "a",\n```')).toEqual({
      prose: 'Done.',
      edits: [],
      dropped: 1,
    });
    const many = JSON.stringify(
      Array.from({ length: CHAT_MAX_EDITS + 5 }, (_, i) => ({ find: `f${i}`, replace: 'r' })),
    );
    expect(parseChatAnswer(`\`\`\`edits\n${many}\n\`\`\``).edits).toHaveLength(CHAT_MAX_EDITS);
  });

  it('shows only the prose while an answer streams, even a half-written fence', () => {
    expect(chatProse('Shorter now.\n\n```edits\n[{"fi', { streaming: true })).toBe('Shorter now.');
    expect(chatProse('Shorter now.\n\n```ed', { streaming: true })).toBe('Shorter now.');
    expect(chatProse('Code:\n\n```js\nlet a', { streaming: true })).toBe('Code:\n\n```js\nlet a');
  });
});
