import { Mark, mergeAttributes } from '@tiptap/core';
import type { LinkOptions } from '@tiptap/extension-link';
import { isSafeHref } from './links';

/**
 * TipTap's Link mark (@tiptap/extension-link) without its behaviours: the same schema (attributes, parsing,
 * rendering, inclusive, exitable), commands and Markdown, but no autolink, link-on-paste or click handling.
 * Those need linkifyjs, which the browser editor fetches after its first paint and registers with the editor
 * (features/editor/extensions/link-behaviour.ts), while the schema has to be complete when the editor is made.
 * link-mark.test.ts holds this to the original.
 */
export const LinkMark = Mark.create<LinkOptions>({
  name: 'link',
  priority: 1000,
  keepOnSplit: false,
  exitable: true,

  inclusive() {
    return this.options.autolink;
  },

  addOptions() {
    return {
      openOnClick: true,
      enableClickSelection: false,
      linkOnPaste: true,
      markdownLinks: false,
      autolink: true,
      protocols: [],
      defaultProtocol: 'http',
      HTMLAttributes: { target: '_blank', rel: 'noopener noreferrer nofollow', class: null },
      isAllowedUri: (url) => isSafeHref(url),
      validate: (url) => !!url,
      shouldAutoLink: () => true,
    };
  },

  addAttributes() {
    const { HTMLAttributes } = this.options;
    return {
      href: { default: null, parseHTML: (element) => element.getAttribute('href') },
      target: { default: (HTMLAttributes.target as string | undefined) ?? null },
      rel: { default: (HTMLAttributes.rel as string | undefined) ?? null },
      class: { default: (HTMLAttributes.class as string | undefined) ?? null },
      title: { default: null },
    };
  },

  parseHTML() {
    return [
      {
        tag: 'a[href]',
        getAttrs: (dom) => {
          const href = dom.getAttribute('href');
          return href && this.options.isAllowedUri(href, allowedUriContext(this.options)) ? null : false;
        },
      },
    ];
  },

  renderHTML({ HTMLAttributes }) {
    const href = HTMLAttributes.href as string;
    if (!this.options.isAllowedUri(href, allowedUriContext(this.options))) {
      return ['a', mergeAttributes(this.options.HTMLAttributes, { ...HTMLAttributes, href: '' }), 0];
    }
    return ['a', mergeAttributes(this.options.HTMLAttributes, HTMLAttributes), 0];
  },

  markdownTokenName: 'link',

  parseMarkdown: (token, helpers) =>
    helpers.applyMark('link', helpers.parseInline(token.tokens ?? []), {
      href: token.href as string,
      title: (token.title as string | undefined) || null,
    }),

  renderMarkdown: (node, helpers) => {
    const href = (node.attrs?.href as string | undefined) ?? '';
    const title = (node.attrs?.title as string | undefined) ?? '';
    const text = helpers.renderChildren(node);
    return title ? `[${text}](${href} "${title}")` : `[${text}](${href})`;
  },

  addCommands() {
    return {
      setLink:
        (attributes) =>
        ({ chain }) => {
          if (!this.options.isAllowedUri(attributes.href, allowedUriContext(this.options))) return false;
          return chain().setMark(this.name, attributes).setMeta('preventAutolink', true).run();
        },
      toggleLink:
        (attributes) =>
        ({ chain }) => {
          const href = attributes?.href;
          if (href && !this.options.isAllowedUri(href, allowedUriContext(this.options))) return false;
          return chain()
            .toggleMark(this.name, attributes, { extendEmptyMarkRange: true })
            .setMeta('preventAutolink', true)
            .run();
        },
      unsetLink:
        () =>
        ({ chain }) =>
          chain().unsetMark(this.name, { extendEmptyMarkRange: true }).setMeta('preventAutolink', true).run(),
    };
  },
});

function allowedUriContext(options: LinkOptions): Parameters<LinkOptions['isAllowedUri']>[1] {
  return {
    defaultValidate: (url) => isSafeHref(url),
    protocols: options.protocols,
    defaultProtocol: options.defaultProtocol,
  };
}
