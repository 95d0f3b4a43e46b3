// @vitest-environment jsdom
import { Editor, getSchema } from '@tiptap/core';
import { Document } from '@tiptap/extension-document';
import { Link } from '@tiptap/extension-link';
import { Paragraph } from '@tiptap/extension-paragraph';
import { Text } from '@tiptap/extension-text';
import { MarkdownManager } from '@tiptap/markdown';
import { describe, expect, it } from 'vitest';
import { LinkMark } from './link-mark';
import { isSafeHref } from './links';

const options = {
  openOnClick: false,
  autolink: true,
  defaultProtocol: 'https',
  HTMLAttributes: { target: '_blank', rel: 'noopener noreferrer nofollow' },
  isAllowedUri: (url: string) => isSafeHref(url),
};
const base = [Document, Paragraph, Text];
const ours = getSchema([...base, LinkMark.configure(options)]).marks.link!;
const tiptap = getSchema([...base, Link.configure(options)]).marks.link!;

describe('LinkMark (TipTap Link without its linkify behaviours)', () => {
  it('makes the same mark type as TipTap Link', () => {
    const { spec } = ours;
    const original = tiptap.spec;
    expect(spec.inclusive).toBe(original.inclusive);
    expect(spec.excludes).toBe(original.excludes);
    expect(spec.spanning).toBe(original.spanning);
    expect(Object.fromEntries(Object.entries(spec.attrs ?? {}).map(([k, v]) => [k, v.default]))).toEqual(
      Object.fromEntries(Object.entries(original.attrs ?? {}).map(([k, v]) => [k, v.default])),
    );
    expect(spec.parseDOM?.map((rule) => rule.tag)).toEqual(original.parseDOM?.map((rule) => rule.tag));
    for (const href of ['https://a.test/x', '/relative', 'javascript:alert(1)', 'mailto:me@a.test']) {
      expect(spec.toDOM!(ours.create({ href, title: 't' }), true), href).toEqual(
        original.toDOM!(tiptap.create({ href, title: 't' }), true),
      );
      const anchor = document.createElement('a');
      anchor.setAttribute('href', href);
      const parse = (rule: NonNullable<typeof spec.parseDOM>[number]) =>
        'getAttrs' in rule && rule.getAttrs
          ? (rule.getAttrs as (node: HTMLElement) => unknown)(anchor)
          : null;
      expect(parse(spec.parseDOM![0]!), href).toEqual(parse(original.parseDOM![0]!));
    }
  });

  it('has the same commands and Markdown as TipTap Link', () => {
    const make = (link: typeof LinkMark | typeof Link) =>
      new Editor({ extensions: [...base, link.configure(options)], content: '<p>Hello world</p>' });
    const mine = make(LinkMark);
    const theirs = make(Link);
    for (const editor of [mine, theirs]) {
      editor.commands.setTextSelection({ from: 1, to: 6 });
      expect(editor.commands.setLink({ href: 'javascript:alert(1)' })).toBe(false);
      expect(editor.commands.setLink({ href: 'https://a.test' })).toBe(true);
      editor.commands.setTextSelection({ from: 7, to: 12 });
      editor.commands.toggleLink({ href: 'https://b.test' });
      editor.commands.setTextSelection(3);
      editor.commands.unsetLink();
    }
    expect(mine.getHTML()).toBe(theirs.getHTML());
    const markdown = (editor: Editor) => {
      const manager = new MarkdownManager({ extensions: editor.extensionManager.extensions });
      const parsed = manager.parse('See [the site](https://a.test "Title") and [that](/b).');
      return [parsed, manager.serialize(parsed), manager.serialize(editor.getJSON())];
    };
    expect(markdown(mine)).toEqual(markdown(theirs));
    mine.destroy();
    theirs.destroy();
  });
});
