import { describe, expect, it } from 'vitest';
import type { RichTextDoc, RichTextNode } from '../schemas/richText';
import { documentToText } from './convert';
import { EVERY_NODE_DOCUMENT, TABLES_AND_TASKS_DOCUMENT } from './fixture';
import { renderPlainText } from './plain-text';

const paragraph = (text: string): RichTextNode => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const item = (...content: RichTextNode[]): RichTextNode => ({ type: 'listItem', content });
const doc = (...content: RichTextNode[]): RichTextDoc => ({ type: 'doc', content });

describe('plain-text export', () => {
  it('keeps list markers, numbers from the list start, and no blank lines between items', () => {
    const text = documentToText('My Essay', EVERY_NODE_DOCUMENT);
    expect(text).toContain('- bullet one\n- bullet two');
    expect(text).toContain('3. third item\n4. fourth item');
    // One blank line around a list, never more.
    expect(text).not.toMatch(/\n\n\n/);
    expect(text).toContain('styled\n\n- bullet one');
    expect(text).toContain('- bullet two\n\n3. third item');
  });

  it('lays out the whole fixture as a reader expects', () => {
    expect(documentToText('My Essay', EVERY_NODE_DOCUMENT)).toBe(
      [
        'My Essay',
        '',
        'Heading One',
        '',
        'Heading Two',
        '',
        'Heading Three',
        '',
        'plain bold italic underlined struck inline code a link',
        'styled',
        '',
        '- bullet one',
        '- bullet two',
        '',
        '3. third item',
        '4. fourth item',
        '',
        '    A quoted thought',
        '',
        'const answer = 42;',
        'console.log(answer);',
        '',
        '---',
        '',
        'The end.',
        '',
      ].join('\n'),
    );
  });

  it('indents nested lists and an item’s later paragraphs under the item’s text', () => {
    const nested = doc({
      type: 'orderedList',
      attrs: { start: 9 },
      content: [
        item(paragraph('Ninth'), paragraph('more about nine'), {
          type: 'bulletList',
          content: [item(paragraph('inner a')), item(paragraph('inner b'))],
        }),
        item(paragraph('Tenth')),
      ],
    });
    expect(renderPlainText(nested)).toBe(
      ['9. Ninth', '   more about nine', '   - inner a', '   - inner b', '10. Tenth'].join('\n'),
    );
  });

  it('adds nothing for empty paragraphs and keeps an empty item’s marker', () => {
    const text = renderPlainText(
      doc(paragraph('One'), { type: 'paragraph' }, { type: 'paragraph' }, paragraph('Two'), {
        type: 'bulletList',
        content: [item({ type: 'paragraph' }), item(paragraph('filled'))],
      }),
    );
    expect(text).toBe('One\n\nTwo\n\n-\n- filled');
  });
});

describe('plain-text export of tables and task lists', () => {
  it('writes a table as tab-separated rows (merged cells leave their covered columns empty) and tasks as [ ]/[x]', () => {
    const text = documentToText('T', TABLES_AND_TASKS_DOCUMENT);
    expect(text).toContain(
      ['Planet\tMoons\tNotes', 'Earth\tOne\tHome', 'Luna base\t\tPlanned', 'Mars and Venus\t\tRed'].join(
        '\n',
      ),
    );
    expect(text).toContain(
      ['[x] Write the outline', '[ ] Draft the chapters', '    [x] Chapter one', '    [ ] Chapter two'].join(
        '\n',
      ),
    );
    expect(text).toContain('Water is H2O, area is m2, and this matters and so does this.');
  });
});

it('gives an image as "[Image: alt text]", its caption on the next line', () => {
  const src =
    '/api/documents/2f0c6a43-5a8b-4a52-9d43-6d3c0a5f3e11/images/9b7e2c1d-4f3a-4b6e-8a1c-2d3e4f5a6b7c';
  const text = renderPlainText(
    doc(
      paragraph('Before'),
      { type: 'image', attrs: { src, alt: 'A cat', title: 'Our cat, Mog, in 2024' } },
      { type: 'image', attrs: { src, alt: 'A dog' } },
      { type: 'image', attrs: { src, title: 'Undescribed' } },
    ),
  );
  expect(text).toBe(
    'Before\n\n[Image: A cat]\nOur cat, Mog, in 2024\n\n[Image: A dog]\n\n[Image without a description]\nUndescribed',
  );
});
