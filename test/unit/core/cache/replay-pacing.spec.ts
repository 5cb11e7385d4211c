import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { pacedReplay } from '../../../../src/core/cache/replay-pacing.js';
import type { ChatStreamEvent } from '../../../../src/core/chat/chat-model.js';

const response = { aiMessage: { role: 'assistant' as const, text: 'a b c' } };
const chunks = [
  { type: 'text-delta' as const, text: 'a ' },
  { type: 'text-delta' as const, text: 'b ' },
  { type: 'text-delta' as const, text: 'c' },
];

describe('pacedReplay', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('sends the first chunk at once, then one per interval, then complete', async () => {
    jest.useFakeTimers();
    const seen: ChatStreamEvent[] = [];
    const done = (async () => {
      for await (const event of pacedReplay(chunks, response, { chunksPerSecond: 10 })) {
        seen.push(event);
      }
    })();
    await jest.advanceTimersByTimeAsync(0);
    expect(seen).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(99);
    expect(seen).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(seen).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(100);
    await done;
    expect(seen.map((event) => event.type)).toEqual([
      'text-delta',
      'text-delta',
      'text-delta',
      'complete',
    ]);
  });

  it('sends everything at once at 0 chunks per second', async () => {
    const seen: ChatStreamEvent[] = [];
    for await (const event of pacedReplay(chunks, response, { chunksPerSecond: 0 })) {
      seen.push(event);
    }
    expect(seen).toHaveLength(4);
  });

  it('stops when the signal aborts', async () => {
    jest.useFakeTimers();
    const controller = new AbortController();
    const replay = pacedReplay(chunks, response, { chunksPerSecond: 1 }, controller.signal);
    await replay.next();
    const next = replay.next();
    controller.abort(new Error('gone'));
    await expect(next).rejects.toThrow('gone');
  });
});
