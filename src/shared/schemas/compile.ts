import { z } from 'zod';
import { MAX_BOOK_CHAPTERS, MAX_BOOK_CONTACT_LENGTH, MAX_BOOK_FIELD_LENGTH } from '../constants';

/**
 * Compiling a book (`POST /api/folders/:id/compile`, `POST /api/documents/:id/compile`, the outline behind
 * them at `GET …/compile`): docs/compile.md.
 */

export const BOOK_FORMATS = ['epub', 'docx', 'pdf'] as const;
export type BookFormat = (typeof BOOK_FORMATS)[number];

/** none · "Chapter 1" · "Chapter One" · "I" */
export const CHAPTER_NUMBERINGS = ['none', 'number', 'words', 'roman'] as const;
export type ChapterNumbering = (typeof CHAPTER_NUMBERINGS)[number];

/** What a horizontal rule becomes: "* * *" · "#" · "❦" */
export const SCENE_BREAKS = ['asterisks', 'hash', 'ornament'] as const;
export type SceneBreak = (typeof SCENE_BREAKS)[number];

export const TRIM_SIZES = ['6x9', '5.5x8.5', 'a5', 'letter', 'a4'] as const;
export type TrimSize = (typeof TRIM_SIZES)[number];

/** "book": a typeset book. "manuscript": standard manuscript format, for agents and editors. */
const BOOK_STYLES = ['book', 'manuscript'] as const;
export type BookStyle = (typeof BOOK_STYLES)[number];

const field = z.string().trim().max(MAX_BOOK_FIELD_LENGTH, `At most ${MAX_BOOK_FIELD_LENGTH} characters`);
const chapterIds = z.array(z.string().max(100)).max(MAX_BOOK_CHAPTERS);

export const bookOptionsSchema = z.object({
  /** Empty: the folder's or the document's name. */
  title: field.optional(),
  author: field.optional(),
  /** A BCP 47 language tag such as en, en-GB, fr, pt-BR. */
  language: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'Use a language tag such as en, en-GB or fr')
    .default('en'),
  /** Empty: a new urn:uuid: identifier each time. */
  identifier: field.optional(),
  copyright: field.optional(),
  /** The manuscript's contact block (name, address, e-mail, phone), one item a line. */
  contact: z.string().trim().max(MAX_BOOK_CONTACT_LENGTH).optional(),
  titlePage: z.boolean().default(true),
  copyrightPage: z.boolean().default(true),
  tableOfContents: z.boolean().default(true),
  chapterNumbering: z.enum(CHAPTER_NUMBERINGS).default('none'),
  sceneBreak: z.enum(SCENE_BREAKS).default('asterisks'),
  /** Chapter ids (from the outline) left out of the book. */
  exclude: chapterIds.default([]),
  /** Folder books: documents placed before the chapters, unnumbered (a foreword, a dedication). */
  frontMatter: chapterIds.default([]),
  /** Folder books: documents placed after the chapters, unnumbered (acknowledgements, about the author). */
  backMatter: chapterIds.default([]),
  trim: z.enum(TRIM_SIZES).default('6x9'),
  style: z.enum(BOOK_STYLES).default('book'),
});
export type BookOptions = z.output<typeof bookOptionsSchema>;
export type BookOptionsInput = z.input<typeof bookOptionsSchema>;

export const compileBodySchema = bookOptionsSchema.extend({ format: z.enum(BOOK_FORMATS) });
export type CompileBody = z.input<typeof compileBodySchema>;

/** GET …/compile: what the book would hold, for the dialog's chapter list. */
export const bookOutlineSchema = z.object({
  title: z.string(),
  chapters: z.array(z.object({ id: z.string(), title: z.string(), words: z.number().int() })),
});
export type BookOutline = z.infer<typeof bookOutlineSchema>;
