import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A maintainer has neither the product specification nor the issue tracker, so code comments, tests and
 * scripts state the rule itself (or link into docs/, e.g. docs/product-rules.md) instead of citing a
 * specification section or an issue number. This test lists every line that still does.
 */

const ROOT = path.resolve(__dirname, '..');
const SCANNED_FOLDERS = ['src', 'e2e', 'bench', 'scripts'];
const TEXT_EXTENSIONS = new Set([
  '.ts',
  '.tsx',
  '.js',
  '.mjs',
  '.cjs',
  '.css',
  '.html',
  '.sh',
  '.md',
  '.json',
  '.sql',
]);
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '__screenshots__']);
const THIS_FILE = path.relative(ROOT, __filename);

const CITATIONS: { name: string; pattern: RegExp }[] = [
  { name: 'a specification section', pattern: /\bSPEC\b/ },
  { name: 'the specification', pattern: /\bthe spec(ification)?\b(?![.\w])/i },
  { name: 'a section sign with a number', pattern: /§\s*\d/ },
  { name: 'an issue number', pattern: /\bissue\s+#?\d+/i },
];

function* textFiles(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) yield* textFiles(full);
    } else if (TEXT_EXTENSIONS.has(path.extname(entry.name))) {
      yield full;
    }
  }
}

function citingLines(): string[] {
  const found: string[] = [];
  for (const folder of SCANNED_FOLDERS) {
    for (const file of textFiles(path.join(ROOT, folder))) {
      const relative = path.relative(ROOT, file);
      if (relative === THIS_FILE) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          const citation = CITATIONS.find(({ pattern }) => pattern.test(line));
          if (citation) found.push(`${relative}:${index + 1} cites ${citation.name}: ${line.trim()}`);
        });
    }
  }
  return found;
}

describe('source comments state rules instead of citing documents a maintainer does not have', () => {
  it('no line in src/, e2e/, bench/ or scripts/ cites a specification section or an issue number', () => {
    expect(citingLines()).toEqual([]);
  });
});
