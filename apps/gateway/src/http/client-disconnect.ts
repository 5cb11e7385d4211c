import type { ServerResponse } from 'node:http';

/**
 * An AbortSignal that aborts when the client goes away before its response was finished, so the
 * provider call behind it stops too (no tokens paid for an answer nobody reads).
 */
export function abortOnDisconnect(raw: ServerResponse): AbortSignal {
  const controller = new AbortController();
  raw.once('close', () => {
    if (!raw.writableFinished) {
      controller.abort(new DOMException('The client closed the connection', 'AbortError'));
    }
  });
  return controller.signal;
}
