import { describe, expect, it } from '@jest/globals';
import { observableFromStream } from '../../../src/nest/service/observable-from-stream.js';
import { deferred } from '../../support/async.js';

/** Lets pending reads and emissions run. */
const ticks = async (count = 10) => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('observableFromStream with a flow (issue 24, point 5)', () => {
  it('reads the next event only once the consumer is ready for it', async () => {
    let pulled = 0;
    async function* source() {
      for (let i = 0; i < 5; i++) {
        pulled += 1;
        yield i;
      }
    }
    const seen: number[] = [];
    let gate: ReturnType<typeof deferred<void>> | undefined;
    const flow = { ready: () => gate?.promise };
    const done = deferred<void>();
    observableFromStream(source, flow).subscribe({
      next: (value) => {
        seen.push(value);
        // the consumer's buffer is full after the second event
        if (value === 1) gate = deferred<void>();
      },
      complete: () => done.resolve(),
    });
    await ticks();
    expect(seen).toEqual([0, 1]);
    expect(pulled).toBe(2);
    const open = gate!;
    gate = undefined;
    open.resolve();
    await done.promise;
    expect(seen).toEqual([0, 1, 2, 3, 4]);
  });

  it('stops waiting, and closes the source, when the consumer unsubscribes', async () => {
    let closed = false;
    async function* source() {
      try {
        for (let i = 0; ; i++) yield i;
      } finally {
        closed = true;
      }
    }
    const gate = deferred<void>();
    const seen: number[] = [];
    const subscription = observableFromStream(source, {
      ready: () => (seen.length > 0 ? gate.promise : undefined),
    }).subscribe({ next: (value) => seen.push(value) });
    await ticks();
    expect(seen).toEqual([0]);
    subscription.unsubscribe();
    gate.resolve();
    await ticks();
    expect(seen).toEqual([0]);
    expect(closed).toBe(true);
  });
});
