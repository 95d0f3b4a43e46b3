import { Extension, getSchema, type AnyExtension } from '@tiptap/core';
import type { Schema } from '@tiptap/pm/model';
import { Blockquote } from '@tiptap/extension-blockquote';
import { Bold } from '@tiptap/extension-bold';
import { Code } from '@tiptap/extension-code';
import { CodeBlock } from '@tiptap/extension-code-block';
import { Document } from '@tiptap/extension-document';
import { HardBreak } from '@tiptap/extension-hard-break';
import { Heading } from '@tiptap/extension-heading';
import { HorizontalRule } from '@tiptap/extension-horizontal-rule';
import { Italic } from '@tiptap/extension-italic';
import { Highlight } from '@tiptap/extension-highlight';
import { BulletList, ListItem, ListKeymap, OrderedList, TaskItem, TaskList } from '@tiptap/extension-list';
import { Paragraph } from '@tiptap/extension-paragraph';
import { Strike } from '@tiptap/extension-strike';
import { Subscript } from '@tiptap/extension-subscript';
import { Superscript } from '@tiptap/extension-superscript';
import { TableKit } from '@tiptap/extension-table';
import { Text } from '@tiptap/extension-text';
import { Underline } from '@tiptap/extension-underline';
import { Dropcursor, Gapcursor, TrailingNode, UndoRedo } from '@tiptap/extensions';
import { TextAlign } from '@tiptap/extension-text-align';
import { Color, FontFamily, FontSize, TextStyle } from '@tiptap/extension-text-style';
import { Typography } from '@tiptap/extension-typography';
import {
  DEFAULT_LINK_PROTOCOL,
  HEADING_LEVELS,
  LINK_REL,
  LINK_TARGET,
  MIN_TABLE_COLUMN_WIDTH_PX,
  TEXT_ALIGNMENTS,
  UNDO_HISTORY_DEPTH,
  UNDO_NEW_GROUP_DELAY_MS,
} from '../constants';
import {
  FootnoteNode,
  FootnoteReferenceNode,
  FootnotesNode,
  FOOTNOTES,
  footnoteNumbersOf,
} from './footnotes';
import { ImageNode } from './image-node';
import { LinkMark } from './link-mark';
import { isSafeHref } from './links';
import { DeletionMark, InsertionMark } from './suggestion-marks';
import { CommentMark } from './comment-mark';

/**
 * THE list of TipTap extensions that defines the document schema (docs/product-rules.md#rich-text-content).
 * The browser editor and the server (Yjs ⇄ JSON transform, validation of content from the API) both build
 * their schema from it, so the two can never drift. Client-only extensions (link detection, Placeholder,
 * Collaboration, CollaborationCaret, slash menu, views) are added on top by the editor UI; they must not add
 * nodes, marks or attributes.
 *
 * Nothing here may import DOM-only code: the server calls getSchema() on it.
 */

/** `aiSuggestion` attribute on the textStyle mark: the id of the AI suggestion a run of text came from. */
const AiSuggestionAttribute = Extension.create({
  name: 'aiSuggestionAttribute',
  addGlobalAttributes() {
    return [
      {
        types: ['textStyle'],
        attributes: {
          aiSuggestion: {
            default: null,
            parseHTML: (element: HTMLElement) => element.getAttribute('data-ai-suggestion'),
            renderHTML: (attributes: Record<string, unknown>) =>
              attributes.aiSuggestion ? { 'data-ai-suggestion': String(attributes.aiSuggestion) } : {},
          },
        },
      },
    ];
  },
});

/**
 * Autolink only what looks like a link and passes the whitelist. (Text marked as code is skipped by the
 * Link extension itself; code blocks allow no marks at all.) Mirrors TipTap's default heuristic: a
 * scheme, or a host with a dot that is not a bare IPv4 address.
 */
