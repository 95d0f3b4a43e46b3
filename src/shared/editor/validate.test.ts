import { describe, expect, it } from 'vitest';
import { getEditorSchema } from './extensions';
import { TABLES_AND_TASKS_DOCUMENT } from '../export/fixture';
import { InvalidContentError, MAX_TEXT_NODE_LENGTH, repairRichText, validateRichText } from './validate';

const text = (value: string, marks?: unknown[]) => ({
  type: 'text',
  text: value,
  ...(marks ? { marks } : {}),
});
const paragraph = (...content: unknown[]) => ({ type: 'paragraph', content });
const IMAGE_SRC =
  '/api/documents/2f0c6a43-5a8b-4a52-9d43-6d3c0a5f3e11/images/9b7e2c1d-4f3a-4b6e-8a1c-2d3e4f5a6b7c';

const hostile = {
  type: 'doc',
  content: [
    { type: 'iframe', attrs: { src: 'javascript:alert(1)' } },
    { type: 'heading', attrs: { level: 9 }, content: [text('deep')] },
    paragraph(text('click', [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }])),
    paragraph(
      text('styled', [{ type: 'textStyle', attrs: { color: 'x'.repeat(100_000), fontSize: '16px' } }]),
    ),
    paragraph(text('blink', [{ type: 'blink' }]), { type: 'image' }),
    { type: 'paragraph', attrs: { textAlign: 'middle' }, content: [text('aligned')] },
    text('loose text at the root'),
    { type: 'bulletList', content: [paragraph(text('not a list item'))] },
  ],
};

describe('content validator (derived from the editor schema)', () => {
  it('knows exactly the nodes and marks of the editor schema', () => {
    const schema = getEditorSchema();
    for (const name of Object.keys(schema.nodes).filter((n) => n !== 'doc' && n !== 'text')) {
      const cell = { type: 'tableCell', content: [paragraph(text('x'))] };
      const node = schema.nodes[name]!.isInline
        ? paragraph({ type: name })
        : name === 'listItem'
          ? { type: 'bulletList', content: [{ type: name, content: [paragraph(text('x'))] }] }
          : name === 'taskItem'
            ? { type: 'taskList', content: [{ type: name, content: [paragraph(text('x'))] }] }
            : name === 'tableRow'
              ? { type: 'table', content: [{ type: name, content: [cell] }] }
              : name === 'tableCell' || name === 'tableHeader'
                ? { type: 'table', content: [{ type: 'tableRow', content: [{ ...cell, type: name }] }] }
                : name === 'image'
                  ? { type: name, attrs: { src: IMAGE_SRC } }
                  : name === 'footnote'
                    ? { type: 'footnotes', content: [{ type: name, content: [paragraph(text('x'))] }] }
                    : { type: name };
      expect(() => validateRichText({ type: 'doc', content: [node] }), name).not.toThrow();
    }
    // A comment mark means nothing without its thread's id.
    const required: Record<string, object> = {
      comment: { threadId: '00000000-0000-4000-8000-000000000001' },
    };
    for (const name of Object.keys(schema.marks)) {
      const mark = required[name] ? { type: name, attrs: required[name] } : { type: name };
      expect(
        () => validateRichText({ type: 'doc', content: [paragraph(text('x', [mark]))] }),
        name,
      ).not.toThrow();
    }
  });

  it('refuse mode names the first problem and where it is', () => {
    expect(() => validateRichText(hostile)).toThrow(
      new InvalidContentError('unknown node type "iframe" at doc.content[0]'),
    );
    expect(() =>
      validateRichText({
        type: 'doc',
        content: [{ type: 'heading', attrs: { level: 9 }, content: [text('x')] }],
      }),
    ).toThrow(/attribute "level" must be one of 1, 2, 3/u);
  });

  it('repair mode drops unknown and misplaced nodes and marks, clamps and blanks attributes', () => {
    const { doc, changed } = repairRichText(hostile);
    expect(changed).toBe(true);
    expect(doc).toEqual({
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 3 }, content: [text('deep')] },
        paragraph(text('click', [{ type: 'link', attrs: { href: '' } }])),
        paragraph(text('styled', [{ type: 'textStyle', attrs: { fontSize: '16px' } }])),
        paragraph(text('blink')),
        { type: 'paragraph', content: [text('aligned')] },
        { type: 'bulletList', content: [] },
      ],
    });
    // What repair returns passes refuse mode's rules except for emptied containers, and the schema builds it.
    expect(() => getEditorSchema().nodeFromJSON(doc)).not.toThrow();
  });

  it('repair mode leaves valid content alone and bounds text length', () => {
    const valid = { type: 'doc', content: [paragraph(text('fine', [{ type: 'bold' }]))] };
    expect(repairRichText(valid)).toEqual({ doc: valid, changed: false });
    const long = repairRichText({
      type: 'doc',
      content: [paragraph(text('y'.repeat(MAX_TEXT_NODE_LENGTH + 10)))],
    });
    expect(long.changed).toBe(true);
    expect(long.doc.content[0]!.content![0]!.text).toHaveLength(MAX_TEXT_NODE_LENGTH);
  });

  it('repair mode turns anything that is not a document into the empty doc', () => {
    for (const value of [null, 42, 'text', [], { type: 'paragraph' }]) {
      expect(repairRichText(value).doc, JSON.stringify(value)).toEqual({ type: 'doc', content: [] });
    }
  });
});

