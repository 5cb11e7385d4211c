import { type BeforeApplicationShutdown, type OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';

/** A stream that can still tell its client why it ends (an SSE error event). */
export interface EndableStream {
  fail(body: unknown): void;
}

/** What a stream still running when the grace period ends sends before its socket is closed. */
export const SHUTDOWN_ERROR = {
  error: {
    message:
      'The gateway shut down before the answer was complete; the answer is incomplete. Retry the request.',
    type: 'server_error',
    param: null,
    code: 'server_shutting_down',
  },
};

/**
 * A bounded graceful shutdown: when the application closes, requests in flight (long streams
 * included) get `graceMs` to finish; then every stream still running gets an error event (so no
 * client takes a cut stream for a whole answer), and every connection left, idle keep-alive
 * sockets included, is closed so the process can exit.
 */
export class ShutdownGrace implements BeforeApplicationShutdown, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private readonly streams = new Set<EndableStream>();

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly graceMs: number,
  ) {}

  /** Registers a running stream; call the returned function when it ends. */
  track(stream: EndableStream): () => void {
    this.streams.add(stream);
    return () => this.streams.delete(stream);
  }

  beforeApplicationShutdown(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server) return;
    this.timer = setTimeout(() => {
      for (const stream of this.streams) stream.fail(SHUTDOWN_ERROR);
      this.streams.clear();
      server.closeAllConnections();
    }, this.graceMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearTimeout(this.timer);
  }
}
