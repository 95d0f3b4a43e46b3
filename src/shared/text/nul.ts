/**
 * U+0000 (NUL) has no place in a writer's text and cannot be stored: PostgreSQL (and PGlite) refuse it in
 * `text` and `jsonb` values. Every write path removes it — the JSON body parser for every request, the
 * content validator for rich text from any source (REST, the collaboration socket, imports) — so a stray
 * NUL from a pasted binary or a hostile client is dropped instead of failing the write.
 */
const NUL = new RegExp(String.fromCharCode(0), 'g');

export const hasNul = (text: string): boolean => text.includes('\u0000');

export const stripNul = (text: string): string => (hasNul(text) ? text.replace(NUL, '') : text);

/**
 * Removes NUL from every string (keys included) of a parsed JSON value, in place where it can. Iterative,
 * so a deeply nested hostile body cannot overflow the stack.
 */
export function stripNulDeep(value: unknown): unknown {
  if (typeof value === 'string') return stripNul(value);
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) {
        const item: unknown = current[i];
        if (typeof item === 'string') current[i] = stripNul(item);
        else if (item !== null && typeof item === 'object') stack.push(item);
      }
    } else if (current !== null && typeof current === 'object') {
      const record = current as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const item = record[key];
        const cleanKey = stripNul(key);
        if (cleanKey !== key) delete record[key];
        if (typeof item === 'string') record[cleanKey] = stripNul(item);
        else {
          if (cleanKey !== key) record[cleanKey] = item;
          if (item !== null && typeof item === 'object') stack.push(item);
        }
      }
    }
  }
  return value;
}