export function shouldAutoLink(url: string): boolean {
  if (!isSafeHref(url)) return false;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//iu.test(url);
  const hasMaybeScheme = /^[a-z][a-z0-9+.-]*:/iu.test(url);
  if (hasScheme || (hasMaybeScheme && !url.includes('@'))) return true;
  const host = (url.includes('@') ? (url.split('@').pop() ?? '') : url).split(/[/?#:]/u)[0] ?? '';
  if (/^\d{1,3}(\.\d{1,3}){3}$/u.test(host)) return false;
  return host.includes('.');
}

/**
 * Links always render with target _blank and the safe rel, whatever `rel`/`target` a stored mark carries
 * (content from the API or from a collaborator could say rel="opener": reverse tabnabbing).
 */
const SafeLink = LinkMark.extend({
  renderHTML(props) {
    const [tag, attributes, hole] = this.parent!(props) as [string, Record<string, unknown>, 0];
    return [tag, { ...attributes, target: LINK_TARGET, rel: LINK_REL }, hole];
  },
});

export interface EditorExtensionOptions {
  /**
   * ProseMirror undo/redo (depth 100, new group after 500 ms: the library's defaults). Turn it off when the
   * editor is bound to Yjs: the Collaboration extension brings its own undo manager. Default true.
   */
  history?: boolean;
  /** Open links when clicked. Default false (the editor is editable; the UI may enable it read-only). */
  openLinksOnClick?: boolean;
  /**
   * Footnote numbers by reference id, for HTML rendered outside the editor (createRenderExtensions): references
   * and notes then render with their numbers. Leaves the schema as it is.
   */
  footnoteNumbers?: ReadonlyMap<string, number>;
}

/** The doc holds blocks, then at most one list of footnotes, always last. */
const QuillwrightDocument = Document.extend({ content: `block+ ${FOOTNOTES}?` });

export function createEditorExtensions(options: EditorExtensionOptions = {}): AnyExtension[] {
  const { history = true, openLinksOnClick = false, footnoteNumbers } = options;
  return [
    // StarterKit's extensions in its order, without its Link: StarterKit imports TipTap's Link, and with it
    // linkifyjs, even when configured without it.
    Bold,
    Blockquote,
    BulletList,
    Code,
    CodeBlock,
    QuillwrightDocument,
    Dropcursor,
    Gapcursor,
    HardBreak,
    Heading.configure({ levels: [...HEADING_LEVELS] }),
    ...(history
      ? [UndoRedo.configure({ depth: UNDO_HISTORY_DEPTH, newGroupDelay: UNDO_NEW_GROUP_DELAY_MS })]
      : []),
    HorizontalRule,
    Italic,
    ListItem,
    ListKeymap,
    OrderedList,
    Paragraph,
    Strike,
    Text,
    Underline,
    // After the list of footnotes there is no room for a paragraph: the doc ends with it.
    TrailingNode.configure({ notAfter: ['paragraph', FOOTNOTES] }),
    SafeLink.configure({
      openOnClick: openLinksOnClick,
      autolink: true,
      linkOnPaste: true,
      defaultProtocol: DEFAULT_LINK_PROTOCOL,
      HTMLAttributes: { target: LINK_TARGET, rel: LINK_REL },
      isAllowedUri: (url) => isSafeHref(url),
      shouldAutoLink,
    }),
    TextStyle,
    FontFamily,
    FontSize,
    Color,
    AiSuggestionAttribute,
    InsertionMark,
    DeletionMark,
    CommentMark,
    TextAlign.configure({ types: ['heading', 'paragraph'], alignments: [...TEXT_ALIGNMENTS] }),
    Typography,
    TaskList,
    TaskItem.configure({ nested: true }),
    // Colours are limited to HIGHLIGHT_COLORS by the validator; none is the default yellow.
    Highlight.configure({ multicolor: true }),
    Subscript,
    Superscript,
    // Resizing stores each column's width on its cells (colwidth); the plugin is inert where not editable.
    TableKit.configure({ table: { resizable: true, cellMinWidth: MIN_TABLE_COLUMN_WIDTH_PX } }),
    ImageNode,
    FootnoteReferenceNode.configure({ numbers: footnoteNumbers }),
    FootnotesNode,
    FootnoteNode.configure({ numbers: footnoteNumbers }),
  ];
}

/**
 * The extensions for rendering a stored document as HTML outside the editor (exports, the shared and member
 * pages): the same schema, footnote references and notes rendered with their numbers.
 */
export function createRenderExtensions(doc: Parameters<typeof footnoteNumbersOf>[0]): AnyExtension[] {
  return createEditorExtensions({ history: false, footnoteNumbers: footnoteNumbersOf(doc) });
}

let cachedSchema: Schema | undefined;

/**
 * The ProseMirror schema of stored documents (built once). Plugins are irrelevant to it, so history is off.
 */
export function getEditorSchema(): Schema {
  cachedSchema ??= getSchema(createEditorExtensions({ history: false }));
  return cachedSchema;
}
