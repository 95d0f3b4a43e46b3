import type { Db } from '../db/client';

/**
 * The setup code this process printed at start, for the startup summary printed after listening (only the
 * hash is in the database). Keyed by database so test servers in one process keep theirs apart.
 */
const printedCodes = new WeakMap<Db, string>();

export function rememberSetupCode(db: Db, code: string): void {
  printedCodes.set(db, code);
}

export function printedSetupCode(db: Db): string | undefined {
  return printedCodes.get(db);
}
