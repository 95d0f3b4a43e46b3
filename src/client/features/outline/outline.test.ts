import { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { afterEach, describe, expect, it } from 'vitest';
import { countWords } from '@shared/analysis';
import { createEditorExtensions } from '@shared/editor/extensions';
import { blockWordCount } from '@client/features/editor';
import { keyboardTarget, moveSection, dropTarget } from './move-section';
import { buildOutline, isHiddenByCollapse, sectionAt } from './outline';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

function makeEditor(html: string): Editor {
  editor = new Editor({ extensions: createEditorExtensions({ history: true }), content: html });
  return editor;
}

const plainCount = (block: ProseMirrorNode) => countWords(block.textContent);

/** Each top-level block as "h1:Text" / "p:Text", to read a document's order at a glance. */
function blocks(doc: ProseMirrorNode): string[] {
  const out: string[] = [];
  doc.forEach((block) => {
    const kind = block.type.name === 'heading' ? `h${block.attrs.level}` : block.type.name.slice(0, 1);
    out.push(`${kind}:${block.textContent}`);
  });
  return out;
}

const BOOK = [
  '<p>A short preface here.</p>',
  '<h1>Chapter One</h1>',
  '<p>It was a dark night.</p>',
  '<h2>Scene A</h2>',
  '<p>Rain fell.</p>',
  '<h3>Beat</h3>',
  '<p>Thunder.</p>',
  '<h2>Scene B</h2>',
  '<p>The door opened slowly.</p>',
  '<h1>Chapter Two</h1>',
  '<h2>Scene C</h2>',
  '<p>Morning came at last.</p>',
].join('');

describe('the outline of a document', () => {
  it('builds the heading tree with each section counting its heading and everything under it', () => {
    const e = makeEditor(BOOK);
    const { sections, totalWords } = buildOutline(e.state.doc, plainCount);
    expect(sections.map((s) => [s.text, s.level, s.depth, s.parent, s.hasChildren])).toEqual([
      ['Chapter One', 1, 0, null, true],
      ['Scene A', 2, 1, 0, true],
      ['Beat', 3, 2, 1, false],
      ['Scene B', 2, 1, 0, false],
      ['Chapter Two', 1, 0, null, true],
      ['Scene C', 2, 1, 4, false],
    ]);
    // Chapter One: 2 + 5 + (2 + 2 + 1 + 1) + (2 + 4) words.
    expect(sections.map((s) => s.words)).toEqual([19, 6, 2, 6, 8, 6]);
    // The preface counts in the total, not in any section.
    expect(totalWords).toBe(4 + 19 + 8);
    // Sections cover the document from the first heading to the end, siblings back to back.
    expect(sections[0]!.end).toBe(sections[4]!.pos);
    expect(sections[1]!.end).toBe(sections[3]!.pos);
    expect(sections[5]!.end).toBe(e.state.doc.content.size);
  });

  it('puts a heading that skips a level under the nearest higher one, and one with none above it at the top', () => {
    const e = makeEditor('<h2>Prologue</h2><p>x</p><h1>Part</h1><h3>Deep</h3><h2>Mid</h2>');
    const { sections } = buildOutline(e.state.doc, plainCount);
    expect(sections.map((s) => [s.text, s.depth, s.parent])).toEqual([
      ['Prologue', 0, null],
      ['Part', 0, null],
      ['Deep', 1, 1],
      ['Mid', 1, 1],
    ]);
  });

  it('counts words as the live counts do: text proposed for deletion is left out', () => {
    const deletion = {
      type: 'deletion',
      attrs: {
        id: 's1',
        author_id: 'u1',
        author_name: 'Ada',
        source: 'user',
        created_at: '2026-01-01T00:00:00.000Z',
      },
    };
    editor = new Editor({
      extensions: createEditorExtensions({ history: true }),
      content: {
        type: 'doc',
        content: [
          { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'One' }] },
          {
            type: 'paragraph',
            content: [
              { type: 'text', text: 'kept ' },
              { type: 'text', text: 'gone words', marks: [deletion] },
              { type: 'text', text: ' here' },
            ],
          },
        ],
      },
    });
    const e = editor;
    expect(JSON.stringify(e.getJSON())).toContain('"deletion"');
    const { sections, totalWords } = buildOutline(e.state.doc, blockWordCount);
    expect(sections[0]!.words).toBe(3);
    expect(totalWords).toBe(3);
  });

  it('finds the innermost section at a position, and none before the first heading', () => {
    const e = makeEditor(BOOK);
    const { sections } = buildOutline(e.state.doc, plainCount);
    expect(sectionAt(sections, 1)).toBeNull();
    expect(sectionAt(sections, sections[2]!.pos + 2)?.text).toBe('Beat');
    expect(sectionAt(sections, sections[3]!.pos - 1)?.text).toBe('Beat');
    expect(sectionAt(sections, sections[3]!.pos)?.text).toBe('Scene B');
    expect(sectionAt(sections, e.state.doc.content.size - 1)?.text).toBe('Scene C');
  });

  it('hides the subsections of a collapsed section', () => {
    const e = makeEditor(BOOK);
    const { sections } = buildOutline(e.state.doc, plainCount);
    const collapsed = new Set([sections[0]!.pos]);
    expect(sections.filter((s) => !isHiddenByCollapse(sections, s, collapsed)).map((s) => s.text)).toEqual([
      'Chapter One',
      'Chapter Two',
      'Scene C',
    ]);
  });
});

