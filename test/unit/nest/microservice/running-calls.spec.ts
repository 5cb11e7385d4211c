import { describe, expect, it } from '@jest/globals';
import { EventEmitter } from 'node:events';
import { InvalidChatRequestException } from '../../../../src/core/errors/invalid-chat-request.exception.js';
import { ProviderException } from '../../../../src/core/errors/provider-exception.js';
import { RunningCalls } from '../../../../src/nest/microservice/running-calls.js';

describe('RunningCalls (the service side of CANCEL)', () => {
  it('CANCEL aborts the running call with a reason naming it, and the call is forgotten', () => {
    const calls = new RunningCalls();
    const call = calls.start('c-1');

    expect(calls.cancel('c-1')).toBe(true);
    expect(call.signal.aborted).toBe(true);
    expect(call.signal.reason).toMatchObject({
      name: 'AbortError',
      message: "Call 'c-1' was cancelled by its client",
    });
    expect(calls.size).toBe(0);
    expect(calls.cancel('c-1')).toBe(false);
  });

  it('a released call is forgotten; releasing twice is harmless', () => {
    const calls = new RunningCalls();
    const call = calls.start('c-1');
    call.release();
    call.release();

    expect(calls.size).toBe(0);
    expect(calls.cancel('c-1')).toBe(false);
    expect(call.signal.aborted).toBe(false);
  });

  it('a CANCEL that overtakes its call aborts the call as soon as it arrives', () => {
    const calls = new RunningCalls();
    expect(calls.cancel('late')).toBe(false);

    expect(calls.start('late').signal.aborted).toBe(true);
    // once only
    expect(calls.start('other').signal.aborted).toBe(false);
  });

  it('remembers only the last early cancels', () => {
    const calls = new RunningCalls({ maxEarlyCancels: 2 });
    calls.cancel('a');
    calls.cancel('b');
    calls.cancel('c');

    expect(calls.start('a').signal.aborted).toBe(false);
    expect(calls.start('b').signal.aborted).toBe(true);
    expect(calls.start('c').signal.aborted).toBe(true);
  });

  it('refuses a second call with a running id, and more calls than its bound (rate-limited)', () => {
    const calls = new RunningCalls({ maxCalls: 2 });
    calls.start('a');

    expect(() => calls.start('a')).toThrow(InvalidChatRequestException);
    calls.start(undefined);
    let refused: unknown;
    try {
      calls.start('c');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ProviderException);
    expect(refused).toMatchObject({
      kind: 'rate-limited',
      status: 429,
      provider: 'model-router-service',
    });
  });

  it('a connection that closes aborts the calls it carries, with one listener however many', () => {
    const calls = new RunningCalls();
    const noDelay: boolean[] = [];
    const socket = Object.assign(new EventEmitter(), {
      setNoDelay: (value: boolean) => noDelay.push(value),
    });
    const other = new EventEmitter();
    const carried = Array.from({ length: 20 }, (_, index) => calls.start(`s-${index}`, socket));
    const finished = calls.start('done', socket);
    finished.release();
    const elsewhere = calls.start('elsewhere', other);

    expect(socket.listenerCount('close')).toBe(1);
    // a TCP socket's replies skip Nagle's delay (set once per connection)
    expect(noDelay).toEqual([true]);
    socket.emit('close');

    expect(carried.every((call) => call.signal.aborted)).toBe(true);
    expect(carried[0]!.signal.reason).toMatchObject({ message: 'The client connection closed' });
    expect(finished.signal.aborted).toBe(false);
    expect(elsewhere.signal.aborted).toBe(false);
    expect(calls.size).toBe(1);
  });

  it('shutting down aborts every call', () => {
    const calls = new RunningCalls();
    const running = [calls.start('a'), calls.start('b')];

    calls.abortAll('The model router service is shutting down');

    expect(running.map((call) => call.signal.reason?.message)).toEqual([
      'The model router service is shutting down',
      'The model router service is shutting down',
    ]);
    expect(calls.size).toBe(0);
  });
});
