import type { RichTextDoc, RichTextNode } from '../schemas/richText';

/** A document holding every node and mark of the editor schema, for export round trips. */
export const EVERY_NODE_DOCUMENT: RichTextDoc = {
  type: 'doc',
  content: [
    {
      type: 'heading',
      attrs: { level: 1, textAlign: 'left' },
      content: [{ type: 'text', text: 'Heading One' }],
    },
    {
      type: 'heading',
      attrs: { level: 2, textAlign: 'center' },
      content: [{ type: 'text', text: 'Heading Two' }],
    },
    {
      type: 'heading',
      attrs: { level: 3, textAlign: null },
      content: [{ type: 'text', text: 'Heading Three' }],
    },
    {
      type: 'paragraph',
      attrs: { textAlign: 'justify' },
      content: [
        { type: 'text', text: 'plain ' },
        { type: 'text', text: 'bold', marks: [{ type: 'bold' }] },
        { type: 'text', text: ' ' },
        { type: 'text', text: 'italic', marks: [{ type: 'italic' }] },
        { type: 'text', text: ' ' },
        { type: 'text', text: 'underlined', marks: [{ type: 'underline' }] },
        { type: 'text', text: ' ' },
        { type: 'text', text: 'struck', marks: [{ type: 'strike' }] },
        { type: 'text', text: ' ' },
        { type: 'text', text: 'inline code', marks: [{ type: 'code' }] },
        { type: 'text', text: ' ' },
        {
          type: 'text',
          text: 'a link',
          marks: [
            {
              type: 'link',
              attrs: { href: 'https://example.com/page', target: '_blank', rel: null, class: null },
            },
          ],
        },
        { type: 'hardBreak' },
        {
          type: 'text',
          text: 'styled',
          marks: [
            { type: 'textStyle', attrs: { fontFamily: 'Georgia', fontSize: '20px', color: '#ef4444' } },
          ],
        },
      ],
    },
    {
      type: 'bulletList',
      content: [
        {
          type: 'listItem',
          content: [{ type: 'paragraph', content: [{ type: 'text', text: 'bullet one' }] }],
        },
        {
          type: 'listItem',
          content: [{ type: 'paragraph', content: [{ type: 'text', text: 'bullet two' }] }],
        },
      ],
    },
    {
      type: 'orderedList',
      attrs: { start: 3 },
      content: [
        {
          type: 'listItem',
          content: [{ type: 'paragraph', content: [{ type: 'text', text: 'third item' }] }],
        },
        {
          type: 'listItem',
          content: [{ type: 'paragraph', content: [{ type: 'text', text: 'fourth item' }] }],
        },
      ],
    },
    {
      type: 'blockquote',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'A quoted thought' }] }],
    },
    {
      type: 'codeBlock',
      attrs: { language: 'js' },
      content: [{ type: 'text', text: 'const answer = 42;\nconsole.log(answer);' }],
    },
    { type: 'horizontalRule' },
    { type: 'paragraph', content: [{ type: 'text', text: 'The end.' }] },
  ],
};

/** Hostile content that must never survive into exported HTML. */
export const HOSTILE_DOCUMENT: RichTextDoc = {
  type: 'doc',
  content: [
    {
      type: 'paragraph',
      content: [
        { type: 'text', text: '<script>window.__pwned = 1</script>' },
        { type: 'text', text: 'click me', marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }] },
        { type: 'text', text: '<img src=x onerror="window.__pwned=1">' },
        {
          type: 'text',
          text: 'data link',
          marks: [{ type: 'link', attrs: { href: 'data:text/html,<script>1</script>' } }],
        },
      ],
    },
  ],
};

const cellParagraph = (
  text: string,
  marks?: { type: string; attrs?: Record<string, unknown> }[],
): RichTextNode => ({
  type: 'paragraph',
  content: [{ type: 'text', text, ...(marks ? { marks } : {}) }],
});
const cell = (
  type: 'tableCell' | 'tableHeader',
  text: string,
  attrs?: Record<string, unknown>,
): RichTextNode => ({
  type,
  ...(attrs ? { attrs } : {}),
  content: [cellParagraph(text)],
});
const task = (text: string, checked: boolean, nested?: RichTextNode): RichTextNode => ({
  type: 'taskItem',
  attrs: { checked },
  content: [cellParagraph(text), ...(nested ? [nested] : [])],
});

