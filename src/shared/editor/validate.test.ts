import { describe, expect, it } from 'vitest';
import { getEditorSchema } from './extensions';
import { InvalidContentError, MAX_TEXT_NODE_LENGTH, repairRichText, validateRichText } from './validate';

const text = (value: string, marks?: unknown[]) => ({
  type: 'text',
  text: value,
  ...(marks ? { marks } : {}),
});
const paragraph = (...content: unknown[]) => ({ type: 'paragraph', content });

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
      const node = schema.nodes[name]!.isInline
        ? paragraph({ type: name })
        : name === 'listItem'
          ? { type: 'bulletList', content: [{ type: name, content: [paragraph(text('x'))] }] }
          : { type: name };
      expect(() => validateRichText({ type: 'doc', content: [node] }), name).not.toThrow();
    }
    for (const name of Object.keys(schema.marks)) {
      expect(
        () => validateRichText({ type: 'doc', content: [paragraph(text('x', [{ type: name }]))] }),
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
