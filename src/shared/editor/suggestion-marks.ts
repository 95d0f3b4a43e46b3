import { Mark, mergeAttributes, type Attributes } from '@tiptap/core';

/**
 * Tracked changes: text proposed by an AI answer or by a person in Suggesting mode carries an `insertion`
 * mark; text proposed for removal stays in the document with a `deletion` mark until someone accepts or
 * rejects the change. Both marks are part of the document schema (stored content, REST `content`, the
 * collaboration socket), so every collaborator sees the same pending suggestions.
 *
 * Attributes (snake_case, as they travel in the API):
 * - `id`: the suggestion group (one per AI call or per typing burst in Suggesting mode);
 * - `author_id`, `author_name`: who proposed it (the author's colour is derived from `author_id`);
 * - `source`: 'ai' or 'user';
 * - `created_at`: ISO 8601 time the change was proposed.
 */

export type SuggestionMarkName = 'insertion' | 'deletion';
export const SUGGESTION_SOURCES = ['ai', 'user'] as const;
type SuggestionSource = (typeof SUGGESTION_SOURCES)[number];

export interface SuggestionAttributes {
  id: string;
  author_id: string;
  author_name: string;
  source: SuggestionSource;
  created_at: string;
}

function dataAttribute(attribute: string, dataName: string): Attributes[string] {
  return {
    default: null,
    parseHTML: (element: HTMLElement) => element.getAttribute(dataName),
    renderHTML: (attributes: Record<string, unknown>) => {
      const value = attributes[attribute];
      return value === null || value === undefined ? {} : { [dataName]: String(value) };
    },
  };
}

function suggestionAttributes(): Attributes {
  return {
    id: dataAttribute('id', 'data-suggestion-id'),
    author_id: dataAttribute('author_id', 'data-author-id'),
    author_name: dataAttribute('author_name', 'data-author-name'),
    source: dataAttribute('source', 'data-source'),
    created_at: dataAttribute('created_at', 'data-created-at'),
  };
}

/** A stable hue (0–359) for an author, so each person's suggestions keep their colour on every screen. */
function suggestionHue(authorId: string | null | undefined): number {
  let hash = 0;
  for (const character of authorId ?? '') hash = (hash * 31 + character.charCodeAt(0)) | 0;
  return Math.abs(hash) % 360;
}

function renderSuggestion(tag: 'ins' | 'del', HTMLAttributes: Record<string, unknown>) {
  const hue = suggestionHue(HTMLAttributes['data-author-id'] as string | undefined);
  return [
    tag,
    mergeAttributes(
      {
        class: `tracked-change tracked-${tag === 'ins' ? 'insertion' : 'deletion'}`,
        style: `--suggestion-hue: ${hue}`,
      },
      HTMLAttributes,
    ),
    0,
  ] as const;
}

export const InsertionMark = Mark.create({
  name: 'insertion',
  // Text typed right after a pending insertion is not part of it unless Suggesting mode marks it.
  inclusive: false,
  excludes: 'insertion deletion',
  addAttributes: suggestionAttributes,
  parseHTML: () => [{ tag: 'ins' }],
  renderHTML: ({ HTMLAttributes }) => renderSuggestion('ins', HTMLAttributes),
});

export const DeletionMark = Mark.create({
  name: 'deletion',
  inclusive: false,
  excludes: 'insertion deletion',
  addAttributes: suggestionAttributes,
  parseHTML: () => [{ tag: 'del' }],
  renderHTML: ({ HTMLAttributes }) => renderSuggestion('del', HTMLAttributes),
});