describe('moving a section', () => {
  it('moves the heading and everything under it in one transaction, every word kept, one undo step', () => {
    const e = makeEditor(BOOK);
    const before = e.state.doc;
    const { sections } = buildOutline(before, plainCount);
    const chapterTwo = sections[4]!;
    const tr = moveSection(e.state, chapterTwo, dropTarget(sections[0]!, 'before'))!;
    expect(tr).not.toBeNull();
    let transactions = 0;
    e.on('transaction', () => (transactions += 1));
    e.view.dispatch(tr);
    expect(transactions).toBe(1);
    expect(blocks(e.state.doc)).toEqual([
      'p:A short preface here.',
      'h1:Chapter Two',
      'h2:Scene C',
      'p:Morning came at last.',
      'h1:Chapter One',
      'p:It was a dark night.',
      'h2:Scene A',
      'p:Rain fell.',
      'h3:Beat',
      'p:Thunder.',
      'h2:Scene B',
      'p:The door opened slowly.',
    ]);
    // The same blocks, only in another order.
    expect(blocks(e.state.doc).sort()).toEqual(blocks(before).sort());
    expect(e.state.doc.content.size).toBe(before.content.size);
    // The caret is at the start of the moved heading.
    expect(e.state.selection.$from.parent.textContent).toBe('Chapter Two');
    expect(e.state.selection.$from.parentOffset).toBe(0);
    e.commands.undo();
    expect(e.state.doc.eq(before)).toBe(true);
  });

  it('moves a section after another one, past its subsections', () => {
    const e = makeEditor(BOOK);
    const { sections } = buildOutline(e.state.doc, plainCount);
    e.view.dispatch(moveSection(e.state, sections[0]!, dropTarget(sections[4]!, 'after'))!);
    expect(blocks(e.state.doc).filter((b) => b.startsWith('h'))).toEqual([
      'h1:Chapter Two',
      'h2:Scene C',
      'h1:Chapter One',
      'h2:Scene A',
      'h3:Beat',
      'h2:Scene B',
    ]);
  });

  it('refuses to move a section into itself or onto its own edges', () => {
    const e = makeEditor(BOOK);
    const { sections } = buildOutline(e.state.doc, plainCount);
    expect(moveSection(e.state, sections[0]!, sections[1]!.pos)).toBeNull();
    expect(moveSection(e.state, sections[0]!, sections[0]!.pos)).toBeNull();
    expect(moveSection(e.state, sections[0]!, sections[0]!.end)).toBeNull();
    // Inside a paragraph: not between top-level blocks.
    expect(moveSection(e.state, sections[4]!, 3)).toBeNull();
  });

  it('steps a section past its neighbours with the keyboard, and back', () => {
    const e = makeEditor(BOOK);
    const step = (text: string, direction: 'up' | 'down') => {
      const { sections } = buildOutline(e.state.doc, plainCount);
      const section = sections.find((s) => s.text === text)!;
      const target = keyboardTarget(sections, section, direction);
      if (target === null) return false;
      e.view.dispatch(moveSection(e.state, section, target)!);
      return true;
    };
    const headings = () => blocks(e.state.doc).filter((b) => b.startsWith('h'));
    const original = headings();

    // A scene swaps with its sibling.
    expect(step('Scene B', 'up')).toBe(true);
    expect(headings()).toEqual([
      'h1:Chapter One',
      'h2:Scene B',
      'h2:Scene A',
      'h3:Beat',
      'h1:Chapter Two',
      'h2:Scene C',
    ]);
    expect(step('Scene B', 'down')).toBe(true);
    expect(headings()).toEqual(original);

    // The last scene of a chapter goes down into the next chapter, before its first scene, and back up.
    expect(step('Scene B', 'down')).toBe(true);
    expect(headings()).toEqual([
      'h1:Chapter One',
      'h2:Scene A',
      'h3:Beat',
      'h1:Chapter Two',
      'h2:Scene B',
      'h2:Scene C',
    ]);
    expect(step('Scene B', 'up')).toBe(true);
    expect(headings()).toEqual(original);

    // Chapters swap whole; nothing moves past the document's edges.
    expect(step('Chapter One', 'up')).toBe(false);
    expect(step('Chapter Two', 'down')).toBe(false);
    expect(step('Chapter Two', 'up')).toBe(true);
    expect(headings()).toEqual([
      'h1:Chapter Two',
      'h2:Scene C',
      'h1:Chapter One',
      'h2:Scene A',
      'h3:Beat',
      'h2:Scene B',
    ]);
  });
});
