import { performance } from 'node:perf_hooks';
import type { ChatModel } from '../../src/core/chat/chat-model.js';
import type { CircuitRecord } from '../../src/core/state/route-state-store.js';
import type { RedisRouteStateStore } from '../../src/redis/redis-route-state-store.js';

/** A model that answers at once, so only the routing and the store are measured. */
export const instantModel: ChatModel = {
  chat: () =>
    Promise.resolve({
      aiMessage: { role: 'assistant', text: 'ok' },
      tokenUsage: { inputTokens: 5, outputTokens: 5, totalTokens: 10 },
    }),
};

/** Milliseconds from A's compare-and-set call until B's listener hears of it, sorted. */
export async function propagationDelays(
  a: RedisRouteStateStore,
  b: RedisRouteStateStore,
  changes: number,
): Promise<number[]> {
  const key = 'bench/propagation';
  let waiting: { version: number; resolve: (at: number) => void } | undefined;
  let heard = 0;
  const stopListening = b.onCircuitChange((changed, record) => {
    if (changed !== key) return;
    heard = Math.max(heard, record.version);
    if (waiting && record.version >= waiting.version) waiting.resolve(performance.now());
  });
  const delays: number[] = [];
  for (let i = 0; i < changes; i++) {
    const current = a.getCircuit(key);
    const next: Omit<CircuitRecord, 'version'> = {
      ...current,
      state: current.state === 'open' ? 'closed' : 'open',
      failures: current.failures + 1,
    };
    const sentAt = performance.now();
    const result = await a.compareAndSetCircuit(key, current, next);
    if (!result.ok || !a.isShared()) {
      throw new Error(`the store stopped sharing: ${a.describe().lastError ?? 'conflict'}`);
    }
    const arrivedAt =
      heard >= result.record.version
        ? performance.now()
        : await new Promise<number>((resolve) => {
            waiting = { version: result.record.version, resolve };
          });
    delays.push(arrivedAt - sentAt);
    waiting = undefined;
  }
  stopListening();
  return delays.toSorted((x, y) => x - y);
}
