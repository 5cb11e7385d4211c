import type { ChatStreamEvent } from '../../../src/core/chat/chat-model.js';

/** Drains a stream, keeping every event; rethrows the stream's error with the events so far. */
export async function drain(
  stream: AsyncIterable<ChatStreamEvent>,
): Promise<{ events: ChatStreamEvent[]; error?: unknown }> {
  const events: ChatStreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events };
  } catch (error) {
    return { events, error };
  }
}

export function textOf(events: ChatStreamEvent[]): string {
  return events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
}

export function completes(events: ChatStreamEvent[]): number {
  return events.filter((event) => event.type === 'complete').length;
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** Waits until `condition` holds, yielding to the event loop (no timers, no sleeping). */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
