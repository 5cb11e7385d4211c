import { describe, expect, it } from '@jest/globals';
import { InvalidConfigurationException } from '../../../../src/core/errors/exceptions.js';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';
import { CLOSED_CIRCUIT } from '../../../../src/core/state/route-state-store.js';

function clock(now = 1_000_000) {
  const c = { now, read: () => c.now };
  return c;
}

const open = (cooldownUntil: number) => ({
  ...CLOSED_CIRCUIT,
  state: 'open' as const,
  failures: 1,
  consecutiveFailures: 1,
  cooldownUntil,
  lastError: { name: 'ProviderException', message: 'HTTP 404: no such model', at: 0 },
});

/** Issue 12, point 3: circuits of names clients chose stayed in memory for good. */
describe('InMemoryRouteStateStore circuit bounds', () => {
  it('forgets an unchanged circuit circuitTtlMs after its cooldown ends', () => {
    const time = clock();
    const store = new InMemoryRouteStateStore(time.read, { circuitTtlMs: 60_000 });
    store.compareAndSetNow('g:a', CLOSED_CIRCUIT, open(time.now + 10_000));

    time.now += 10_000 + 59_999;
    expect(store.getCircuit('g:a').state).toBe('open');
    time.now += 1;
    expect(store.getCircuit('g:a')).toEqual(CLOSED_CIRCUIT);
    expect(store.listCircuits('g:').size).toBe(0);
    expect(store.circuitCount()).toBe(0);
  });

  it('keeps at most maxCircuits, forgetting the least recently changed', () => {
    const time = clock();
    const store = new InMemoryRouteStateStore(time.read, { maxCircuits: 100 });
    for (let i = 0; i < 10_000; i++) {
      store.compareAndSetNow(`gateway/models:provider/random-${i}`, CLOSED_CIRCUIT, open(time.now));
    }
    expect(store.circuitCount()).toBe(100);
    expect(store.getCircuit('gateway/models:provider/random-9999').state).toBe('open');
    expect(store.getCircuit('gateway/models:provider/random-0')).toEqual(CLOSED_CIRCUIT);
  });

  it('keeps a circuit that changes often, however many others come and go', () => {
    const time = clock();
    const store = new InMemoryRouteStateStore(time.read, { maxCircuits: 10 });
    for (let i = 0; i < 100; i++) {
      const current = store.getCircuit('auto/simple:demo-mini');
      store.compareAndSetNow('auto/simple:demo-mini', current, open(time.now + 1000));
      store.compareAndSetNow(`gateway/models:x-${i}`, CLOSED_CIRCUIT, open(time.now));
    }
    expect(store.getCircuit('auto/simple:demo-mini').version).toBe(100);
  });

  it('defaults to 10,000 circuits and refuses a bound below 1', () => {
    const store = new InMemoryRouteStateStore();
    for (let i = 0; i < 10_001; i++) store.compareAndSetNow(`k${i}`, CLOSED_CIRCUIT, open(0));
    expect(store.circuitCount()).toBe(10_000);
    expect(() => new InMemoryRouteStateStore(undefined, { maxCircuits: 0 })).toThrow(
      InvalidConfigurationException,
    );
  });
});
