import { describe, expect, it } from 'vitest';
import {
  MAX_RICH_TEXT_DEPTH,
  MAX_RICH_TEXT_NODES,
  isSafeHref,
  richTextDocInputSchema,
  sanitizeDocContent,
  sanitizeHref,
  type RichTextDoc,
  type RichTextNode,
} from './richText';

const paragraph = (...content: RichTextNode[]): RichTextNode => ({ type: 'paragraph', content });
const text = (value: string, marks?: RichTextNode['marks']): RichTextNode =>
  marks ? { type: 'text', text: value, marks } : { type: 'text', text: value };
const doc = (...content: RichTextNode[]): RichTextDoc => ({ type: 'doc', content });
const linkDoc = (href: unknown) => ({
  type: 'doc',
  content: [
    { type: 'paragraph', content: [{ type: 'text', text: 'x', marks: [{ type: 'link', attrs: { href } }] }] },
  ],
});
const firstMark = (result: ReturnType<typeof sanitizeDocContent>) => {
  if (!result.ok) throw new Error(result.message);
  return result.doc.content[0]!.content![0]!.marks![0]!;
};

function expectInvalid(input: unknown, pattern: RegExp): void {
  const result = sanitizeDocContent(input);
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.message).toMatch(pattern);
}

describe('link hrefs (scheme whitelist, or relative)', () => {
  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    '\tjavascript:alert(1)',
    'java\nscript:alert(1)',
    'java\u0000script:alert(1)',
    'javascript&colon;alert(1)',
    '&#106;avascript:alert(1)',
    '&#x6A;avascript:alert(1)',
    'jav&#x09;ascript:alert(1)',
    '&amp;#106;avascript:alert(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'localhost:3000/x',
  ])('refuses %j', (href) => {
    expect(isSafeHref(href)).toBe(false);
    expect(sanitizeHref(href)).toBe('');
  });

  it.each([
    'https://example.com/a?b=c#d',
    'HTTP://EXAMPLE.COM',
    'ftp://files.example.com',
    'ftps://files.example.com',
    'mailto:writer@example.com',
    'tel:+15551234567',
    'callto:someone',
    'sms:+15551234567',
    'cid:part1@example',
    'xmpp:room@example.com',
    '/x',
    '#a',
    '?q=1',
    'page.html',
    './a/b',
    '../up',
    '//cdn.example.com/x',
    'www.example.com',
    '',
  ])('keeps %j', (href) => {
    expect(isSafeHref(href)).toBe(true);
    expect(sanitizeHref(href)).toBe(href.trim());
  });

  it('sanitizeHref blanks non-strings', () => {
    expect(sanitizeHref(undefined)).toBe('');
    expect(sanitizeHref(42)).toBe('');
  });

  it('a stored link with a javascript: href keeps its mark with href blanked', () => {
    expect(firstMark(sanitizeDocContent(linkDoc('javascript:alert(1)')))).toEqual({
      type: 'link',
      attrs: { href: '' },
    });
    expect(firstMark(sanitizeDocContent(linkDoc(' https://example.com ')))).toEqual({
      type: 'link',
      attrs: { href: 'https://example.com' },
    });
  });

  it('keeps target, rel and class of a link and drops unknown link attributes', () => {
    const input = {
      type: 'doc',
      content: [
        paragraph({
          type: 'text',
          text: 'x',
          marks: [
            {
              type: 'link',
              attrs: {
                href: 'https://a.example',
                target: '_blank',
                rel: 'noopener noreferrer nofollow',
                class: null,
                onclick: 'alert(1)',
              },
            },
          ],
        }),
      ],
    };
    expect(firstMark(sanitizeDocContent(input))).toEqual({
      type: 'link',
      attrs: {
        href: 'https://a.example',
        target: '_blank',
        rel: 'noopener noreferrer nofollow',
        class: null,
      },
    });
  });
});

