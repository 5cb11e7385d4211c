import { describe, expect, it, jest } from '@jest/globals';
import {
  AdaptiveDeadline,
  FIRST_TOKEN_DEADLINE_DEFAULTS,
} from '../../../../src/core/resilience/adaptive-deadline.js';
import {
  SharedLatencySketch,
  SKETCH_STALE_MS,
  SKETCH_SYNC_MS,
} from '../../../../src/core/resilience/shared-latency-sketch.js';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';
import type { RouteStateStore } from '../../../../src/core/state/route-state-store.js';
import type { SketchCounts } from '../../../../src/core/state/sketch-store.js';
import { LocalSketches } from '../../../../src/core/state/sketch-store.js';
import { useFakeTimersFrom } from '../../../support/fake-timers.js';

/** Two "replicas" share one in-memory store: what one learns, the other reads. */
const clock = () => Date.now();
const deadline = () =>
  new AdaptiveDeadline(12_000, {}, FIRST_TOKEN_DEADLINE_DEFAULTS, 'adaptive.firstToken');

/** A store whose sketches answer as the test says, counting the merges. */
function scriptedStore(answer: () => ReturnType<NonNullable<RouteStateStore['mergeSketch']>>) {
  const store: RouteStateStore & { merges: SketchCounts[] } = Object.assign(
    new InMemoryRouteStateStore(clock),
    { merges: [] as SketchCounts[] },
  );
  store.mergeSketch = (_key, add) => {
    store.merges.push(add);
    return answer();
  };
  return store;
}

/** The samples in one merge. */
const sentIn = (merge: SketchCounts) => merge.reduce((sum, [, count]) => sum + count, 0);

useFakeTimersFrom(1_000_000);

