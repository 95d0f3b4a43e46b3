import { randomUUID } from 'node:crypto';
import { countWords } from '../../shared/analysis/text';
import { FOOTNOTE_REFERENCE, FOOTNOTES, footnoteNumbersOf } from '../../shared/editor/footnotes';
import { repairRichText } from '../../shared/editor/validate';
import { titleAsPlainLine } from '../../shared/export/title';
import type { BookOptions, BookOutline, ChapterNumbering } from '../../shared/schemas/compile';
import type { RichTextNode } from '../../shared/schemas/richText';
import { rejectAllSuggestions } from '../../shared/suggestions/resolve';
import { xmlSafe } from './xml';

/**
 * A book as the renderers see it: resolved options and chapters in reading order, each a run of the editor's
 * block nodes. Built from one document (its level-1 headings open chapters) or a folder (one chapter per
 * document, in folder order). Pending tracked changes are left out: a book shows the text as it stands.
 */

type ChapterRole = 'front' | 'chapter' | 'back';

/** A footnote of a chapter: numbered from 1 in each chapter, in the order its references are read. */
interface ChapterNote {
  /** The reference's id (`footnoteReference` `id`): unique within the chapter. */
  id: string;
  number: number;
  blocks: RichTextNode[];
}

export interface Chapter {
  id: string;
  role: ChapterRole;
  title: string;
  /** "Chapter One", "IV"… for numbered chapters; empty otherwise. */
  label: string;
  /** The chapter's text; its footnote references point into `notes`. */
  blocks: RichTextNode[];
  notes: ChapterNote[];
}

/** A chapter's note numbers by reference id, for the renderers. */
export function noteNumbers(chapter: Chapter): Map<string, number> {
  return new Map(chapter.notes.map((note) => [note.id, note.number]));
}

export interface BookMeta {
  title: string;
  author: string;
  language: string;
  identifier: string;
  copyright: string;
  contact: string;
}

export interface Book {
  meta: BookMeta;
  options: BookOptions;
  chapters: Chapter[];
  /** Words in the chapters (the manuscript's title page rounds it). */
  words: number;
}

/** Where a book's text comes from: one document, or a folder's documents in order. */
export type BookSource =
  | { kind: 'document'; title: string; content: unknown }
  | { kind: 'folder'; title: string; documents: { id: string; title: string; content: unknown }[] };

/** The intro of a one-document book: the text before its first level-1 heading. */
const INTRO_ID = 'intro';
const INTRO_TITLE = 'Introduction';

/** Inline text of a node, as plain text (hard breaks as spaces). */
function inlineText(node: RichTextNode): string {
  if (node.type === 'text') return node.text ?? '';
  if (node.type === 'hardBreak') return ' ';
  return (node.content ?? []).map(inlineText).join('');
}

function blocksText(blocks: RichTextNode[]): string {
  const parts: string[] = [];
  const walk = (node: RichTextNode) => {
    if (node.type === 'text') parts.push(node.text ?? '');
    // A note's number is not a word, nor does it part the words around it.
    else if (node.type !== FOOTNOTE_REFERENCE) {
      for (const child of node.content ?? []) walk(child);
      parts.push(' ');
    }
  };
  for (const block of blocks) walk(block);
  return parts.join('');
}

/**
 * Text and attributes (alt text) lose what XML cannot hold, so the Word file (whose writer keeps such
 * characters) stays valid.
 */
function cleanNodes(nodes: RichTextNode[] | undefined): RichTextNode[] | undefined {
  return nodes?.map((node) => ({
    ...node,
    ...(node.text !== undefined ? { text: xmlSafe(node.text) } : {}),
    ...(node.attrs
      ? {
          attrs: Object.fromEntries(
            Object.entries(node.attrs).map(([key, value]) => [
              key,
              typeof value === 'string' ? xmlSafe(value) : value,
            ]),
          ),
        }
      : {}),
    ...(node.content ? { content: cleanNodes(node.content) } : {}),
  }));
}

