import { describe, expect, it } from 'vitest';
import { CHAT_OMITTED } from '../../shared/ai/prompts';
import { FOOTNOTES_DOCUMENT, TABLES_AND_TASKS_DOCUMENT } from '../../shared/export/fixture';
import { documentBlocks, documentForPrompt } from './context';

describe('the document as the chat model sees it', () => {
  it('numbers the blocks, with headings and list items marked', () => {
    const blocks = documentBlocks({
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Soil' }] },
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'Dig ' },
            { type: 'text', text: 'deep.' },
          ],
        },
        { type: 'paragraph' },
        {
          type: 'bulletList',
          content: [
            {
              type: 'listItem',
              content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Compost' }] }],
            },
          ],
        },
      ],
    });
    expect(blocks).toEqual(['## Soil', 'Dig deep.', '- Compost']);
    expect(documentForPrompt('Garden', blocks, 'anything', 1_000)).toBe(
      'Title: Garden\n[1] ## Soil\n[2] Dig deep.\n[3] - Compost',
    );
  });

  it('trims a long document around the blocks that share the question’s words', () => {
    const blocks = Array.from(
      { length: 200 },
      (_, i) => `Filler paragraph number ${i} about nothing much at all.`,
    );
    blocks[120] = 'The lighthouse keeper watched the storm.';
    const text = documentForPrompt('Long', blocks, 'What does the lighthouse keeper do?', 600);
    expect(text.length).toBeLessThanOrEqual(620);
    expect(text).toContain('[121] The lighthouse keeper watched the storm.');
    expect(text).toContain('[120] Filler paragraph number 119');
    expect(text).toContain('[122] Filler paragraph number 121');
    expect(text).toContain(CHAT_OMITTED);
    expect(text.startsWith('Title: Long\n')).toBe(true);
  });
});

describe('tables and task lists as the chat model sees them', () => {
  it('shows a table as GFM rows (merged cells keep the other cells in their columns) and tasks with their boxes', () => {
    const blocks = documentBlocks(TABLES_AND_TASKS_DOCUMENT);
    expect(blocks).toContain(
      [
        '| Planet | Moons | Notes |',
        '| --- | --- | --- |',
        '| Earth | One | Home |',
        '| Luna base |  | Planned |',
        '| Mars and Venus |  | Red |',
      ].join('\n'),
    );
    expect(blocks).toEqual(
      expect.arrayContaining([
        '- [x] Write the outline',
        '- [ ] Draft the chapters',
        '- [x] Chapter one',
        '- [ ] Chapter two',
      ]),
    );
  });
});

describe('footnotes as the chat model sees them', () => {
  it('shows references as [^n] in the text and each note as its own block', () => {
    expect(documentBlocks(FOOTNOTES_DOCUMENT)).toEqual([
      'Whales sing[^1] and bats see by ear[^2].',
      '[^1]: Payne and McVay, 1971.',
      '[^2]: Griffin, Listening in the Dark, 1958.',
    ]);
  });
});

describe('images as the chat model sees them', () => {
  it('reads an image as the plain-text export writes it: alt text, then its caption on its own line', () => {
    const src =
      '/api/documents/2f0c6a43-5a8b-4a52-9d43-6d3c0a5f3e11/images/9b7e2c1d-4f3a-4b6e-8a1c-2d3e4f5a6b7c';
    expect(
      documentBlocks({
        type: 'doc',
        content: [
          { type: 'image', attrs: { src, alt: 'A lighthouse', title: 'Cape Wrath, 1890' } },
          { type: 'image', attrs: { src } },
        ],
      }),
    ).toEqual(['[Image: A lighthouse]\nCape Wrath, 1890', '[Image without a description]']);
  });
});
