import type { ServerResponse } from 'node:http';

/**
 * An AbortSignal that aborts when the client goes away before its response was finished, so the
 * provider call behind it stops too (no tokens paid for an answer nobody reads). A response the
 * gateway ended has no call left to stop: its close (before the socket flushed, or Fastify's
 * `inject`, which never flushes) aborts nothing, and builds no DOMException.
 */
export function abortOnDisconnect(raw: ServerResponse): AbortSignal {
  const controller = new AbortController();
  raw.once('close', () => {
    if (!raw.writableEnded) {
      controller.abort(new DOMException('The client closed the connection', 'AbortError'));
    }
  });
  return controller.signal;
}
