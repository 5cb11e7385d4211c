import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { wrapModel } from '../../../../src/core/chat/chat-model-wrapper.js';
import { resolveCircuitPolicy } from '../../../../src/core/circuit/circuit-policy.js';
import {
  FLUSH_CALLS,
  FLUSH_MS,
  PendingSuccesses,
} from '../../../../src/core/circuit/pending-successes.js';
import type { WindowBatch } from '../../../../src/core/circuit/sliding-window.js';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';
import { CLOSED_CIRCUIT } from '../../../../src/core/state/route-state-store.js';
import {
  FailoverStrategy,
  type FailoverStrategyOptions,
} from '../../../../src/core/strategies/failover-strategy.js';
import type { StrategyCallContext } from '../../../../src/core/strategies/model-routing-strategy.js';
import { answer, manualClock, request } from '../strategies/fakes.js';

const countWindow = resolveCircuitPolicy({ failureRateThreshold: 0.5, window: { calls: 100 } });

describe('PendingSuccesses', () => {
  function setup() {
    const written: { model: string; batch: WindowBatch }[] = [];
    const scheduled: (() => void)[] = [];
    const pending = new PendingSuccesses(
      countWindow,
      (model, batch) => written.push({ model, batch }),
      (work) => scheduled.push(work),
    );
    return { written, scheduled, pending };
  }

  it('holds successes of a closed circuit and writes them in one batch when full', () => {
    const { written, pending } = setup();
    for (let i = 0; i < FLUSH_CALLS - 1; i += 1) {
      expect(pending.hold('a', CLOSED_CIRCUIT, 1_000 + i)).toBe(true);
    }
    expect(written).toEqual([]);
    pending.hold('a', CLOSED_CIRCUIT, 2_000);
    expect(written).toHaveLength(1);
    expect(written[0]!.batch.marks).toBe('o'.repeat(FLUSH_CALLS));
    expect(Array.from(written[0]!.batch.times).at(-1)).toBe(2_000);
    expect(pending.take('a')).toBeUndefined(); // written: nothing held any more
  });

  it('writes what every model holds when the scheduled flush runs, and schedules once', () => {
    const { written, scheduled, pending } = setup();
    pending.hold('a', CLOSED_CIRCUIT, 1);
    pending.hold('b', CLOSED_CIRCUIT, 2);
    pending.hold('a', CLOSED_CIRCUIT, 3);
    expect(scheduled).toHaveLength(1);
    scheduled[0]!();
    expect(written.map(({ model, batch }) => [model, batch.marks])).toEqual([
      ['a', 'oo'],
      ['b', 'o'],
    ]);
    pending.hold('a', CLOSED_CIRCUIT, 4);
    expect(scheduled).toHaveLength(2); // the next batch gets its own flush
  });

  it('does not hold a success that must be written now', () => {
    const { pending } = setup();
    const failing = { ...CLOSED_CIRCUIT, consecutiveFailures: 1 };
    expect(pending.hold('a', failing, 1)).toBe(false); // it resets the consecutive failures
    expect(pending.hold('a', { ...CLOSED_CIRCUIT, state: 'half-open' }, 1)).toBe(false);
    const noWindow = new PendingSuccesses(
      resolveCircuitPolicy({}),
      () => undefined,
      () => undefined,
    );
    expect(noWindow.hold('a', CLOSED_CIRCUIT, 1)).toBe(false);
  });
});

describe('the failure-rate window writes successes in batches', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  /** Two strategies over one store: two replicas sharing their circuits. */
  function replicas(options: FailoverStrategyOptions) {
    const clock = manualClock();
    const store = new InMemoryRouteStateStore(clock.fn);
    const make = () =>
      new FailoverStrategy({ clock: clock.fn, store, scope: 'g', cooldownMs: 1_000, ...options });
    const model = wrapModel('a', { chat: async () => answer('a') });
    const call = async (strategy: FailoverStrategy, outcome: 'ok' | Error) => {
      const context: StrategyCallContext = { attributes: {}, attempt: 1 };
      await strategy.route([model], request, context);
      if (outcome === 'ok') await strategy.onSuccess(model, answer('ok'), request, context);
      else await strategy.onFailure(model, outcome, request, context);
    };
    return { store, one: make(), two: make(), call };
  }

  it('a success is not a write, yet the strategy that counted it shows it', async () => {
    const { store, one, call } = replicas({ failureRateThreshold: 0.5, window: { calls: 10 } });
    const changes: unknown[] = [];
    store.onCircuitChange((key) => changes.push(key));
    for (let i = 0; i < 3; i += 1) await call(one, 'ok');
    expect(changes).toEqual([]);
    expect(store.getCircuit('g:a').windowRequests).toBeUndefined();
    expect(one.inspectModels()[0]!.window).toEqual({ calls: 3, failureRate: 0, slowCallRate: 0 });
  });

  it('another replica sees the successes within FLUSH_MS, and a failure at once', async () => {
    const { one, two, call } = replicas({ failureRateThreshold: 0.5, window: { calls: 10 } });
    await call(one, 'ok');
    await call(one, 'ok');
    expect(two.circuitOf('a').windowRequests).toBeUndefined();
    jest.advanceTimersByTime(FLUSH_MS);
    expect(two.circuitOf('a')).toMatchObject({ windowRequests: 2, windowFailures: 0 });
    await call(one, 'ok');
    await call(one, new Error('down')); // written at once, with the success held before it
    expect(two.circuitOf('a')).toMatchObject({ windowRequests: 4, windowFailures: 1 });
    expect(two.circuitOf('a').windowCalls).toBe('ooof');
  });

  it("the rate over both replicas' calls opens the circuit for both", async () => {
    const { one, two, call } = replicas({
      failureRateThreshold: 0.5,
      window: { calls: 10, minimumRequests: 4 },
    });
    await call(one, 'ok');
    await call(two, 'ok');
    jest.advanceTimersByTime(FLUSH_MS);
    await call(one, new Error('down'));
    expect(one.circuitOf('a').state).toBe('closed'); // 1 of 3, under the minimum
    await call(two, new Error('down')); // 2 of 4
    expect(one.circuitOf('a').state).toBe('open');
    expect(two.circuitOf('a').state).toBe('open');
  });

  it('held successes are dropped once the circuit has opened: opening starts a new window', async () => {
    const { one, two, call } = replicas({
      failureRateThreshold: 0.5,
      window: { calls: 10, minimumRequests: 1 },
    });
    await call(one, 'ok');
    await call(two, new Error('down')); // 1 of 1: open
    jest.advanceTimersByTime(FLUSH_MS);
    expect(one.circuitOf('a')).toMatchObject({ state: 'open' });
    expect(one.circuitOf('a').windowRequests).toBeUndefined();
  });
});
