import { EditorState, TextSelection } from '@tiptap/pm/state';
import { describe, expect, it } from 'vitest';
import { FOOTNOTES_DOCUMENT } from '../export/fixture';
import type { RichTextDoc, RichTextNode } from '../schemas/richText';
import { getEditorSchema } from './extensions';
import { footnoteNumbers, footnoteSyncPlugin, planFootnotes } from './footnotes';
import { repairRichText, validateRichText } from './validate';
import { acceptAllSuggestions, rejectAllSuggestions } from '../suggestions/resolve';

const text = (value: string) => ({ type: 'text', text: value });
const ref = (id: string) => ({ type: 'footnoteReference', attrs: { id } });
const note = (id: string, value: string) => ({
  type: 'footnote',
  attrs: { id },
  content: [{ type: 'paragraph', content: [text(value)] }],
});
const notesOf = (doc: RichTextDoc) =>
  (doc.content.find((node) => node.type === 'footnotes')?.content ?? []).map((n: RichTextNode) => [
    n.attrs?.id,
    n.content?.[0]?.content?.[0]?.text ?? '',
  ]);

describe('footnote pairing (the validator, every write)', () => {
  it('keeps a paired document as it is', () => {
    expect(validateRichText(FOOTNOTES_DOCUMENT)).toEqual(FOOTNOTES_DOCUMENT);
    expect(repairRichText(FOOTNOTES_DOCUMENT).changed).toBe(false);
  });

  it('drops an orphan note, gives a reference without a note an empty one and orders notes as the references', () => {
    const doc = validateRichText({
      type: 'doc',
      content: [
        { type: 'paragraph', content: [text('a'), ref('second'), text('b'), ref('first')] },
        { type: 'footnotes', content: [note('first', 'First'), note('orphan', 'Nobody calls me')] },
      ],
    });
    expect(notesOf(doc)).toEqual([
      ['second', ''],
      ['first', 'First'],
    ]);
  });

  it('moves the list to the end, merges two lists and renames a repeated reference (its note copied)', () => {
    const { doc, changed } = repairRichText({
      type: 'doc',
      content: [
        { type: 'footnotes', content: [note('a', 'Alpha')] },
        { type: 'paragraph', content: [ref('a'), text(' and again'), ref('a')] },
        { type: 'footnotes', content: [note('b', 'Beta')] },
      ],
    });
    expect(changed).toBe(true);
    expect(doc.content.map((node) => node.type)).toEqual(['paragraph', 'footnotes']);
    const ids = (doc.content[0]!.content ?? [])
      .filter((n) => n.type === 'footnoteReference')
      .map((n) => n.attrs?.id);
    expect(ids[0]).toBe('a');
    expect(ids[1]).not.toBe('a');
    expect(notesOf(doc)).toEqual([
      ['a', 'Alpha'],
      [ids[1], 'Alpha'],
    ]);
  });

  it('removes a list of notes when no reference is left, and a reference inside a note', () => {
    expect(
      validateRichText({
        type: 'doc',
        content: [{ type: 'paragraph' }, { type: 'footnotes', content: [note('x', 'X')] }],
      }),
    ).toEqual({ type: 'doc', content: [{ type: 'paragraph' }] });
    const nested = validateRichText({
      type: 'doc',
      content: [
        { type: 'paragraph', content: [ref('x')] },
        {
          type: 'footnotes',
          content: [{ ...note('x', 'X'), content: [{ type: 'paragraph', content: [text('X'), ref('y')] }] }],
        },
      ],
    });
    expect(notesOf(nested)).toEqual([['x', 'X']]);
    expect(JSON.stringify(nested.content[1])).not.toContain('footnoteReference');
  });

  it('refuses an id that is not a footnote id', () => {
    expect(() =>
      validateRichText({ type: 'doc', content: [{ type: 'paragraph', content: [ref('<script>')] }] }),
    ).toThrow(/attribute "id" must be a footnote id/u);
  });

  it('plans a new id for a reference without one', () => {
    const plan = planFootnotes([null], [], () => 'fresh');
    expect(plan).toEqual({ referenceIds: ['fresh'], notes: [{ id: 'fresh', from: undefined }] });
  });
});

describe('footnote sync in the editor (appendTransaction)', () => {
  const schema = getEditorSchema();
  const start = (doc: RichTextDoc) =>
    EditorState.create({
      schema,
      doc: schema.nodeFromJSON(doc),
      plugins: [footnoteSyncPlugin(() => false)],
    });

  it('a new reference gets its note, in reading order; deleting a reference takes its note away', () => {
    let state = start(FOOTNOTES_DOCUMENT);
    // Before "Whales": a new first footnote.
    state = state.apply(state.tr.insert(1, schema.nodes.footnoteReference!.create({ id: 'fnnew' })));
    expect(footnoteNumbers(state.doc)).toEqual(
      new Map([
        ['fnnew', 1],
        ['fnwhale', 2],
        ['fnbat', 3],
      ]),
    );
    expect(notesOf(state.doc.toJSON() as RichTextDoc).map(([id]) => id)).toEqual([
      'fnnew',
      'fnwhale',
      'fnbat',
    ]);
    // Delete the whale's reference (after the new reference and "Whales sing").
    const pos = 1 + 1 + 'Whales sing'.length;
    expect(state.doc.nodeAt(pos)?.attrs.id).toBe('fnwhale');
    state = state.apply(state.tr.delete(pos, pos + 1));
    expect(notesOf(state.doc.toJSON() as RichTextDoc)).toEqual([
      ['fnnew', ''],
      ['fnbat', 'Griffin, '],
    ]);
  });

  it('leaves changes from collaborators alone', () => {
    const state = EditorState.create({
      schema,
      doc: schema.nodeFromJSON(FOOTNOTES_DOCUMENT),
      plugins: [footnoteSyncPlugin(() => true)],
    });
    const next = state.apply(state.tr.insert(1, schema.nodes.footnoteReference!.create({ id: 'fnnew' })));
    expect(notesOf(next.doc.toJSON() as RichTextDoc).map(([id]) => id)).toEqual(['fnwhale', 'fnbat']);
  });

  it('typing in a note changes nothing else', () => {
    const state = start(FOOTNOTES_DOCUMENT);
    const inNote = state.doc.content.size - 3;
    const tr = state.tr.setSelection(TextSelection.create(state.doc, inNote)).insertText('!');
    const result = state.applyTransaction(tr);
    expect(result.transactions).toHaveLength(1);
  });
});

describe('footnotes and tracked changes', () => {
  it('rejecting a suggested footnote takes its note away; accepting keeps both', () => {
    const insertion = { type: 'insertion', attrs: { id: 's1', author_id: 'u1', source: 'user' } };
    const doc: RichTextDoc = {
      type: 'doc',
      content: [
        { type: 'paragraph', content: [text('Claim'), { ...ref('fnx'), marks: [insertion] }] },
        {
          type: 'footnotes',
          content: [
            {
              ...note('fnx', ''),
              content: [{ type: 'paragraph', content: [{ ...text('Source'), marks: [insertion] }] }],
            },
          ],
        },
      ],
    };
    expect(rejectAllSuggestions(doc)).toEqual({
      type: 'doc',
      content: [{ type: 'paragraph', content: [text('Claim')] }],
    });
    expect(notesOf(acceptAllSuggestions(doc))).toEqual([['fnx', 'Source']]);
  });
});
