import { describe, expect, it } from '@jest/globals';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';
import { CLOSED_CIRCUIT } from '../../../../src/core/state/route-state-store.js';

describe('InMemoryRouteStateStore', () => {
  it('a circuit never stored reads as closed, version 0', () => {
    expect(new InMemoryRouteStateStore().getCircuit('g:a')).toEqual(CLOSED_CIRCUIT);
  });

  it('compare-and-set replaces the record when the version matches and bumps the version', async () => {
    const store = new InMemoryRouteStateStore();
    const current = store.getCircuit('g:a');
    const result = await store.compareAndSetCircuit('g:a', current, {
      ...CLOSED_CIRCUIT,
      state: 'open',
      cooldownUntil: 5,
    });
    expect(result.ok).toBe(true);
    expect(result.record).toEqual(expect.objectContaining({ state: 'open', version: 1 }));
    expect(store.getCircuit('g:a')).toBe(result.record);
  });

  it('compare-and-set with a stale version changes nothing and returns the current record', async () => {
    const store = new InMemoryRouteStateStore();
    const stale = store.getCircuit('g:a');
    await store.compareAndSetCircuit('g:a', stale, { ...CLOSED_CIRCUIT, failures: 1 });
    const result = await store.compareAndSetCircuit('g:a', stale, {
      ...CLOSED_CIRCUIT,
      failures: 9,
    });
    expect(result.ok).toBe(false);
    expect(result.record.failures).toBe(1);
    expect(store.getCircuit('g:a').failures).toBe(1);
  });

  it('stored records are frozen: a change always goes through compare-and-set', () => {
    const store = new InMemoryRouteStateStore();
    const { record } = store.compareAndSetNow('g:a', CLOSED_CIRCUIT, {
      ...CLOSED_CIRCUIT,
      probes: 1,
    });
    expect(Object.isFrozen(record)).toBe(true);
  });

  it('lists circuits by key prefix', () => {
    const store = new InMemoryRouteStateStore();
    store.compareAndSetNow('one:a', CLOSED_CIRCUIT, CLOSED_CIRCUIT);
    store.compareAndSetNow('one:b', CLOSED_CIRCUIT, CLOSED_CIRCUIT);
    store.compareAndSetNow('two:a', CLOSED_CIRCUIT, CLOSED_CIRCUIT);
    expect([...store.listCircuits('one:').keys()]).toEqual(['one:a', 'one:b']);
    expect(store.listCircuits().size).toBe(3);
  });

  it('adds token deltas (negative ones release reservations) and shows them at once', async () => {
    const store = new InMemoryRouteStateStore();
    const pending = store.addTokens('g:a', 100);
    expect(store.getTokens('g:a')).toBe(100); // visible before the promise settles
    await expect(pending).resolves.toBe(100);
    await expect(store.addTokens('g:a', -40)).resolves.toBe(60);
    expect(store.getTokens('g:b')).toBe(0);
  });

  it('sticky assignments expire after their TTL, read with the injected clock', async () => {
    let now = 1_000;
    const store = new InMemoryRouteStateStore(() => now);
    await store.setSticky('conv-1', { route: 'complex', model: 'm2' }, 500);
    now = 1_499;
    expect(store.getSticky('conv-1')).toEqual({ route: 'complex', model: 'm2' });
    now = 1_500;
    expect(store.getSticky('conv-1')).toBeUndefined();
  });

  it('notifies circuit listeners; a throwing listener neither undoes the change nor stops the others', () => {
    const store = new InMemoryRouteStateStore();
    const seen: string[] = [];
    store.onCircuitChange(() => {
      throw new Error('watcher broke');
    });
    const unsubscribe = store.onCircuitChange((key, record) => seen.push(`${key}:${record.state}`));
    const result = store.compareAndSetNow('g:a', CLOSED_CIRCUIT, {
      ...CLOSED_CIRCUIT,
      state: 'open',
    });
    expect(result.ok).toBe(true);
    expect(seen).toEqual(['g:a:open']);
    unsubscribe();
    store.compareAndSetNow('g:a', result.record, { ...CLOSED_CIRCUIT });
    expect(seen).toHaveLength(1);
    expect(store.isShared()).toBe(false);
  });
});

describe('InMemoryRouteStateStore sticky sweep', () => {
  it('drops expired sticky assignments that are never read again', async () => {
    let now = 0;
    const store = new InMemoryRouteStateStore(() => now);
    for (let i = 0; i < 1000; i++) await store.setSticky(`old-${i}`, { model: 'a' }, 10);
    now = 100;
    for (let i = 0; i < 100; i++) await store.setSticky(`new-${i}`, { model: 'b' }, 10_000);
    const size = (store as unknown as { sticky: Map<string, unknown> }).sticky.size;
    expect(size).toBe(100);
    expect(store.getSticky('new-5')).toEqual({ model: 'b' });
    expect(store.getSticky('old-5')).toBeUndefined();
  });
});
