import type { ServerResponse } from 'node:http';
import { InvalidConfigurationException, type StreamFlow } from 'nest-model-router';

export interface StreamBackpressureOptions {
  /**
   * How long a streaming client may read nothing while the gateway has an answer waiting for it
   * (its socket's buffer is full) before it is dropped; its call is then charged what it used so
   * far, as any stream that ends early. Default 30 s.
   */
  stallMs?: number;
}

const DEFAULT_STALL_MS = 30_000;

/**
 * Backpressure for streamed answers: an event is read from the router only while the client's
 * socket takes more (Node's `drain`), so a client that reads slowly holds back its provider
 * stream instead of the gateway buffering the whole answer for it. The memory a slow client
 * costs is bounded by its socket's buffers (the response's high-water mark, 16 KiB, and the
 * kernel's), one event, and what the provider connection buffers; other clients are not slowed.
 * A client that takes nothing for `stallMs` is dropped.
 */
export class StreamBackpressure {
  readonly stallMs: number;

  constructor(options: StreamBackpressureOptions = {}) {
    const stallMs = options.stallMs ?? DEFAULT_STALL_MS;
    if (!Number.isSafeInteger(stallMs) || stallMs < 1) {
      throw new InvalidConfigurationException(
        `streamStallMs must be a whole number of milliseconds ≥ 1; got ${String(stallMs)}.`,
      );
    }
    this.stallMs = stallMs;
  }

  /** The flow of one response: ready while its socket takes more, else once it drained. */
  flowOf(raw: ServerResponse): StreamFlow {
    return {
      ready: () => {
        if (!raw.writableNeedDrain || raw.destroyed || raw.writableEnded) return undefined;
        return new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            raw.off('drain', done);
            raw.off('close', done);
            resolve();
          };
          // read nothing for that long: drop it (its close ends the call, which is charged)
          const timer = setTimeout(() => raw.destroy(), this.stallMs);
          timer.unref();
          raw.on('drain', done);
          raw.on('close', done);
        });
      },
    };
  }
}
