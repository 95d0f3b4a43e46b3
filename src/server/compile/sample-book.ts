import type { RichTextNode } from '../../shared/schemas/richText';

/**
 * A book made up for tests and bench:compile: `chapters` chapters of about `words` words in all, paragraphs
 * of some sixty words with italics and bold, a scene break in each chapter, and hostile text in the first.
 */

const WORDS =
  'the river ran slow and brown past the mill where Ada kept her ledgers and counted the days until spring came back over the hills with rain'.split(
    ' ',
  );

function paragraph(seed: number, length: number): RichTextNode {
  const words = Array.from({ length }, (_, i) => WORDS[(seed * 7 + i * 3) % WORDS.length]!);
  const text = words.join(' ');
  const cut = Math.floor(text.length / 3);
  return {
    type: 'paragraph',
    content: [
      { type: 'text', text: text.slice(0, cut) },
      { type: 'text', text: text.slice(cut, cut + 20), marks: [{ type: 'italic' }] },
      { type: 'text', text: `${text.slice(cut + 20)}.` },
    ],
  };
}

function sampleChapterBlocks(words: number, seed = 0, image?: string): RichTextNode[] {
  const blocks: RichTextNode[] = [];
  let written = 0;
  let index = 0;
  while (written < words) {
    const length = Math.min(60, words - written);
    blocks.push(paragraph(seed + index, length));
    written += length;
    index += 1;
    if (index % 25 === 0 && written < words) blocks.push({ type: 'horizontalRule' });
    if (image && index === 3) blocks.push({ type: 'image', attrs: { src: image, alt: 'A map', width: 75 } });
  }
  return blocks;
}

export interface SampleDocument {
  title: string;
  content: { type: 'doc'; content: RichTextNode[] };
}

/** One document per chapter (a folder book). `images[i]` is put into chapter i when given. */
function sampleChapters(totalWords: number, chapters: number, images: string[] = []): SampleDocument[] {
  const per = Math.round(totalWords / chapters);
  return Array.from({ length: chapters }, (_, i) => ({
    title: `Chapter title ${i + 1}`,
    content: { type: 'doc', content: sampleChapterBlocks(per, i * 13, images[i]) },
  }));
}

/** The same book as one document: each chapter under a level-1 heading. */
export function sampleBookDocument(totalWords: number, chapters: number, images: string[] = []) {
  return {
    type: 'doc' as const,
    content: sampleChapters(totalWords, chapters, images).flatMap((chapter) => [
      { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: chapter.title }] },
      ...chapter.content.content,
    ]),
  };
}
