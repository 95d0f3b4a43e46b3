import { expect, it } from 'vitest';
import type { RichTextDoc, RichTextNode } from '../schemas/richText';
import { documentToMarkdownBody } from './markdown';

const text = (value: string, ...marks: string[]): RichTextNode => ({
  type: 'text',
  text: value,
  ...(marks.length > 0 && { marks: marks.map((type) => ({ type })) }),
});
const paragraph = (...content: RichTextNode[]): RichTextNode => ({ type: 'paragraph', content });
const doc = (...content: RichTextNode[]): RichTextDoc => ({ type: 'doc', content });
const item = (...content: RichTextNode[]): RichTextNode => ({ type: 'listItem', content });

it('escapes text that would read as Markdown syntax', () => {
  const markdown = documentToMarkdownBody(
    doc(
      paragraph(text('# not a heading')),
      paragraph(text('1. not a list')),
      paragraph(text('- not a bullet')),
      paragraph(text('*not emphasis* and [not a link](x)')),
    ),
  );
  expect(markdown).toContain('\\# not a heading');
  expect(markdown).toContain('1\\. not a list');
  expect(markdown).toContain('\\- not a bullet');
  expect(markdown).toContain('\\*not emphasis\\* and \\[not a link]\\(x)');
});

it('fences code with more backticks than it holds, in blocks and inline', () => {
  const markdown = documentToMarkdownBody(
    doc(
      { type: 'codeBlock', attrs: { language: 'md' }, content: [text('```\nnested\n```')] },
      paragraph(text('a `tick` inside', 'code')),
    ),
  );
  expect(markdown).toContain('````md\n```\nnested\n```\n````');
  expect(markdown).toContain('``a `tick` inside``');
});

it('keeps a code block inside a list item, an ordered list starting at 0, and two lists apart', () => {
  const markdown = documentToMarkdownBody(
    doc(
      {
        type: 'bulletList',
        content: [item(paragraph(text('step')), { type: 'codeBlock', content: [text('run()')] })],
      },
      { type: 'bulletList', content: [item(paragraph(text('second list')))] },
      { type: 'orderedList', attrs: { start: 0 }, content: [item(paragraph(text('zero')))] },
    ),
  );
  expect(markdown).toContain('- step\n\n  ```\n  run()\n  ```');
  // A different bullet, so the second list does not join the first.
  expect(markdown).toContain('* second list');
  expect(markdown).toContain('0. zero');
});

it('nests marks by their longest run and keeps spaces outside emphasis', () => {
  const markdown = documentToMarkdownBody(
    doc(
      paragraph(
        text('bold ', 'bold'),
        text('both', 'bold', 'italic'),
        text(' then ', 'bold'),
        text('under', 'underline'),
        text(' and '),
        text('struck', 'strike'),
      ),
    ),
  );
  expect(markdown).toBe('**bold _both_ then** ++under++ and ~~struck~~');
});

it('writes links with their titles, and a hard break', () => {
  const link = { type: 'link', attrs: { href: 'https://example.com/a b', title: 'The "page"' } };
  const markdown = documentToMarkdownBody(
    doc(paragraph({ type: 'text', text: 'a link', marks: [link] }, { type: 'hardBreak' }, text('next line'))),
  );
  expect(markdown).toBe('[a link](<https://example.com/a b> "The \\"page\\"")\\\nnext line');
});

it('writes task lists and tables as GFM', () => {
  const cell = (type: string, value: string, attrs?: Record<string, unknown>): RichTextNode => ({
    type,
    ...(attrs && { attrs }),
    content: [paragraph(text(value))],
  });
  const markdown = documentToMarkdownBody(
    doc(
      {
        type: 'taskList',
        content: [
          { type: 'taskItem', attrs: { checked: true }, content: [paragraph(text('done'))] },
          { type: 'taskItem', attrs: { checked: false }, content: [paragraph(text('to do'))] },
        ],
      },
      {
        type: 'table',
        content: [
          { type: 'tableRow', content: [cell('tableHeader', 'Name'), cell('tableHeader', 'Words')] },
          { type: 'tableRow', content: [cell('tableCell', 'Chapter 1 | Draft', { colspan: 2 })] },
        ],
      },
    ),
  );
  expect(markdown).toContain('- [x] done\n- [ ] to do');
  // One row per line, the header row first; a merged cell is followed by an empty one, a pipe in text escaped.
  expect(markdown).toMatch(/^\| Name +\| Words \|\n\| -+ \| -+ \|\n\| Chapter 1 \\\| Draft \| +\|$/m);
});

it('writes an image as ![alt](address)', () => {
  const src =
    '/api/documents/2f0c6a43-5a8b-4a52-9d43-6d3c0a5f3e11/images/9b7e2c1d-4f3a-4b6e-8a1c-2d3e4f5a6b7c';
  const markdown = documentToMarkdownBody(doc({ type: 'image', attrs: { src, alt: 'A [cat]' } }));
  expect(markdown).toBe(`![A \\[cat\\]](${src})`);
});
