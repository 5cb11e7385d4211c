import { abortReason } from '../chat/abort.js';
import type { ChatStreamEvent } from '../chat/chat-model.js';
import type { ChatResponse } from '../chat/response.js';
import type { AnswerChunk } from './cache-entry.js';

/** How fast a cached stream is replayed. */
export interface ReplayPacing {
  /** Chunks per second (the typing effect of a live answer); 0 sends them all at once. */
  chunksPerSecond: number;
}

/** 50 chunks a second: about what a fast model streams, so a typing effect still shows. */
export const DEFAULT_REPLAY_PACING: ReplayPacing = { chunksPerSecond: 50 };

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** A timer sleep (fake timers replace `setTimeout`), cut short by the signal. */
export const timerSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * A stored answer as a stream again: its chunks, one interval apart (the first at once), then
 * `complete` with the response. Stops when the signal aborts.
 */
export async function* pacedReplay(
  chunks: readonly AnswerChunk[],
  response: ChatResponse,
  pacing: ReplayPacing,
  signal?: AbortSignal,
  sleep: Sleep = timerSleep,
): AsyncGenerator<ChatStreamEvent> {
  const interval = pacing.chunksPerSecond > 0 ? 1000 / pacing.chunksPerSecond : 0;
  for (let i = 0; i < chunks.length; i++) {
    if (i > 0 && interval > 0) await sleep(interval, signal);
    yield chunks[i]!;
  }
  yield { type: 'complete', response };
}
