import { type BeforeApplicationShutdown, type OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';

/**
 * A bounded graceful shutdown: when the application closes, requests in flight (long streams
 * included) get `graceMs` to finish; then every connection left, idle keep-alive sockets
 * included, is closed so the process can exit.
 */
export class ShutdownGrace implements BeforeApplicationShutdown, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly graceMs: number,
  ) {}

  beforeApplicationShutdown(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server) return;
    this.timer = setTimeout(() => server.closeAllConnections(), this.graceMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearTimeout(this.timer);
  }
}
