import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';

/**
 * The outside checkers the compile tests run: W3C EPUBCheck and poppler's pdftotext/pdfinfo (Debian's
 * epubcheck and poppler-utils; scripts/ensure-book-tools.sh installs them). Missing tools fail the tests
 * that need them, naming what to install.
 */

const run = promisify(execFile);
const EPUBCHECK_JAR = process.env.EPUBCHECK_JAR ?? '/usr/share/java/epubcheck.jar';

function need(path: string, what: string): void {
  if (!existsSync(path)) throw new Error(`${what} is missing at ${path}: run scripts/ensure-book-tools.sh`);
}

/** EPUBCheck's summary line counts: fatals, errors, warnings, and its whole report. */
export async function epubcheck(file: string) {
  need(EPUBCHECK_JAR, 'EPUBCheck (Debian package epubcheck)');
  const result = await run('java', ['-jar', EPUBCHECK_JAR, file], { maxBuffer: 8 * 1024 * 1024 }).catch(
    (error: { stdout?: string; stderr?: string }) => ({
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
  const report = `${result.stdout}\n${result.stderr}`;
  const counts = /Messages: (\d+) fatals? \/ (\d+) errors? \/ (\d+) warnings?/.exec(report);
  if (!counts) throw new Error(`EPUBCheck gave no summary:\n${report}`);
  return { fatals: Number(counts[1]), errors: Number(counts[2]), warnings: Number(counts[3]), report };
}

export async function pdfText(file: string): Promise<string> {
  need('/usr/bin/pdftotext', 'pdftotext (Debian package poppler-utils)');
  return (await run('pdftotext', [file, '-'], { maxBuffer: 64 * 1024 * 1024 })).stdout;
}

/** pdfinfo's fields (Pages, Page size, Title…). */
export async function pdfInfo(file: string): Promise<Record<string, string>> {
  need('/usr/bin/pdfinfo', 'pdfinfo (Debian package poppler-utils)');
  const { stdout } = await run('pdfinfo', [file]);
  return Object.fromEntries(
    stdout
      .split('\n')
      .map((line) => /^([^:]+):\s*(.*)$/.exec(line))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => [match[1]!, match[2]!]),
  );
}
