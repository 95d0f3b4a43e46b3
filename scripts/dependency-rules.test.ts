import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareWithBaseline, findViolations, readBaseline } from './dependency-walls';

/**
 * The walls between features (.dependency-cruiser.cjs) catch what they are meant to catch, and the real tree
 * breaks none of them beyond the known-violations list.
 */

const FIXTURE = path.resolve(import.meta.dirname, 'fixtures/dependency-walls');
const brief = (violations: Awaited<ReturnType<typeof findViolations>>) =>
  violations.map(({ rule, from, to }) => `${rule.name}: ${from} → ${to}`).sort();

describe('walls between features', () => {
  it('reports an import of another feature’s internals and a loop between two features', async () => {
    const violations = await findViolations({ baseDir: FIXTURE, useTsConfig: false });

    // The composition root (routes.tsx) may take tags' page and notes' entry.ts, but not tags' other modules;
    // a feature may not take another's page.
    expect(brief(violations)).toEqual([
      'no-feature-internals-in-app-root: src/client/routes.tsx → src/client/features/tags/label.ts',
      'no-feature-internals: src/client/features/notes/list.ts → src/client/features/tags/label.ts',
      'no-feature-internals: src/client/features/notes/tags-link.ts → src/client/features/tags/TagsPage.tsx',
      'no-feature-internals: src/server/alpha/service.ts → src/server/beta/repository.ts',
      'no-folder-cycles: src/server/alpha → src/server/beta',
      'no-folder-cycles: src/server/beta → src/server/alpha',
    ]);
  }, 120_000);

  it('finds no violation in src beyond the known ones, and every known one is still there', async () => {
    const { added, fixed } = compareWithBaseline(await findViolations(), readBaseline());

    expect(brief(added)).toEqual([]);
    expect(brief(fixed)).toEqual([]);
  }, 120_000);
});
