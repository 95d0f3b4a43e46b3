import type { GrammarChange } from '../schemas/ai';

/**
 * Harper's lints turned into GrammarChange objects. The server (Node worker thread) and the browser (Web
 * Worker behind the live underlines) both lint with harper.js and convert here, so a correction means the
 * same thing in the Grammar action and in the editor's underlines.
 */

/** The plain-data part of a harper.js `Lint` (a WASM object that cannot cross a worker boundary). */
export interface RawLint {
  start: number;
  end: number;
  message: string;
  kind: string;
  /** SuggestionKind (0 replace, 1 remove, 2 insert after) and text of the first suggestion. */
  suggestion: { kind: number; text: string } | null;
}

/** The methods of harper.js `Lint` read here, typed structurally so shared code does not load harper.js. */
export interface HarperLint {
  span(): { start: number; end: number; free(): void };
  message(): string;
  lint_kind(): string;
  suggestions(): { kind(): unknown; get_replacement_text(): string; free(): void }[];
  free(): void;
}

/** Copies a lint's data out of WebAssembly memory and frees the WASM objects. */
export function rawLint(lint: HarperLint): RawLint {
  const span = lint.span();
  const suggestions = lint.suggestions();
  const first = suggestions[0];
  const raw: RawLint = {
    start: span.start,
    end: span.end,
    message: lint.message(),
    kind: lint.lint_kind(),
    suggestion: first ? { kind: first.kind() as number, text: first.get_replacement_text() } : null,
  };
  span.free();
  for (const suggestion of suggestions) suggestion.free();
  lint.free();
  return raw;
}

/** Harper's spans are JavaScript (UTF-16) string indices, so offsets are used unchanged. */
function toChange(text: string, lint: RawLint): GrammarChange | undefined {
  if (!lint.suggestion) return undefined;
  const original = text.slice(lint.start, lint.end);
  // SuggestionKind: 0 Replace, 1 Remove, 2 InsertAfter.
  const { kind, text: suggested } = lint.suggestion;
  const replacement = kind === 1 ? '' : kind === 2 ? original + suggested : suggested;
  if (replacement === original) return undefined;
  return {
    offset: lint.start,
    length: lint.end - lint.start,
    original,
    replacement,
    message: lint.message,
    kind: lint.kind,
  };
}

/** Each lint's first suggestion as a change, in text order; of overlapping lints the earlier one is kept. */
export function changesFromLints(text: string, lints: RawLint[]): GrammarChange[] {
  return withoutOverlaps(
    lints
      .map((lint) => toChange(text, lint))
      .filter((change): change is GrammarChange => change !== undefined),
  );
}

/** The changes in text order, dropping any that overlaps an earlier one (so all can be applied together). */
export function withoutOverlaps(changes: GrammarChange[]): GrammarChange[] {
  const sorted = [...changes].sort((a, b) => a.offset - b.offset);
  const kept: GrammarChange[] = [];
  let reachedTo = -1;
  for (const change of sorted) {
    if (change.offset < reachedTo) continue;
    kept.push(change);
    reachedTo = change.offset + change.length;
  }
  return kept;
}

/** The text with every change applied (changes in text order, not overlapping). */
export function applyChanges(text: string, changes: GrammarChange[]): string {
  let corrected = text;
  for (const change of [...changes].reverse()) {
    corrected =
      corrected.slice(0, change.offset) + change.replacement + corrected.slice(change.offset + change.length);
  }
  return corrected;
}
