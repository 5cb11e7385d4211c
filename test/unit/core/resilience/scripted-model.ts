import type {
  ChatCallOptions,
  ChatModel,
  ChatStreamEvent,
} from '../../../../src/core/chat/chat-model.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';

/** What one call of a scripted model does. */
export type ChatStep =
  | { respond: string }
  | { fail: unknown }
  /** Never answers; rejects with the signal's reason when it aborts (a well-behaved SDK). */
  | { hang: true }
  /** Never answers and ignores its signal (a badly behaved model). */
  | { hangDeaf: true };

/** What one stream call does: events in order; `hang` waits for the abort; `fail` throws. */
export type StreamStep = (ChatStreamEvent | { hang: true } | { fail: unknown })[];

export interface RecordedCall {
  /** Date.now() when the call started (fake timers make this exact). */
  at: number;
  signal?: AbortSignal;
  options: ChatCallOptions;
}

export function response(text: string): ChatResponse {
  return { aiMessage: { role: 'assistant', text }, modelName: 'fake', finishReason: 'stop' };
}

export const request: ChatRequest = { messages: [{ role: 'user', content: 'hi' }] };

function waitForAbort(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** A chat model that plays `steps`, one per call; the last step repeats. */
export function scriptedChatModel(steps: ChatStep[]): { model: ChatModel; calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const model: ChatModel = {
    async chat(_request, options = {}) {
      calls.push({ at: Date.now(), signal: options.signal, options });
      const step = steps[Math.min(calls.length - 1, steps.length - 1)]!;
      if ('respond' in step) return response(step.respond);
      if ('fail' in step) throw step.fail;
      if ('hang' in step) return waitForAbort(options.signal);
      return new Promise<never>(() => undefined);
    },
  };
  return { model, calls };
}

/** A streaming model that plays one `StreamStep` per call; the last step repeats. */
export function scriptedStreamModel(steps: StreamStep[]): {
  model: ChatModel;
  calls: RecordedCall[];
  /** How many streams ran their `finally` (released their connection). */
  closed: () => number;
} {
  const calls: RecordedCall[] = [];
  let closed = 0;
  const model: ChatModel = {
    chat() {
      throw new Error('scripted stream model: chat() not expected');
    },
    async *stream(_request, options = {}) {
      calls.push({ at: Date.now(), signal: options.signal, options });
      const step = steps[Math.min(calls.length - 1, steps.length - 1)]!;
      try {
        for (const item of step) {
          if ('hang' in item) await waitForAbort(options.signal);
          else if ('fail' in item) throw item.fail;
          else yield item;
        }
      } finally {
        closed++;
      }
    },
  };
  return { model, calls, closed: () => closed };
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Observes a promise's outcome without leaving a rejection unhandled while time advances. */
export function settle<T>(promise: Promise<T>): {
  outcome: () => Outcome<T> | undefined;
  done: Promise<Outcome<T>>;
} {
  let outcome: Outcome<T> | undefined;
  const done = promise.then(
    (value) => (outcome = { ok: true, value }),
    (error: unknown) => (outcome = { ok: false, error }),
  );
  return { outcome: () => outcome, done };
}

/** Drains a stream, recording events and the final error, without unhandled rejections. */
export async function drain(
  stream: AsyncIterable<ChatStreamEvent>,
  seen: ChatStreamEvent[],
): Promise<void> {
  for await (const event of stream) seen.push(event);
}
