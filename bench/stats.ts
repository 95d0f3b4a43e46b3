import { performance } from 'node:perf_hooks';

/** Small statistics shared by the database benchmarks. */
export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
export const median = (values: number[]): number => percentile(values, 50);
export const ms = (value: number): string => `${value.toFixed(1)} ms`;

export async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}
