import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection without starting node with --expose-gc: the flag can still be set at
 * run time, and a new context then sees `gc`.
 */
const collect: () => void =
  (globalThis as { gc?: () => void }).gc ??
  (() => {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  })();

export interface MemorySnapshot {
  heapUsed: number;
  rss: number;
}

/** Memory after a full garbage collection (twice: weak references, then what finalizers freed). */
export async function memoryAfterGc(): Promise<MemorySnapshot> {
  collect();
  await new Promise((resolve) => setImmediate(resolve));
  collect();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
}

/**
 * Memory once the process is idle and has settled: right after a load, sockets are still closing,
 * timers of aborted calls are pending and V8 has not yet given pages back, which a single
 * snapshot would count. Snapshots a second apart until two agree within 1 % (at most `tries`).
 */
export async function settledMemory(tries = 8): Promise<MemorySnapshot> {
  let previous = await memoryAfterGc();
  for (let i = 0; i < tries; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const current = await memoryAfterGc();
    if (close(current.heapUsed, previous.heapUsed) && close(current.rss, previous.rss)) {
      return current;
    }
    previous = current;
  }
  return previous;
}

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 0.01 * b;
}

export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
