import type { Logger } from 'pino';
import { Worker } from 'node:worker_threads';

/**
 * The hard deadline of a shutdown. Stopping can stall: a client that never finishes sending its request holds
 * the HTTP server open, a database that lost its files can hang, and the embedded database runs in this thread,
 * so a stall inside it blocks every timer of this thread too. Two clocks therefore watch the deadline:
 * - a timer in this thread: at the deadline it logs what was still pending and exits with code 1;
 * - a watchdog in a worker thread, which keeps running when this thread is blocked: a moment later, if the
 *   process is still there, it writes the same report to stderr and kills the process (SIGKILL), the one way a
 *   worker can end a process whose main thread does not answer.
 * Either way the process ends non-zero, so the supervisor (systemd, Docker, Kubernetes) records a failed stop.
 */

/** How long the watchdog gives the main thread's own timer before it ends the process itself. */
export const WATCHDOG_GRACE_MS = 1_000;

/** What is still in progress, in words, for the report: "finishing HTTP requests (1 connection open)". */
export type PendingReport = () => string[];

// Plain CommonJS run by `new Worker(…, { eval: true })`, so the bundled server needs no extra file.
const WATCHDOG_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
let pending = workerData.pending;
parentPort.on('message', (update) => { pending = update; });
setTimeout(() => {
  const message = 'Stopping took longer than ' + workerData.seconds + ' s and the server is not responding; killing it';
  const line = workerData.json
    ? JSON.stringify({ level: 60, time: Date.now(), pid: process.pid, pending, msg: message })
    : message + '. Still pending: ' + (pending.join('; ') || 'nothing known');
  try { writeSync(2, line + '\\n'); } catch {}
  process.kill(process.pid, 'SIGKILL');
}, Math.max(0, workerData.at - Date.now()));
`;

export interface ShutdownDeadline {
  /** Sends the current pending list to the watchdog (call after each step starts). */
  update(): void;
}

/** Starts both clocks; call when stopping begins. Nothing here keeps the process alive. */
export function startShutdownDeadline(options: {
  timeoutMs: number;
  log: Logger;
  json: boolean;
  pending: PendingReport;
}): ShutdownDeadline {
  const { timeoutMs, log, json, pending } = options;
  const seconds = timeoutMs / 1000;
  const timer = setTimeout(() => {
    log.fatal(
      { pending: pending() },
      `Stopping took longer than ${seconds} s; exiting with code 1 (still pending: see "pending")`,
    );
    process.exit(1);
  }, timeoutMs);
  timer.unref();
  const watchdog = new Worker(WATCHDOG_SOURCE, {
    eval: true,
    // An instant, not a delay: the worker may take a moment to start on a loaded machine.
    workerData: { at: Date.now() + timeoutMs + WATCHDOG_GRACE_MS, seconds, json, pending: pending() },
    // The watchdog writes with writeSync; it needs none of the parent's streams.
    stdout: true,
    stderr: true,
  });
  watchdog.unref();
  return {
    update: () => watchdog.postMessage(pending()),
  };
}
