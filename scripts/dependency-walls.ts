import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cruise, type ICruiseOptions, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

/**
 * Checks the walls between features (.dependency-cruiser.cjs) against the known-violations list.
 *
 *   node scripts/dependency-walls.ts            fails on a violation missing from the list, or a listed one
 *                                               that is gone (so the list only ever shrinks)
 *   node scripts/dependency-walls.ts --shrink   drops fixed violations from the list, adds none
 *
 * Two cruises: the import rules see all code, tests included; loops between folders are judged on production
 * code only. The wrapper exists because dependency-cruiser's own --ignore-known leaves folder-level
 * violations (the loops) unsoftened; here every kind is compared the same way, by rule, from and to.
 */

const ROOT = path.resolve(import.meta.dirname, '..');
export const CONFIG_FILE = path.join(ROOT, '.dependency-cruiser.cjs');
export const BASELINE_FILE = path.join(ROOT, '.dependency-cruiser-known-violations.json');

interface WallsOptions {
  /** Folder the rules' paths are relative to (the repository root, or a fixture tree in tests). */
  baseDir?: string;
  /** Resolve `@shared/*`-style imports through tsconfig.json (off for fixture trees). */
  useTsConfig?: boolean;
}

async function cruiseOnce(
  options: ICruiseOptions,
  baseDir: string,
  useTsConfig: boolean,
): Promise<IViolation[]> {
  const tsConfigFile = path.join(baseDir, 'tsconfig.json');
  const tsConfig = useTsConfig ? extractTSConfig(tsConfigFile) : undefined;
  const resolved = { ...options, tsConfig: useTsConfig ? { fileName: tsConfigFile } : undefined };
  const { output } = await cruise(['src'], { ...resolved, baseDir, outputType: 'json' }, {}, { tsConfig });
  const result = (typeof output === 'string' ? JSON.parse(output) : output) as ICruiseResult;
  return result.summary.violations;
}

/** Every violation of the walls in `<baseDir>/src`, import rules and folder loops together. */
export async function findViolations({ baseDir = ROOT, useTsConfig = true }: WallsOptions = {}) {
  const options = await extractDepcruiseOptions(CONFIG_FILE);
  const rules = options.ruleSet?.forbidden ?? [];
  const folderRules = rules.filter((rule) => 'scope' in rule && rule.scope === 'folder');
  const moduleRules = rules.filter((rule) => !folderRules.includes(rule));
  const testCode = rules.find((rule) => rule.name === 'no-feature-internals')?.from;
  const exclude = [options.exclude ?? []]
    .flat()
    .flatMap((entry) => (typeof entry === 'string' ? [entry] : []));
  if (!testCode || !('pathNot' in testCode) || !testCode.pathNot) {
    throw new Error('no-feature-internals must name test code in from.pathNot');
  }

  const imports = await cruiseOnce(
    { ...options, ruleSet: { ...options.ruleSet, forbidden: moduleRules } },
    baseDir,
    useTsConfig,
  );
  const loops = await cruiseOnce(
    {
      ...options,
      exclude: { path: [...exclude, ...[testCode.pathNot].flat()] },
      ruleSet: { ...options.ruleSet, forbidden: folderRules },
    },
    baseDir,
    useTsConfig,
  );
  return [...imports, ...loops].filter((violation) => violation.rule.severity !== 'ignore');
}

const key = (violation: IViolation) => `${violation.rule.name} ${violation.from} → ${violation.to}`;

/** Splits current violations into known and new, and finds listed ones that are gone. */
export function compareWithBaseline(violations: IViolation[], known: IViolation[]) {
  const knownKeys = new Set(known.map(key));
  const currentKeys = new Set(violations.map(key));
  return {
    added: violations.filter((violation) => !knownKeys.has(key(violation))),
    stillThere: violations.filter((violation) => knownKeys.has(key(violation))),
    fixed: known.filter((violation) => !currentKeys.has(key(violation))),
  };
}

export function readBaseline(file = BASELINE_FILE): IViolation[] {
  return JSON.parse(readFileSync(file, 'utf8')) as IViolation[];
}

/** Writes the list in dependency-cruiser's known-violations format, without the details that change for no reason. */
export function writeBaseline(violations: IViolation[], file = BASELINE_FILE) {
  const entries = violations.map(({ type, from, to, rule, cycle }) => ({
    type,
    from,
    to,
    rule,
    ...(cycle ? { cycle } : {}),
  }));
  writeFileSync(file, `${JSON.stringify(entries, null, 2)}\n`);
}

function describe(violation: IViolation): string {
  const cycle = violation.cycle?.length
    ? `\n      loop: ${[violation.from, ...violation.cycle.map(({ name }) => name)].join(' → ')}`
    : '';
  return `  ${violation.rule.name}: ${violation.from} → ${violation.to}${cycle}`;
}

async function main() {
  const violations = await findViolations();
  const { added, stillThere, fixed } = compareWithBaseline(violations, readBaseline());

  if (process.argv.includes('--shrink')) {
    writeBaseline(stillThere);
    console.log(`Known violations: ${stillThere.length} (${fixed.length} fixed, removed from the list).`);
    return;
  }

  if (added.length > 0) {
    console.error(
      `${added.length} new violation(s) of the walls between features (see docs/architecture.md):`,
    );
    for (const violation of added) console.error(describe(violation));
  }
  if (fixed.length > 0) {
    console.error(
      `${fixed.length} known violation(s) fixed: run \`npm run deps:baseline\` to drop them from the list:`,
    );
    for (const violation of fixed) console.error(describe(violation));
  }
  if (added.length > 0 || fixed.length > 0) {
    process.exitCode = 1;
    return;
  }
  console.log(`Walls between features hold (${stillThere.length} known violations left).`);
}

if (import.meta.filename === process.argv[1]) await main();
