import type { BookMeta } from './book';

/** Standard manuscript format's shared rules (the Word and PDF manuscripts both follow them). */

/** "About 85,000 words": novels round to the nearest thousand, short works to the nearest hundred. */
export function roundedWordCount(words: number): string {
  const step = words < 10_000 ? 100 : 1_000;
  const rounded = Math.max(step, Math.round(words / step) * step);
  return `about ${rounded.toLocaleString('en-US')} words`;
}

/** The running header's "Surname / TITLE / " (the page number follows). */
export function manuscriptHeader(meta: BookMeta): string {
  const surname = meta.author.split(/\s+/).filter(Boolean).at(-1) ?? '';
  const title = meta.title.toUpperCase();
  return surname ? `${surname} / ${title} / ` : `${title} / `;
}

/** The title page's top-left block: the author's name, then the contact lines. */
export function contactLines(meta: BookMeta): string[] {
  const lines = meta.contact ? meta.contact.split('\n') : [];
  return meta.author && lines[0] !== meta.author ? [meta.author, ...lines] : lines;
}
