import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { StreamBackpressure } from '../../../apps/gateway/src/http/stream-backpressure.js';

/** What StreamBackpressure reads of a response: its drain state, and `drain` / `close`. */
class FakeResponse extends EventEmitter {
  writableNeedDrain = false;
  writableEnded = false;
  destroyed = false;
  destroy(): void {
    this.destroyed = true;
    this.emit('close');
  }
}

describe('StreamBackpressure', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('is ready while the socket takes more, and waits for drain when it does not', async () => {
    const raw = new FakeResponse();
    const flow = new StreamBackpressure({ stallMs: 1000 }).flowOf(raw as unknown as ServerResponse);
    expect(flow.ready()).toBeUndefined();
    raw.writableNeedDrain = true;
    const waiting = flow.ready()!;
    let ready = false;
    void waiting.then(() => (ready = true));
    await Promise.resolve();
    expect(ready).toBe(false);
    raw.writableNeedDrain = false;
    raw.emit('drain');
    await waiting;
    expect(raw.destroyed).toBe(false);
    expect(raw.listenerCount('drain') + raw.listenerCount('close')).toBe(0);
  });

  it('drops a client that reads nothing for stallMs', async () => {
    jest.useFakeTimers();
    const raw = new FakeResponse();
    const flow = new StreamBackpressure({ stallMs: 1000 }).flowOf(raw as unknown as ServerResponse);
    raw.writableNeedDrain = true;
    const waiting = flow.ready()!;
    jest.advanceTimersByTime(999);
    expect(raw.destroyed).toBe(false);
    jest.advanceTimersByTime(1);
    expect(raw.destroyed).toBe(true);
    await waiting;
  });

  it('refuses a stall time that is not a whole number of milliseconds ≥ 1', () => {
    expect(() => new StreamBackpressure({ stallMs: 0 })).toThrow(
      'streamStallMs must be a whole number of milliseconds ≥ 1; got 0.',
    );
  });
});
