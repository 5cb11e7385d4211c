import { getEventListeners } from 'node:events';
import { describe, expect, it } from '@jest/globals';
import { abortable } from '../../../../src/core/chat/abortable-stream.js';

async function* counting(count: number, listeners: number[], signal: AbortSignal) {
  for (let i = 0; i < count; i++) {
    listeners.push(getEventListeners(signal, 'abort').length);
    yield i;
  }
}

describe('abortable', () => {
  it('listens on the signal once for the whole iteration, and not after it', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const listeners: number[] = [];
    for await (const value of abortable(
      counting(50, listeners, controller.signal),
      controller.signal,
    )) {
      seen.push(value);
    }
    expect(seen).toHaveLength(50);
    expect(new Set(listeners)).toEqual(new Set([1]));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it("rejects a stuck next() at once with the signal's reason, and leaves no listener", async () => {
    const controller = new AbortController();
    let returned = false;
    const stuck: AsyncIterable<number> = {
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise<IteratorResult<number>>(() => undefined),
        return: () => {
          returned = true;
          return Promise.resolve({ done: true, value: undefined });
        },
      }),
    };
    const iteration = abortable(stuck, controller.signal).next();
    controller.abort(new Error('gone'));
    await expect(iteration).rejects.toThrow('gone');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    await Promise.resolve();
    expect(returned).toBe(true);
  });

  it('stops at the next event when the signal aborted while the consumer held one', async () => {
    const controller = new AbortController();
    const listeners: number[] = [];
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const value of abortable(
          counting(5, listeners, controller.signal),
          controller.signal,
        )) {
          seen.push(value);
          if (value === 1) controller.abort(new Error('gone'));
        }
      })(),
    ).rejects.toThrow('gone');
    expect(seen).toEqual([0, 1]);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