/**
 * Tables (a header row, a cell spanning two columns, one spanning two rows, sized columns), a nested task
 * list, highlight (default and coloured), subscript and superscript: what every export and import carries.
 */
export const TABLES_AND_TASKS_DOCUMENT: RichTextDoc = {
  type: 'doc',
  content: [
    {
      type: 'paragraph',
      content: [
        { type: 'text', text: 'Water is H' },
        { type: 'text', text: '2', marks: [{ type: 'subscript' }] },
        { type: 'text', text: 'O, area is m' },
        { type: 'text', text: '2', marks: [{ type: 'superscript' }] },
        { type: 'text', text: ', and ' },
        { type: 'text', text: 'this matters', marks: [{ type: 'highlight' }] },
        { type: 'text', text: ' and ' },
        { type: 'text', text: 'so does this', marks: [{ type: 'highlight', attrs: { color: '#bbf7d0' } }] },
        { type: 'text', text: '.' },
      ],
    },
    {
      type: 'table',
      content: [
        {
          type: 'tableRow',
          content: [
            cell('tableHeader', 'Planet', { colwidth: [160] }),
            cell('tableHeader', 'Moons'),
            cell('tableHeader', 'Notes'),
          ],
        },
        {
          type: 'tableRow',
          content: [
            cell('tableCell', 'Earth', { colwidth: [160] }),
            cell('tableCell', 'One', { rowspan: 2 }),
            cell('tableCell', 'Home'),
          ],
        },
        {
          type: 'tableRow',
          content: [cell('tableCell', 'Luna base', { colwidth: [160] }), cell('tableCell', 'Planned')],
        },
        {
          type: 'tableRow',
          content: [
            cell('tableCell', 'Mars and Venus', { colspan: 2, colwidth: [160, 0] }),
            cell('tableCell', 'Red'),
          ],
        },
      ],
    },
    {
      type: 'taskList',
      content: [
        task('Write the outline', true),
        task('Draft the chapters', false, {
          type: 'taskList',
          content: [task('Chapter one', true), task('Chapter two', false)],
        }),
      ],
    },
    { type: 'paragraph', content: [{ type: 'text', text: 'After the list.' }] },
  ],
};

/** A table Markdown can carry whole (no merged cells, one paragraph a cell), and a task list. */
export const GFM_TABLE_DOCUMENT: RichTextDoc = {
  type: 'doc',
  content: [
    {
      type: 'table',
      content: [
        { type: 'tableRow', content: [cell('tableHeader', 'Name'), cell('tableHeader', 'Score')] },
        { type: 'tableRow', content: [cell('tableCell', 'Ada'), cell('tableCell', '10')] },
        { type: 'tableRow', content: [cell('tableCell', 'Grace'), cell('tableCell', '9')] },
      ],
    },
    {
      type: 'taskList',
      content: [
        task('Done', true),
        task('Open', false, { type: 'taskList', content: [task('Nested', true)] }),
      ],
    },
  ],
};

const note = (id: string, text: string): RichTextNode => ({
  type: 'footnote',
  attrs: { id },
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

/** Two footnotes, the second with formatting in its note: references and notes paired, notes in reading order. */
export const FOOTNOTES_DOCUMENT: RichTextDoc = {
  type: 'doc',
  content: [
    {
      type: 'paragraph',
      content: [
        { type: 'text', text: 'Whales sing' },
        { type: 'footnoteReference', attrs: { id: 'fnwhale' } },
        { type: 'text', text: ' and bats see by ear' },
        { type: 'footnoteReference', attrs: { id: 'fnbat' } },
        { type: 'text', text: '.' },
      ],
    },
    {
      type: 'footnotes',
      content: [
        note('fnwhale', 'Payne and McVay, 1971.'),
        {
          type: 'footnote',
          attrs: { id: 'fnbat' },
          content: [
            {
              type: 'paragraph',
              content: [
                { type: 'text', text: 'Griffin, ' },
                { type: 'text', text: 'Listening in the Dark', marks: [{ type: 'italic' }] },
                { type: 'text', text: ', 1958.' },
              ],
            },
          ],
        },
      ],
    },
  ],
};
