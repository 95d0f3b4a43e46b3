import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { InvalidRichTextError, parseRichText } from './content';
import {
  encodeStatelessMessage,
  encodeStateVector,
  isStoredFor,
  parseStatelessMessage,
} from './collab-protocol';
import { createEditorExtensions, getEditorSchema, shouldAutoLink } from './extensions';
import { isSafeHref } from './links';

describe('editor schema', () => {
  it("has exactly the product's nodes and marks (docs/product-rules.md#rich-text-content)", () => {
    const schema = getEditorSchema();
    expect(Object.keys(schema.nodes).sort()).toEqual(
      [
        'blockquote',
        'bulletList',
        'codeBlock',
        'doc',
        'footnote',
        'footnoteReference',
        'footnotes',
        'hardBreak',
        'heading',
        'horizontalRule',
        'image',
        'listItem',
        'orderedList',
        'paragraph',
        'table',
        'tableCell',
        'tableHeader',
        'tableRow',
        'taskItem',
        'taskList',
        'text',
      ].sort(),
    );
    expect(Object.keys(schema.marks).sort()).toEqual(
      [
        'bold',
        'code',
        'comment',
        'deletion',
        'highlight',
        'insertion',
        'italic',
        'link',
        'strike',
        'subscript',
        'superscript',
        'textStyle',
        'underline',
      ].sort(),
    );
  });

  it("carries the product's attributes: link target/rel, textStyle font/size/colour/aiSuggestion, alignment", () => {
    const schema = getEditorSchema();
    expect(Object.keys(schema.marks.link!.spec.attrs ?? {})).toEqual(
      expect.arrayContaining(['href', 'target', 'rel', 'class']),
    );
    expect(schema.marks.link!.spec.attrs?.target?.default).toBe('_blank');
    expect(schema.marks.link!.spec.attrs?.rel?.default).toBe('noopener noreferrer nofollow');
    expect(Object.keys(schema.marks.textStyle!.spec.attrs ?? {})).toEqual(
      expect.arrayContaining(['fontFamily', 'fontSize', 'color', 'aiSuggestion']),
    );
    expect(Object.keys(schema.nodes.paragraph!.spec.attrs ?? {})).toContain('textAlign');
    expect(Object.keys(schema.nodes.heading!.spec.attrs ?? {})).toContain('textAlign');
    expect(Object.keys(schema.nodes.orderedList!.spec.attrs ?? {})).toContain('start');
  });

  it('leaves history to the caller: with history off there is no undoRedo extension', () => {
    const names = (options?: { history?: boolean }) =>
      createEditorExtensions(options).map((extension) => extension.name);
    expect(names({ history: false })).not.toContain('undoRedo');
    expect(names()).toContain('undoRedo');
  });
});

describe('link scheme whitelist', () => {
  it('accepts whitelisted schemes and relative hrefs, refuses others including disguised ones', () => {
    for (const href of [
      'https://a.test',
      'HTTP://a.test',
      'mailto:me@a.test',
      'tel:+1',
      'xmpp:x@y',
      '/path',
      '#top',
      'page',
    ]) {
      expect(isSafeHref(href), href).toBe(true);
    }
    for (const href of [
      'javascript:alert(1)',
      ' java\tscript:alert(1)',
      'data:text/html,x',
      'file:///etc/passwd',
    ]) {
      expect(isSafeHref(href), href).toBe(false);
    }
  });

  it('autolinks hosts with a dot and whitelisted schemes, not bare words, IPs or other schemes', () => {
    expect(shouldAutoLink('https://example.com')).toBe(true);
    expect(shouldAutoLink('example.com')).toBe(true);
    expect(shouldAutoLink('mailto:me@example.com')).toBe(true);
    expect(shouldAutoLink('localhost')).toBe(false);
    expect(shouldAutoLink('127.0.0.1')).toBe(false);
    expect(shouldAutoLink('javascript:alert(1)')).toBe(false);
  });

  it('blanks a disallowed href when content is parsed', () => {
    const node = parseRichText({
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'x', marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }] },
          ],
        },
      ],
    });
    expect(node.firstChild!.firstChild!.marks[0]!.attrs.href).toBe('');
  });
});

describe('parseRichText', () => {
  const para = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });

  it('reads a tree, a JSON string and the empty doc', () => {
    expect(parseRichText({ type: 'doc', content: [para('a')] }).textContent).toBe('a');
    expect(parseRichText(JSON.stringify({ type: 'doc', content: [para('b')] })).textContent).toBe('b');
    expect(parseRichText({ type: 'doc', content: [] }).childCount).toBe(0);
  });

  it('refuses unknown nodes, heading levels above 3, bad alignments and invalid nesting', () => {
    const bad = [
      { type: 'doc', content: [{ type: 'image' }] },
      { type: 'doc', content: [{ type: 'heading', attrs: { level: 4 }, content: [] }] },
      { type: 'doc', content: [{ type: 'paragraph', attrs: { textAlign: 'middle' } }] },
      { type: 'doc', content: [{ type: 'text', text: 'loose text' }] },
      'not json',
      42,
    ];
    for (const value of bad)
      expect(() => parseRichText(value), JSON.stringify(value)).toThrow(InvalidRichTextError);
  });

  it('when not strict, repairs mark sets the schema forbids (code excludes other marks)', () => {
    const value = {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [{ type: 'text', text: 'c', marks: [{ type: 'bold' }, { type: 'code' }] }],
        },
      ],
    };
    expect(() => parseRichText(value)).toThrow(InvalidRichTextError);
    const node = parseRichText(value, { strict: false });
    expect(node.firstChild!.firstChild!.marks.map((mark) => mark.type.name)).toEqual(['code']);
  });
});

describe('collaboration protocol', () => {
  it('round-trips stateless messages and ignores foreign payloads', () => {
    const stored = {
      type: 'stored',
      stateVector: 'AA==',
      version: 3,
      updatedAt: '2026-01-01T00:00:00.000Z',
    } as const;
    expect(parseStatelessMessage(encodeStatelessMessage(stored))).toEqual(stored);
    expect(parseStatelessMessage(encodeStatelessMessage({ type: 'title', title: 'T' }))).toEqual({
      type: 'title',
      title: 'T',
    });
    expect(parseStatelessMessage('{"type":"other"}')).toBeNull();
    expect(parseStatelessMessage('not json')).toBeNull();
  });

  it("isStoredFor is true once a stored state vector covers this doc's own edits", () => {
    const server = new Y.Doc();
    const local = new Y.Doc();
    expect(isStoredFor({ stateVector: encodeStateVector(server) }, local)).toBe(true); // nothing typed yet
    local.getText('t').insert(0, 'abc');
    expect(isStoredFor({ stateVector: encodeStateVector(server) }, local)).toBe(false);
    Y.applyUpdate(server, Y.encodeStateAsUpdate(local));
    expect(isStoredFor({ stateVector: encodeStateVector(server) }, local)).toBe(true);
    local.getText('t').insert(3, 'd');
    expect(isStoredFor({ stateVector: encodeStateVector(server) }, local)).toBe(false);
  });
});
