/** Word-level diff (longest common subsequence over words and the spaces between them). */
export interface DiffPart {
  type: 'same' | 'added' | 'removed';
  text: string;
}

function tokenize(text: string): string[] {
  return text.match(/\s+|[^\s]+/g) ?? [];
}

/** Above this many token pairs the table would be too big: fall back to "all removed, all added". */
const MAX_CELLS = 250_000;

export function wordDiff(before: string, after: string): DiffPart[] {
  const a = tokenize(before);
  const b = tokenize(after);
  if (a.length * b.length > MAX_CELLS) {
    return [
      ...(before ? [{ type: 'removed' as const, text: before }] : []),
      ...(after ? [{ type: 'added' as const, text: after }] : []),
    ];
  }
  // lcs[i][j] = LCS length of a[i..] and b[j..]
  const lcs: Uint32Array[] = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const parts: DiffPart[] = [];
  const push = (type: DiffPart['type'], text: string) => {
    const last = parts.at(-1);
    if (last && last.type === type) last.text += text;
    else parts.push({ type, text });
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push('same', a[i]!);
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) {
      push('removed', a[i++]!);
    } else {
      push('added', b[j++]!);
    }
  }
  while (i < a.length) push('removed', a[i++]!);
  while (j < b.length) push('added', b[j++]!);
  return groupChanges(parts);
}

/**
 * Reads better: a lone space kept between two changes belongs to the change, and each run of changes shows
 * everything removed, then everything added ("old words" → "new words", not interleaved word by word).
 */
function groupChanges(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  let removed = '';
  let added = '';
  const flush = () => {
    if (removed) out.push({ type: 'removed', text: removed });
    if (added) out.push({ type: 'added', text: added });
    removed = '';
    added = '';
  };
  parts.forEach((part, index) => {
    const inChange = removed !== '' || added !== '';
    const next = parts[index + 1];
    if (part.type === 'same' && inChange && next && next.type !== 'same' && /^\s+$/.test(part.text)) {
      removed += part.text;
      added += part.text;
    } else if (part.type === 'removed') removed += part.text;
    else if (part.type === 'added') added += part.text;
    else {
      flush();
      out.push({ ...part });
    }
  });
  flush();
  return out;
}
