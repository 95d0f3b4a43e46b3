/** How the compile worker is budgeted (compile-pool.ts). */

/**
 * One book's time in the worker: a 100,000-word PDF takes about 1 s of CPU, a few seconds on a busy two-core
 * machine (bench:compile); many times that is a runaway.
 */
export const COMPILE_TIME_BUDGET_MS = 120_000;
/** The worker's heap limit: a 100,000-word PDF's layout fits well inside it (bench:compile). */
export const COMPILE_WORKER_HEAP_MB = 1_024;
/** An idle worker ends after this long; the next book starts a new one (about half a second). */
export const COMPILE_WORKER_IDLE_MS = 60_000;
