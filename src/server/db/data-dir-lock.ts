import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite lets only one process use a data directory and does not lock it itself. We keep a lock file
 * holding our pid, created with O_EXCL. A lock left by a process that no longer runs (SIGKILL, power
 * loss) is stale and taken over, so a crashed server restarts without manual clean-up.
 */
const lockedError = (pid: number, dataDir: string) =>
  new DataDirLockedError(
    `Another Quillwright server (pid ${pid}) is using the data directory ${dataDir}. ` +
      'Stop it first, or set DATA_DIR to another directory (or DATABASE_URL to use PostgreSQL).',
  );

const heldByThisProcess = new Set<string>();

export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'quillwright.lock');
  if (heldByThisProcess.has(lockFile)) {
    throw lockedError(process.pid, dataDir);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldByThisProcess.add(lockFile);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        heldByThisProcess.delete(lockFile);
        rmSync(lockFile, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(lockFile, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw lockedError(holder, dataDir);
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dataDir}`);
}
