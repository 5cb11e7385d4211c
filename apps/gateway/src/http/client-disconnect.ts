import { getEventListeners } from 'node:events';
import type { ServerResponse } from 'node:http';
import { Socket } from 'node:net';

/** The disconnect signal of one client connection, shared by its keep-alive requests. */
interface ConnectionAbort {
  controller: AbortController;
  /** Responses on the connection not closed yet (HTTP/1.1 may pipeline several). */
  open: number;
  /** The connection it belongs to (a response's own `socket` is gone by its close). */
  socket: TrackedSocket | undefined;
}

const connectionAbort = Symbol('connectionAbort');
type TrackedSocket = Socket & { [connectionAbort]?: ConnectionAbort };
type TrackedResponse = ServerResponse & { [connectionAbort]?: ConnectionAbort };

/**
 * An AbortSignal that aborts when the client goes away before its response was finished, so the
 * provider call behind it stops too (no tokens paid for an answer nobody reads). A response the
 * gateway ended has no call left to stop: its close (before the socket flushed, or Fastify's
 * `inject`, which never flushes) aborts nothing, and builds no DOMException.
 *
 * One signal per client connection, not per request: an AbortController with its signal and
 * listener costs microseconds, the largest avoidable item of a call. Its scope is still one
 * request: when the connection's last open response closes with listeners left on the signal (a
 * call that never settled), the next request gets a new one, so listeners never pile up across
 * keep-alive requests. A response without a real socket (`inject`), or not HTTP/1, gets its own.
 */
export function abortOnDisconnect(raw: ServerResponse): AbortSignal {
  const socket = raw.socket as TrackedSocket | null;
  let state: ConnectionAbort;
  // HTTP/2 streams share a socket but end alone (a reset one must not abort its siblings)
  if (socket instanceof Socket && raw.req.httpVersionMajor === 1) {
    state = socket[connectionAbort] ?? { controller: new AbortController(), open: 0, socket };
    socket[connectionAbort] = state;
  } else {
    state = { controller: new AbortController(), open: 0, socket: undefined };
  }
  state.open++;
  (raw as TrackedResponse)[connectionAbort] = state;
  // a response closes once; `on` spares the wrapper `once` allocates
  raw.on('close', onResponseClose);
  return state.controller.signal;
}

function onResponseClose(this: TrackedResponse): void {
  const state = this[connectionAbort];
  if (!state) return;
  this[connectionAbort] = undefined;
  state.open--;
  if (!this.writableEnded) {
    // the client went away mid-response: the connection is gone, with every call on it
    state.controller.abort(new DOMException('The client closed the connection', 'AbortError'));
    detach(state);
    return;
  }
  // a call of a finished request still listens: the next request must not inherit it
  if (
    state.open === 0 &&
    state.socket !== undefined &&
    getEventListeners(state.controller.signal, 'abort').length > 0
  ) {
    detach(state);
  }
}

function detach(state: ConnectionAbort): void {
  if (state.socket?.[connectionAbort] === state) state.socket[connectionAbort] = undefined;
}
