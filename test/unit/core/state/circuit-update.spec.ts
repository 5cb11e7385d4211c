import { describe, expect, it } from '@jest/globals';
import { updateCircuit } from '../../../../src/core/circuit/circuit-update.js';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';
import { chain, isPromiseLike, attempt } from '../../../../src/core/state/maybe-async.js';
import {
  CLOSED_CIRCUIT,
  type CircuitRecord,
  type RouteStateStore,
} from '../../../../src/core/state/route-state-store.js';

const addFailure = (record: CircuitRecord) => ({
  ...record,
  failures: record.failures + 1,
});

const claim = (record: CircuitRecord) =>
  record.probes === 0 ? { ...record, state: 'half-open' as const, probes: 1 } : undefined;

/** Only the async compare-and-set of a store, like a remote one. */
function remoteLike(inner: InMemoryRouteStateStore): RouteStateStore {
  return {
    getCircuit: (key) => inner.getCircuit(key),
    compareAndSetCircuit: async (key, expected, next) => {
      await Promise.resolve();
      return inner.compareAndSetNow(key, expected, next);
    },
    listCircuits: (prefix) => inner.listCircuits(prefix),
    addTokens: (key, delta) => inner.addTokens(key, delta),
    getTokens: (key) => inner.getTokens(key),
    getSticky: (key) => inner.getSticky(key),
    setSticky: (key, value, ttl) => inner.setSticky(key, value, ttl),
  };
}

describe('updateCircuit', () => {
  it('applies synchronously on the in-memory store (state visible to the very next read)', () => {
    const store = new InMemoryRouteStateStore();
    const change = updateCircuit(store, 'g:a', addFailure);
    expect(isPromiseLike(change)).toBe(false);
    expect(store.getCircuit('g:a').failures).toBe(1);
  });

  it('undefined from the decision leaves the record alone', () => {
    const store = new InMemoryRouteStateStore();
    expect(updateCircuit(store, 'g:a', () => undefined)).toBeUndefined();
    expect(store.getCircuit('g:a').version).toBe(0);
  });

  it('concurrent updates through an async store are all applied: conflicts decide again', async () => {
    const inner = new InMemoryRouteStateStore();
    const store = remoteLike(inner);
    await Promise.all(Array.from({ length: 10 }, () => updateCircuit(store, 'g:a', addFailure)));
    expect(inner.getCircuit('g:a').failures).toBe(10);
  });

  it('a claim decided on the winner’s record is granted once', async () => {
    const inner = new InMemoryRouteStateStore();
    const store = remoteLike(inner);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => updateCircuit(store, 'g:a', claim)),
    );
    expect(results.filter((result) => result !== undefined)).toHaveLength(1);
    expect(inner.getCircuit('g:a')).toEqual(expect.objectContaining({ probes: 1, version: 1 }));
  });

  it('reports the record it replaced and the one now stored', async () => {
    const store = new InMemoryRouteStateStore();
    const change = await updateCircuit(store, 'g:a', (r) => ({ ...r, state: 'open' }));
    expect(change?.before).toEqual(CLOSED_CIRCUIT);
    expect(change?.after).toEqual(expect.objectContaining({ state: 'open', version: 1 }));
  });
});

describe('maybe-async helpers', () => {
  it('chain runs synchronously on plain values and after promises otherwise', async () => {
    expect(chain(2, (n) => n * 3)).toBe(6);
    await expect(chain(Promise.resolve(2), (n) => n * 3)).resolves.toBe(6);
  });

  it('attempt turns a throw or a rejection into the fallback', async () => {
    expect(
      attempt(
        () => {
          throw new Error('x');
        },
        () => 'fallback',
      ),
    ).toBe('fallback');
    await expect(
      attempt(
        () => Promise.reject(new Error('x')),
        () => 'fallback',
      ),
    ).resolves.toBe('fallback');
  });
});
