import { describe, expect, it, jest } from '@jest/globals';
import {
  HEDGE_BURST,
  HEDGE_SYNC_MS,
  HEDGE_WINDOW_MS,
  HedgeBucket,
} from '../../../../src/core/group/hedge-bucket.js';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';
import type { RouteStateStore } from '../../../../src/core/state/route-state-store.js';
import { useFakeTimersFrom } from '../../../support/fake-timers.js';

/** Two "replicas" of one group share a store: each bucket is the group's. */
const clock = () => Date.now();

function replicas(store: RouteStateStore = new InMemoryRouteStateStore(clock)) {
  const a = new HedgeBucket(0.1);
  const b = new HedgeBucket(0.1);
  a.share({ store, scope: 'group', clock });
  b.share({ store, scope: 'group', clock });
  return { a, b, store };
}

/** Earns `calls` calls, taking an extra call whenever the bucket has one: how many were taken. */
function drive(bucket: HedgeBucket, calls: number): number {
  let taken = 0;
  for (let i = 0; i < calls; i += 1) {
    bucket.earn();
    if (bucket.take()) taken += 1;
  }
  return taken;
}

useFakeTimersFrom(1_000_000);

describe('HedgeBucket', () => {
  it('alone, caps extra calls at maxExtra of the calls, with at most HEDGE_BURST in reserve', () => {
    const bucket = new HedgeBucket(0.1);
    expect(drive(bucket, 100)).toBe(10);
    for (let i = 0; i < 1_000; i += 1) bucket.earn();
    let burst = 0;
    while (bucket.take()) burst += 1;
    expect(burst).toBe(HEDGE_BURST);
  });

  it("lets a replica spend what the group's calls earned on other replicas", () => {
    const { a, b } = replicas();
    for (let i = 0; i < 100; i += 1) a.earn(); // calm traffic on A: no extra call needed
    jest.advanceTimersByTime(HEDGE_SYNC_MS); // A sends its counts
    // B's own 100 calls alone would allow 10 extra calls; with A's, the group's 200 allow 20,
    // less the tenth that B's first call earned into a full bucket
    expect(drive(b, 100)).toBe(19);
  });

  it("debits the other replicas' extra calls: together they stay within the group's share", () => {
    const { a, b } = replicas();
    for (let i = 0; i < 100; i += 1) {
      a.earn();
      b.earn();
    }
    jest.advanceTimersByTime(HEDGE_SYNC_MS);
    expect(a.available()).toBe(HEDGE_BURST);
    let taken = 0;
    while (a.take()) taken += 1;
    expect(taken).toBe(HEDGE_BURST);
    jest.advanceTimersByTime(HEDGE_SYNC_MS); // A's extra calls reach the store…
    expect(b.take()).toBe(false); // …and B's bucket: the group spent the reserve
    expect(b.available()).toBeLessThan(1);
  });

  it('overspends by at most what the others fired since they last synced (one burst each)', () => {
    const { a, b } = replicas();
    let calls = 0;
    let extras = 0;
    for (let round = 0; round < 50; round += 1) {
      // both replicas under a heavy tail, each deciding between syncs on what it heard
      extras += drive(a, 37) + drive(b, 23);
      calls += 60;
      jest.advanceTimersByTime(HEDGE_SYNC_MS);
    }
    expect(extras).toBeLessThanOrEqual(0.1 * calls + HEDGE_BURST);
    expect(extras).toBeGreaterThanOrEqual(0.1 * calls - 2);
  });

  it('credits each call once: counts leave with their window, and nothing comes back later', () => {
    const { a, b } = replicas();
    for (let i = 0; i < 100; i += 1) a.earn();
    jest.advanceTimersByTime(HEDGE_SYNC_MS);
    expect(drive(b, 0) + countTakes(b)).toBe(HEDGE_BURST);
    for (let step = 0; step < 4; step += 1) {
      jest.advanceTimersByTime(HEDGE_WINDOW_MS);
      expect(b.available()).toBeLessThan(1);
    }
  });

  it('counts on alone when the store fails: no call fails, the bucket is the replica’s', () => {
    const store = new InMemoryRouteStateStore(clock);
    store.addToWindow = () => {
      throw new Error('down');
    };
    store.getWindow = () => {
      throw new Error('down');
    };
    const { a } = replicas(store);
    expect(() => drive(a, 100)).not.toThrow();
    jest.advanceTimersByTime(HEDGE_SYNC_MS);
    expect(drive(a, 100)).toBeGreaterThanOrEqual(9);
  });
});

function countTakes(bucket: HedgeBucket): number {
  let taken = 0;
  while (bucket.take()) taken += 1;
  return taken;
}