describe('tracked-change marks', () => {
  const attrs = {
    id: 'sg_1',
    author_id: 'user-1',
    author_name: 'Ada',
    source: 'ai',
    created_at: '2026-11-23T12:00:00.000Z',
  };

  it('keeps pending insertions and deletions with their attributes', () => {
    const doc = {
      type: 'doc',
      content: [
        paragraph(
          text('old', [{ type: 'deletion', attrs }]),
          text('new', [{ type: 'insertion', attrs: { ...attrs, source: 'user' } }]),
        ),
      ],
    };
    expect(validateRichText(doc)).toEqual(doc);
  });

  it('refuses a forged source, author id or time, and repair drops the bad value', () => {
    for (const bad of [{ source: 'robot' }, { author_id: '<script>' }, { created_at: 'yesterday' }]) {
      const doc = {
        type: 'doc',
        content: [paragraph(text('x', [{ type: 'insertion', attrs: { ...attrs, ...bad } }]))],
      };
      expect(() => validateRichText(doc)).toThrow(InvalidContentError);
      const repaired = repairRichText(doc).doc as unknown as {
        content: { content: { marks: { attrs: Record<string, unknown> }[] }[] }[];
      };
      const key = Object.keys(bad)[0]!;
      expect(repaired.content[0]!.content[0]!.marks[0]!.attrs[key] ?? null).toBeNull();
    }
  });
});

describe('lone UTF-16 surrogates (cannot be stored in jsonb)', () => {
  const withLone = {
    type: 'doc',
    content: [
      paragraph(text('half \udfff pair')),
      paragraph(text('link', [{ type: 'link', attrs: { href: '/notes\ud83d' } }])),
      paragraph(text('whole \ud83e\udd89 owl')),
    ],
  };

  it('are refused in text and in attribute values, naming where', () => {
    expect(() => validateRichText(withLone)).toThrow(/content\[0\].*lone UTF-16 surrogate/);
    expect(() => validateRichText({ type: 'doc', content: [withLone.content[1]] })).toThrow(
      /attribute "href" contains a lone UTF-16 surrogate/,
    );
    expect(() => validateRichText({ type: 'doc', content: [withLone.content[2]] })).not.toThrow();
  });

  it('are replaced by U+FFFD in repair mode, and pairs are kept', () => {
    const { doc, changed } = repairRichText(withLone);
    expect(changed).toBe(true);
    const json = JSON.stringify(doc);
    expect(json).toContain('"half \ufffd pair"');
    expect(json).toContain('"/notes\ufffd"');
    expect(json).toContain('"whole 🦉 owl"');
    // JSON.stringify writes a lone surrogate as an escape.
    expect(json).not.toMatch(/\\ud[89a-f]/i);
  });
});

