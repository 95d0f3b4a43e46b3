import { expect, it } from 'vitest';
import { documentToMarkdown, documentToText, markdownToDocument } from './convert';
import { EVERY_NODE_DOCUMENT } from './fixture';

it('Markdown keeps headings, lists (ordered with start), quotes, code, links and marks', () => {
  const md = documentToMarkdown('My Essay', EVERY_NODE_DOCUMENT);
  expect(md.startsWith('# My Essay\n')).toBe(true);
  expect(md).toContain('# Heading One');
  expect(md).toContain('## Heading Two');
  expect(md).toContain('### Heading Three');
  expect(md).toContain('**bold**');
  expect(md).toMatch(/[*_]italic[*_]/);
  expect(md).toContain('~~struck~~');
  expect(md).toContain('`inline code`');
  expect(md).toContain('[a link](https://example.com/page)');
  expect(md).toMatch(/^- bullet one$/m);
  expect(md).toMatch(/^3\. third item$/m);
  expect(md).toMatch(/^> A quoted thought$/m);
  expect(md).toContain('```js\nconst answer = 42;');
  expect(md).toMatch(/^(---|\*\*\*)$/m);
  expect(md).toContain('++underlined++');

  // And it reads back into the same structure.
  const back = markdownToDocument(md);
  const types = JSON.stringify(back);
  for (const type of [
    'heading',
    'bulletList',
    'orderedList',
    'blockquote',
    'codeBlock',
    'horizontalRule',
    'bold',
    'italic',
    'underline',
    'strike',
    'code',
    'link',
  ]) {
    expect(types).toContain(`"${type}"`);
  }
  const ordered = back.content.find((n) => n.type === 'orderedList');
  expect(ordered?.attrs?.start).toBe(3);
});

it('plain text has every block and no markup', () => {
  const text = documentToText('My Essay', EVERY_NODE_DOCUMENT);
  expect(text.startsWith('My Essay\n\n')).toBe(true);
  for (const part of [
    'Heading One',
    'plain bold italic underlined struck inline code a link',
    'styled',
    'bullet one',
    'third item',
    'A quoted thought',
    'console.log(answer);',
    'The end.',
  ]) {
    expect(text).toContain(part);
  }
  expect(text).not.toMatch(/[<>*#]/);
});
