import type { RichTextDoc } from '../schemas/richText';

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