describe('tables, task lists, highlight, sub/superscript', () => {
  const table = (cellAttrs: unknown, type = 'tableCell') => ({
    type: 'doc',
    content: [
      {
        type: 'table',
        content: [
          { type: 'tableRow', content: [{ type, attrs: cellAttrs, content: [paragraph(text('c'))] }] },
        ],
      },
    ],
  });
  const tasks = (checked: unknown) => ({
    type: 'doc',
    content: [
      {
        type: 'taskList',
        content: [{ type: 'taskItem', attrs: { checked }, content: [paragraph(text('t'))] }],
      },
    ],
  });
  const highlighted = (attrs: unknown) => ({
    type: 'doc',
    content: [paragraph(text('h', [{ type: 'highlight', attrs }]))],
  });

  it('accepts valid tables, tasks and marks unchanged', () => {
    expect(validateRichText(TABLES_AND_TASKS_DOCUMENT)).toEqual(TABLES_AND_TASKS_DOCUMENT);
    expect(repairRichText(TABLES_AND_TASKS_DOCUMENT)).toEqual({
      doc: TABLES_AND_TASKS_DOCUMENT,
      changed: false,
    });
    expect(() =>
      validateRichText(table({ colspan: 3, rowspan: 2, colwidth: [120, 0, 300], align: 'center' })),
    ).not.toThrow();
    expect(() => validateRichText(tasks(false))).not.toThrow();
    expect(() => validateRichText(highlighted({ color: null }))).not.toThrow();
  });

  it('refuses spans, widths, alignments, checked flags and colours outside the rules', () => {
    const cases: [unknown, string][] = [
      [table({ colspan: 0 }), 'attribute "colspan" must be an integer from 1 to 100'],
      [table({ rowspan: 10_000 }, 'tableHeader'), 'attribute "rowspan" must be an integer from 1 to 100'],
      [table({ colspan: '2' }), 'attribute "colspan"'],
      [table({ colwidth: [99_999] }), 'attribute "colwidth" must be a list'],
      [table({ colwidth: ['100px'] }), 'attribute "colwidth"'],
      [table({ colwidth: 'x'.repeat(10) }), 'attribute "colwidth"'],
      [table({ colwidth: new Array(500).fill(100) }), 'attribute "colwidth"'],
      [table({ align: 'justify' }), 'attribute "align"'],
      [tasks('yes'), 'attribute "checked" must be true or false'],
      [highlighted({ color: 'red; background: url(x)' }), 'attribute "color" must be one of #fef08a'],
      [highlighted({ color: '#123456' }), 'attribute "color"'],
    ];
    for (const [doc, message] of cases) {
      expect(() => validateRichText(doc), message).toThrow(InvalidContentError);
      expect(() => validateRichText(doc), message).toThrow(message);
    }
  });

  it('repairs hostile attributes to the nearest allowed value (or the default)', () => {
    const cellAttrs = (doc: unknown) =>
      repairRichText(doc).doc.content[0]!.content![0]!.content![0]!.attrs ?? {};
    expect(cellAttrs(table({ colspan: 1e9, rowspan: -4, colwidth: [5, 99_999], align: 'evil' }))).toEqual({
      colspan: 100,
      rowspan: 1,
      colwidth: [25, 2000],
    });
    expect(cellAttrs(table({ colspan: 'x', colwidth: 'javascript:1' }))).toEqual({});
    const task = repairRichText(tasks('true')).doc.content[0]!.content![0]!;
    expect(task.attrs).toEqual({ checked: true });
    expect(repairRichText(tasks({ evil: 1 })).doc.content[0]!.content![0]!.attrs).toEqual({ checked: false });
    const mark = repairRichText(highlighted({ color: 'url(javascript:1)' })).doc.content[0]!.content![0]!
      .marks;
    expect(mark).toEqual([{ type: 'highlight' }]);
    expect(repairRichText(highlighted({ color: '#BBF7D0' })).doc.content[0]!.content![0]!.marks).toEqual([
      { type: 'highlight', attrs: { color: '#bbf7d0' } },
    ]);
  });

  it('keeps table parts in tables and task items in task lists', () => {
    expect(() => validateRichText({ type: 'doc', content: [{ type: 'tableRow', content: [] }] })).toThrow(
      '"tableRow" is not allowed inside "doc"',
    );
    expect(() =>
      validateRichText({
        type: 'doc',
        content: [{ type: 'bulletList', content: [{ type: 'taskItem', content: [paragraph(text('x'))] }] }],
      }),
    ).toThrow('"taskItem" is not allowed inside "bulletList"');
  });
});