describe('sanitizeDocContent', () => {
  it('accepts every node and mark of the editor schema and returns an equal tree', () => {
    const full: RichTextDoc = doc(
      { type: 'heading', attrs: { level: 1, textAlign: 'center' }, content: [text('Title')] },
      { type: 'heading', attrs: { level: 3, textAlign: null }, content: [text('Sub')] },
      {
        type: 'paragraph',
        attrs: { textAlign: 'justify' },
        content: [
          text('b', [{ type: 'bold' }, { type: 'italic' }, { type: 'underline' }, { type: 'strike' }]),
          { type: 'hardBreak' },
          text('c', [{ type: 'code' }]),
          text('s', [
            {
              type: 'textStyle',
              attrs: {
                fontFamily: 'Times New Roman',
                fontSize: '18px',
                color: '#ef4444',
                aiSuggestion: 'abc-123',
              },
            },
          ]),
          text('r', [
            { type: 'textStyle', attrs: { color: 'rgb(239, 68, 68)', fontFamily: '"Space Grotesk", serif' } },
          ]),
        ],
      },
      { type: 'bulletList', content: [{ type: 'listItem', content: [paragraph(text('one'))] }] },
      {
        type: 'orderedList',
        attrs: { start: 3, type: null },
        content: [
          { type: 'listItem', content: [paragraph(text('three')), { type: 'bulletList', content: [] }] },
        ],
      },
      { type: 'blockquote', content: [paragraph(text('quoted'))] },
      { type: 'codeBlock', attrs: { language: 'typescript' }, content: [text('const a = 1;')] },
      { type: 'codeBlock', attrs: { language: null }, content: [] },
      { type: 'horizontalRule' },
      paragraph(),
    );
    const result = sanitizeDocContent(full);
    expect(result).toEqual({ ok: true, doc: full });
    if (result.ok) expect(result.doc).not.toBe(full);
  });

  it('reads content given as a JSON string', () => {
    const tree = doc(paragraph(text('hello')));
    expect(sanitizeDocContent(JSON.stringify(tree))).toEqual({ ok: true, doc: tree });
  });

  it('accepts the empty document and a doc without content', () => {
    expect(sanitizeDocContent({ type: 'doc', content: [] })).toEqual({
      ok: true,
      doc: { type: 'doc', content: [] },
    });
    expect(sanitizeDocContent({ type: 'doc' })).toEqual({ ok: true, doc: { type: 'doc', content: [] } });
  });

  it('drops unknown properties and unknown attribute keys', () => {
    const result = sanitizeDocContent({
      type: 'doc',
      extra: 1,
      content: [{ type: 'paragraph', attrs: { textAlign: 'left', id: 'x', style: 'color:red' }, foo: 'bar' }],
    });
    expect(result).toEqual({ ok: true, doc: doc({ type: 'paragraph', attrs: { textAlign: 'left' } }) });
  });

  it('defaults a heading without level to level 1', () => {
    expect(sanitizeDocContent(doc({ type: 'heading', content: [text('h')] }))).toEqual({
      ok: true,
      doc: doc({ type: 'heading', attrs: { level: 1 }, content: [text('h')] }),
    });
  });

  it('drops marks inside a code block', () => {
    const result = sanitizeDocContent(doc({ type: 'codeBlock', content: [text('x', [{ type: 'bold' }])] }));
    expect(result).toEqual({ ok: true, doc: doc({ type: 'codeBlock', content: [text('x')] }) });
  });

  it('keeps the last of repeated marks of one type', () => {
    const result = sanitizeDocContent(
      doc(
        paragraph(
          text('x', [{ type: 'bold' }, { type: 'textStyle', attrs: { color: 'red' } }, { type: 'bold' }]),
        ),
      ),
    );
    expect(result.ok && result.doc.content[0]!.content![0]!.marks).toEqual([
      { type: 'textStyle', attrs: { color: 'red' } },
      { type: 'bold' },
    ]);
  });

  it.each<[string, unknown, RegExp]>([
    ['an invalid JSON string', '{"type":"doc",', /not valid JSON/],
    ['a number', 42, /must be a rich-text document/],
    ['null', null, /must be a rich-text document/],
    ['an array', [], /must be a rich-text document/],
    ['a root that is not doc', { type: 'paragraph' }, /root node must be of type "doc"/],
    [
      'an unknown node type',
      doc({ type: 'iframe', attrs: { src: 'x' } }),
      /unknown node type "iframe" at doc\.content\[0\]/,
    ],
    ['a heading of level 7', doc({ type: 'heading', attrs: { level: 7 } }), /"level" must be one of 1, 2, 3/],
    ['a heading of level 4', doc({ type: 'heading', attrs: { level: 4 } }), /"level" must be one of 1, 2, 3/],
    ['a heading level given as a string', doc({ type: 'heading', attrs: { level: '2' } }), /"level"/],
    [
      'a bad alignment',
      doc({ type: 'paragraph', attrs: { textAlign: 'middle' } }),
      /"textAlign" must be one of left, center, right, justify/,
    ],
    ['an unknown mark type', doc(paragraph(text('x', [{ type: 'blink' }]))), /unknown mark type "blink"/],
    ['an empty text node', doc(paragraph(text(''))), /non-empty "text"/],
    ['a text node without text', doc(paragraph({ type: 'text' })), /non-empty "text"/],
    ['text directly in doc', doc(text('x')), /"text" is not allowed inside "doc"/],
    [
      'a paragraph inside a paragraph',
      doc(paragraph({ type: 'paragraph' })),
      /"paragraph" is not allowed inside "paragraph"/,
    ],
    [
      'a paragraph directly in a list',
      doc({ type: 'bulletList', content: [paragraph()] }),
      /not allowed inside "bulletList"/,
    ],
    ['a nested doc', doc({ type: 'doc', content: [] }), /"doc" is not allowed inside "doc"/],
    [
      'content that is not an array',
      { type: 'doc', content: { 0: paragraph() } },
      /content of "doc" at doc must be an array/,
    ],
    [
      'a node that is not an object',
      doc('hello' as unknown as RichTextNode),
      /must be an object with a string "type"/,
    ],
    [
      'marks that are not an array',
      doc(paragraph({ type: 'text', text: 'x', marks: 'bold' } as never)),
      /marks of/,
    ],
    [
      'a negative list start',
      doc({ type: 'orderedList', attrs: { start: -1 }, content: [] }),
      /"start" must be an integer of at least 0/,
    ],
    ['a fractional list start', doc({ type: 'orderedList', attrs: { start: 1.5 }, content: [] }), /"start"/],
    [
      'a code language with markup',
      doc({ type: 'codeBlock', attrs: { language: 'js"><script>' } }),
      /"language"/,
    ],
    [
      'a horizontal rule with content',
      doc({ type: 'horizontalRule', content: [paragraph()] }),
      /cannot have content/,
    ],
    [
      'a colour that injects CSS',
      doc(
        paragraph(
          text('x', [{ type: 'textStyle', attrs: { color: 'red; background:url(https://t.example)' } }]),
        ),
      ),
      /"color"/,
    ],
    [
      'a font size that injects CSS',
      doc(paragraph(text('x', [{ type: 'textStyle', attrs: { fontSize: '12px;position:fixed' } }]))),
      /"fontSize"/,
    ],
    [
      'a font family that injects CSS',
      doc(paragraph(text('x', [{ type: 'textStyle', attrs: { fontFamily: 'Arial;}' } }]))),
      /"fontFamily"/,
    ],
    [
      'a non-string link href',
      doc(paragraph(text('x', [{ type: 'link', attrs: { href: 5 } }]))),
      /"href" must be a string/,
    ],
    [
      'link attrs that are not an object',
      doc(paragraph(text('x', [{ type: 'link', attrs: 'x' as never }]))),
      /attrs of/,
    ],
  ])('refuses %s', (_name, input, pattern) => {
    expectInvalid(input, pattern);
  });

  it('names where the problem is', () => {
    const result = sanitizeDocContent(
      doc(paragraph(text('a')), { type: 'blockquote', content: [paragraph(text('b')), { type: 'video' }] }),
    );
    expect(result).toEqual({ ok: false, message: 'unknown node type "video" at doc.content[1].content[1]' });
  });

  it(`refuses nesting deeper than ${MAX_RICH_TEXT_DEPTH} levels without overflowing the stack`, () => {
    let node: RichTextNode = paragraph(text('deep'));
    for (let i = 0; i < 100_000; i++) node = { type: 'blockquote', content: [node] };
    const started = performance.now();
    expectInvalid({ type: 'doc', content: [node] }, /nested deeper than 64 levels/);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('accepts nesting up to the limit', () => {
    let node: RichTextNode = paragraph(text('deep'));
    // doc (1) + blockquotes + paragraph + text = MAX levels
    for (let i = 0; i < MAX_RICH_TEXT_DEPTH - 3; i++) node = { type: 'blockquote', content: [node] };
    expect(sanitizeDocContent(doc(node)).ok).toBe(true);
    expectInvalid(doc({ type: 'blockquote', content: [node] }), /nested deeper/);
  });

  it('refuses a deeply nested JSON string without a stack overflow', () => {
    const json = '{"type":"doc","content":['.repeat(50_000) + ']}'.repeat(50_000);
    const result = sanitizeDocContent(json);
    expect(result.ok).toBe(false);
  });

  it(`refuses more than ${MAX_RICH_TEXT_NODES} nodes, quickly`, () => {
    const many = {
      type: 'doc',
      content: Array.from({ length: MAX_RICH_TEXT_NODES + 1 }, () => ({ type: 'horizontalRule' })),
    };
    const started = performance.now();
    expectInvalid(many, /more than 100000 nodes/);
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('refuses 100,000 marks on one text node in well under a second', () => {
    const marks = Array.from({ length: 100_000 }, () => ({ type: 'bold' }));
    const started = performance.now();
    expectInvalid(doc(paragraph(text('x', marks))), /at most 16 are allowed/);
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('processes 100,000 marks spread over text nodes in well under a second', () => {
    const nodes = Array.from({ length: 25_000 }, (_, i) =>
      text(`w${i} `, [
        { type: 'bold' },
        { type: 'italic' },
        { type: 'link', attrs: { href: `https://e.example/${i}` } },
        { type: 'textStyle', attrs: { color: '#3b82f6' } },
      ]),
    );
    const started = performance.now();
    const result = sanitizeDocContent(doc(paragraph(...nodes)));
    // Linear work takes ~100 ms here; the bound is loose so a loaded machine passes while a quadratic pass
    // (tens of seconds at this size) still fails.
    expect(performance.now() - started).toBeLessThan(3000);
    expect(result.ok).toBe(true);
  });

  it('does not modify its input', () => {
    const input = linkDoc('javascript:alert(1)');
    const before = JSON.stringify(input);
    sanitizeDocContent(input);
    expect(JSON.stringify(input)).toBe(before);
  });

  it('richTextDocInputSchema reports the problem as a zod issue', () => {
    const result = richTextDocInputSchema.safeParse({
      type: 'doc',
      content: [{ type: 'heading', attrs: { level: 7 } }],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/"level" must be one of 1, 2, 3/);
    expect(richTextDocInputSchema.parse('{"type":"doc","content":[]}')).toEqual({ type: 'doc', content: [] });
  });
});
