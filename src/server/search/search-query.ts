import type { ParsedSearchQuery } from '../documents';

const TRAILING_WORD = /[\p{L}\p{N}]+$/u;

/**
 * Splits what a person typed into the part PostgreSQL's web-search syntax reads as it is (quoted phrases,
 * `or`, `-word`) and a last word that is still being typed, which is matched as a prefix ("writ" finds
 * "writing"). No prefix when the query ends with a space or a closing quote, sits inside an open quote,
 * or the last word is an operator (`-word`, `or`).
 */
export function parseSearchQuery(input: string): ParsedSearchQuery {
  const text = input.trim();
  const quotes = (text.match(/"/g) ?? []).length;
  const match = TRAILING_WORD.exec(text);
  if (!match || quotes % 2 === 1 || /\s$/.test(input)) return { phrase: text, prefix: '' };
  const before = text.slice(0, match.index);
  const word = match[0];
  if (before.endsWith('-') || word.toLowerCase() === 'or' || /[\p{L}\p{N}'’.]$/u.test(before)) {
    // `-word` excludes; `or` joins; a word glued to punctuation inside it (e.g. "o'cl") is left whole.
    return { phrase: text, prefix: '' };
  }
  return { phrase: before.trim(), prefix: word.toLowerCase() };
}