describe('image nodes', () => {
  const src = IMAGE_SRC;
  const image = (attrs: Record<string, unknown>) => ({ type: 'doc', content: [{ type: 'image', attrs }] });

  it('keeps an image of this server with its alt text, width and alignment', () => {
    const doc = validateRichText(image({ src, alt: 'A cat', width: 50, align: 'left' }));
    expect(doc.content[0]).toEqual({ type: 'image', attrs: { src, alt: 'A cat', width: 50, align: 'left' } });
  });

  it.each([
    ['a remote address', 'https://tracker.example/pixel.gif'],
    ['a data URL', 'data:image/png;base64,iVBORw0KGgo='],
    ['a javascript URL', 'javascript:alert(1)'],
    ['an address with a query', `${src}?access=stolen`],
    ['another path of this server', '/api/documents/2f0c6a43-5a8b-4a52-9d43-6d3c0a5f3e11'],
  ])('refuses %s as src, and repair removes the image', (_name, value) => {
    expect(() => validateRichText(image({ src: value }))).toThrow(InvalidContentError);
    const repaired = repairRichText(image({ src: value, alt: 'x' }));
    expect(repaired.changed).toBe(true);
    expect(repaired.doc.content).toEqual([]);
  });

  it('refuses an image without src', () => {
    expect(() => validateRichText(image({ alt: 'nothing' }))).toThrow(/needs the attribute "src"/);
  });

  it('snaps a width to the nearest step and clears an unknown alignment in repair mode', () => {
    expect(() => validateRichText(image({ src, width: 33 }))).toThrow(/width/);
    const repaired = repairRichText(image({ src, width: 33, align: 'top', alt: 'x'.repeat(600) }));
    const attrs = repaired.doc.content[0]!.attrs!;
    expect(attrs.width).toBe(25);
    expect(attrs.align).toBeUndefined();
    expect((attrs.alt as string).length).toBe(500);
  });

  it('is a block: not allowed inside a paragraph', () => {
    const inParagraph = { type: 'doc', content: [paragraph({ type: 'image', attrs: { src } })] };
    expect(() => validateRichText(inParagraph)).toThrow(/not allowed inside "paragraph"/);
  });
});

describe('comment marks', () => {
  const A = '00000000-0000-4000-8000-00000000000a';
  const B = '00000000-0000-4000-8000-00000000000b';
  const comment = (threadId: unknown) => ({ type: 'comment', attrs: { threadId } });
  const docWith = (...marks: unknown[]) => ({ type: 'doc', content: [paragraph(text('noted', marks))] });

  it('keeps overlapping threads on the same text, and one copy of a repeated thread', () => {
    const valid = validateRichText(docWith(comment(A), comment(B), comment(A), { type: 'bold' }));
    expect(valid.content![0]!.content![0]!.marks).toEqual([comment(B), comment(A), { type: 'bold' }]);
    expect(repairRichText(docWith(comment(A), comment(B))).changed).toBe(false);
  });

  it('refuses a thread id that is not a UUID or none at all, and repair drops the mark', () => {
    for (const bad of ['javascript:alert(1)', 42, null]) {
      expect(() => validateRichText(docWith(comment(bad))), String(bad)).toThrow(InvalidContentError);
      const { doc, changed } = repairRichText(docWith(comment(bad), { type: 'italic' }));
      expect(changed).toBe(true);
      expect(doc.content![0]!.content![0]!.marks).toEqual([{ type: 'italic' }]);
    }
    expect(() => validateRichText(docWith({ type: 'comment' }))).toThrow(/needs the attribute "threadId"/);
  });

  it('does not extend as text is typed at its edge, and does not exclude itself', () => {
    const type = getEditorSchema().marks.comment!;
    expect(type.spec.inclusive).toBe(false);
    expect(type.excludes(type)).toBe(false);
  });
});