/** A document's blocks without its notes list, and its notes' paragraphs by reference id. */
interface SourceText {
  blocks: RichTextNode[];
  notes: Map<string, RichTextNode[]>;
}

function contentOf(stored: unknown): SourceText {
  const nodes = cleanNodes(rejectAllSuggestions(repairRichText(stored).doc).content) ?? [];
  const notes = new Map<string, RichTextNode[]>();
  for (const list of nodes.filter((node) => node.type === FOOTNOTES))
    for (const note of list.content ?? [])
      if (typeof note.attrs?.id === 'string') notes.set(note.attrs.id, note.content ?? []);
  return { blocks: nodes.filter((node) => node.type !== FOOTNOTES), notes };
}

/**
 * The notes of a run of blocks, numbered from 1 in reading order (a reference inside a list or table counts
 * where it is read), as the editor numbers a document's notes.
 */
function notesOf(blocks: RichTextNode[], notes: Map<string, RichTextNode[]>): ChapterNote[] {
  return [...footnoteNumbersOf({ content: blocks })].map(([id, number]) => ({
    id,
    number,
    blocks: notes.get(id) ?? [],
  }));
}

/** A title or field as one line of text any format can hold. */
const plainLine = (text: string) => xmlSafe(titleAsPlainLine(text));

interface RawChapter {
  id: string;
  title: string;
  blocks: RichTextNode[];
  notes: ChapterNote[];
}

/** One document split at its level-1 headings; text before the first one is the intro. */
function documentChapters(title: string, content: unknown): RawChapter[] {
  const chapters: RawChapter[] = [];
  let current: RawChapter = { id: INTRO_ID, title: INTRO_TITLE, blocks: [], notes: [] };
  let index = 0;
  const text = contentOf(content);
  for (const node of text.blocks) {
    if (node.type === 'heading' && Number(node.attrs?.level) === 1) {
      if (
        current.id !== INTRO_ID ||
        current.blocks.some((block) => inlineText(block).trim() || isMedia(block))
      )
        chapters.push(current);
      index += 1;
      current = {
        id: `h${index}`,
        title: inlineText(node).trim() || `Chapter ${index}`,
        blocks: [],
        notes: [],
      };
    } else {
      current.blocks.push(node);
    }
  }
  chapters.push(current);
  // A document without level-1 headings is one chapter, named after the document.
  if (chapters.length === 1 && chapters[0]!.id === INTRO_ID) chapters[0]!.title = title;
  for (const chapter of chapters) chapter.notes = notesOf(chapter.blocks, text.notes);
  return chapters;
}

function isMedia(node: RichTextNode): boolean {
  return node.type === 'image' || node.type === 'table' || node.type === 'horizontalRule';
}

/** A folder's documents are chapters: their own level-1 headings become sub-headings one level down. */
function demoteHeadings(blocks: RichTextNode[]): RichTextNode[] {
  return blocks.map((node) =>
    node.type === 'heading'
      ? { ...node, attrs: { ...node.attrs, level: Math.min(3, Number(node.attrs?.level ?? 1) + 1) } }
      : node,
  );
}

function rawChapters(source: BookSource): RawChapter[] {
  if (source.kind === 'document') return documentChapters(source.title, source.content);
  return source.documents.map((document) => {
    const text = contentOf(document.content);
    return {
      id: document.id,
      title: plainLine(document.title) || 'Untitled',
      blocks: demoteHeadings(text.blocks),
      notes: notesOf(text.blocks, text.notes),
    };
  });
}

/** A chapter's words, its notes' included (as the editor counts them). */
const chapterWords = (chapter: RawChapter) =>
  countWords(blocksText([...chapter.blocks, ...chapter.notes.flatMap((note) => note.blocks)]));