describe('SharedLatencySketch', () => {
  it('gives a replica that saw nothing the deadline another replica learnt', () => {
    const store = new InMemoryRouteStateStore(clock);
    const seen = deadline();
    const other = deadline();
    seen.share({ store, key: 'latency:slow', clock });
    other.share({ store, key: 'latency:slow', clock });
    for (let i = 0; i < 20; i += 1) seen.observe(30_000);
    expect(seen.currentMs()).toBeGreaterThanOrEqual(90_000);
    // the other replica still holds the configured wait until the next sync…
    expect(other.currentMs()).toBe(12_000);
    jest.advanceTimersByTime(SKETCH_SYNC_MS); // …the seeing replica sends its samples…
    const learnt = other.currentMs()!; // …and the reading one takes them in when it reads
    expect(learnt).toBeGreaterThanOrEqual(90_000);
    expect(learnt).toBeLessThanOrEqual(99_000);
    expect(other.isShared()).toBe(true);
    expect(other.samples()).toBe(20);
  });

  it('talks to the store at most once per sync interval, whatever the traffic', () => {
    const store = scriptedStore(() => []);
    const sketch = new SharedLatencySketch();
    sketch.share({ store, key: 'k', clock });
    expect(store.merges).toHaveLength(1); // the pull at bind
    for (let i = 0; i < 1_000; i += 1) {
      sketch.record(100 + i);
      sketch.poll();
    }
    expect(store.merges).toHaveLength(1);
    jest.advanceTimersByTime(SKETCH_SYNC_MS);
    expect(store.merges).toHaveLength(2);
    // the batch is sparse: one pair per touched bucket, all 1 000 samples in it
    const sent = store.merges[1]!;
    expect(sent.reduce((sum, [, count]) => sum + count, 0)).toBe(1_000);
    expect(sent.length).toBeLessThan(40);
  });

  it('answers from its own samples while the store does not share (an outage)', () => {
    let answer: SketchCounts | undefined = [[60, 1_000]]; // 1.1^60 ≈ 304 ms, a thousand times
    const store = scriptedStore(() => answer);
    const sketch = new SharedLatencySketch({ enough: 20 });
    sketch.share({ store, key: 'k', clock });
    expect(sketch.count()).toBe(1_000);
    answer = undefined;
    for (let i = 0; i < 20; i += 1) sketch.record(5_000);
    jest.advanceTimersByTime(SKETCH_SYNC_MS);
    expect(sketch.isShared()).toBe(false);
    expect(sketch.count()).toBe(20);
    expect(sketch.quantile(0.5)).toBeGreaterThanOrEqual(5_000);
  });

  it('sends what it recorded during an outage once the store is back, at most a generation', async () => {
    let answer: SketchCounts | undefined = undefined;
    const store = scriptedStore(() => answer);
    const sketch = new SharedLatencySketch({ generationSize: 256, enough: 20 });
    sketch.share({ store, key: 'k', clock });
    for (let i = 0; i < 30; i += 1) sketch.record(5_000);
    jest.advanceTimersByTime(SKETCH_SYNC_MS); // sent to a store that does not share
    expect(sentIn(store.merges.at(-1)!)).toBe(30);
    for (let i = 0; i < 10_000; i += 1) sketch.record(i % 2 === 0 ? 5_000 : 200);
    answer = [];
    jest.advanceTimersByTime(SKETCH_SYNC_MS); // the store is back: the outage's samples go
    const sent = store.merges.at(-1)!;
    expect(sentIn(sent)).toBeGreaterThan(100);
    expect(sentIn(sent)).toBeLessThanOrEqual(256);
    expect(sent).toHaveLength(2); // both paces kept
    jest.advanceTimersByTime(SKETCH_SYNC_MS);
    expect(store.merges.length).toBe(3); // taken: nothing left to send, no more syncs
    await Promise.resolve();
  });

  it('never waits on a store that hangs, and sets its last answer aside once stale', () => {
    let hangs = false;
    const store = scriptedStore(() => (hangs ? new Promise<never>(() => undefined) : [[60, 100]]));
    const sketch = new SharedLatencySketch({ enough: 20 });
    sketch.share({ store, key: 'k', clock });
    expect(sketch.isShared()).toBe(true);
    hangs = true;
    for (let i = 0; i < 30; i += 1) sketch.record(5_000);
    jest.advanceTimersByTime(SKETCH_SYNC_MS); // a merge that never answers
    sketch.poll();
    expect(sketch.count()).toBe(130); // the group's last answer and the unsent samples
    jest.advanceTimersByTime(SKETCH_STALE_MS);
    sketch.poll();
    expect(sketch.isShared()).toBe(false);
    expect(sketch.count()).toBe(30);
  });

  it("keeps to its own samples when the group's are fewer and not enough (a store that lost them)", () => {
    const store = scriptedStore(() => [[60, 3]]);
    const sketch = new SharedLatencySketch({ enough: 20 });
    for (let i = 0; i < 50; i += 1) sketch.record(5_000);
    sketch.share({ store, key: 'k', clock });
    expect(sketch.isShared()).toBe(false);
    expect(sketch.count()).toBe(50);
  });

  it('swallows a store that throws: calls go on with the local figures', () => {
    const store = scriptedStore(() => {
      throw new Error('down');
    });
    const shared = deadline();
    shared.share({ store, key: 'k', clock });
    for (let i = 0; i < 20; i += 1) shared.observe(200);
    jest.advanceTimersByTime(SKETCH_SYNC_MS);
    expect(shared.currentMs()).toBe(5_000);
  });
});

describe('LocalSketches (the in-memory store)', () => {
  it('forgets by the group’s samples: two generations of generationSize', () => {
    const sketches = new LocalSketches(clock);
    sketches.mergeSketch('k', [[10, 300]], 256); // a full generation becomes the previous one
    sketches.mergeSketch('k', [[20, 100]], 256);
    expect(sketches.mergeSketch('k', [], 256)).toEqual(
      expect.arrayContaining([
        [10, 300],
        [20, 100],
      ]),
    );
    sketches.mergeSketch('k', [[30, 256]], 256); // 100 + 256: the 300 are dropped
    const counts = new Map(sketches.mergeSketch('k', [], 256));
    expect(counts.has(10)).toBe(false);
    expect(counts.get(20)).toBe(100);
    expect(counts.get(30)).toBe(256);
  });

  it('forgets a sketch nobody added to for a day, and reading creates nothing', () => {
    const sketches = new LocalSketches(clock);
    expect(sketches.mergeSketch('never', [], 256)).toEqual([]);
    sketches.mergeSketch('k', [[10, 5]], 256);
    jest.setSystemTime(Date.now() + 24 * 60 * 60_000);
    expect(sketches.mergeSketch('k', [], 256)).toEqual([]);
  });
});
