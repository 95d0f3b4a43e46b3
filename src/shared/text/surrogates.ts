/**
 * A lone UTF-16 surrogate (one half of a pair, such as "\udfff") is not a character: it has no UTF-8 form, and
 * PostgreSQL (and PGlite) refuse it in `jsonb`. JSON can carry one only as an escape (`"\udfff"`); raw UTF-8
 * bytes cannot encode it. REST bodies with one are refused (the JSON body parser), the content validator
 * refuses it in rich text or, in repair mode (live content, exports), replaces it with U+FFFD.
 */

/** In a `u` regular expression a surrogate pair is one code point, so only lone halves match. */
const LONE_SURROGATE = /\p{Surrogate}/u;
const LONE_SURROGATES = /\p{Surrogate}/gu;
/** A JSON escape of a surrogate (\uD800–\uDFFF): only a body containing one can hold a lone surrogate. */
const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;

const REPLACEMENT_CHARACTER = '\uFFFD';

export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);

export const replaceLoneSurrogates = (text: string): string =>
  hasLoneSurrogate(text) ? text.replace(LONE_SURROGATES, REPLACEMENT_CHARACTER) : text;

/** Whether JSON text may hold a lone surrogate (cheap test before parsing it; false positives are fine). */
export const mayHoldLoneSurrogate = (jsonText: string): boolean => ESCAPED_SURROGATE.test(jsonText);

/**
 * Where the first lone surrogate in a parsed JSON value is (a path such as `content.content.0.text`, `` for
 * the value itself), or undefined when there is none. Keys count too. Iterative, so a deeply nested hostile
 * body cannot overflow the stack.
 */
export function findLoneSurrogate(value: unknown): string | undefined {
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (hasLoneSurrogate(current)) return path;
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: join(path, i) });
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        if (hasLoneSurrogate(key)) return path;
        stack.push({ value: item, path: join(path, key.slice(0, 64)) });
      }
    }
  }
  return undefined;
}