/** The dialog's chapter list: every chapter the source holds, with its words. */
export function bookOutline(source: BookSource): BookOutline {
  return {
    title: plainLine(source.title),
    chapters: rawChapters(source).map((chapter) => ({
      id: chapter.id,
      title: chapter.title,
      words: chapterWords(chapter),
    })),
  };
}

const ONES = [
  '',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];

/** 1 → "One", 42 → "Forty-Two", 101 → "One Hundred One" (chapters stay well below a thousand). */
function numberInWords(n: number): string {
  if (n < 20) return ONES[n]!;
  if (n < 100) return TENS[Math.floor(n / 10)]! + (n % 10 ? `-${ONES[n % 10]}` : '');
  const rest = n % 100;
  return `${ONES[Math.floor(n / 100)]} Hundred${rest ? ` ${numberInWords(rest)}` : ''}`;
}

function romanNumeral(n: number): string {
  const table: [number, string][] = [
    [1000, 'M'],
    [900, 'CM'],
    [500, 'D'],
    [400, 'CD'],
    [100, 'C'],
    [90, 'XC'],
    [50, 'L'],
    [40, 'XL'],
    [10, 'X'],
    [9, 'IX'],
    [5, 'V'],
    [4, 'IV'],
    [1, 'I'],
  ];
  let out = '';
  for (const [value, letters] of table) {
    while (n >= value) {
      out += letters;
      n -= value;
    }
  }
  return out;
}

function chapterLabel(style: ChapterNumbering, n: number): string {
  switch (style) {
    case 'none':
      return '';
    case 'number':
      return `Chapter ${n}`;
    case 'words':
      return `Chapter ${numberInWords(n)}`;
    case 'roman':
      return romanNumeral(n);
  }
}

/** The book to render: chapters chosen, ordered (front matter, chapters, back matter) and numbered. */
export function assembleBook(source: BookSource, options: BookOptions, author: string): Book {
  const excluded = new Set(options.exclude);
  const front = new Set(options.frontMatter);
  const back = new Set(options.backMatter);
  const chosen = rawChapters(source).filter((chapter) => !excluded.has(chapter.id));
  const roleOf = (chapter: RawChapter): ChapterRole =>
    front.has(chapter.id) || (source.kind === 'document' && chapter.id === INTRO_ID)
      ? 'front'
      : back.has(chapter.id)
        ? 'back'
        : 'chapter';
  const ordered = [
    ...chosen.filter((chapter) => roleOf(chapter) === 'front'),
    ...chosen.filter((chapter) => roleOf(chapter) === 'chapter'),
    ...chosen.filter((chapter) => roleOf(chapter) === 'back'),
  ];
  let number = 0;
  const chapters = ordered.map((chapter): Chapter => {
    const role = roleOf(chapter);
    const label = role === 'chapter' ? chapterLabel(options.chapterNumbering, ++number) : '';
    return { ...chapter, role, label };
  });
  // A one-document book without any level-1 heading is a single chapter, whatever its role says.
  if (source.kind === 'document' && chapters.length === 1 && chapters[0]!.id === INTRO_ID) {
    chapters[0]!.role = 'chapter';
    chapters[0]!.label = chapterLabel(options.chapterNumbering, 1);
  }
  const words = chapters.reduce((sum, chapter) => sum + chapterWords(chapter), 0);
  const title = plainLine(options.title || source.title) || 'Untitled';
  return {
    meta: {
      title,
      author: plainLine(options.author ?? author),
      language: options.language,
      identifier: plainLine(options.identifier ?? '') || `urn:uuid:${randomUUID()}`,
      copyright: plainLine(options.copyright ?? ''),
      contact: (options.contact ?? '').split(/\r?\n/).map(plainLine).filter(Boolean).join('\n'),
    },
    options,
    chapters,
    words,
  };
}

/** The scene break's text in every format. */
export const SCENE_BREAK_TEXT = { asterisks: '* * *', hash: '#', ornament: '❦' } as const;
