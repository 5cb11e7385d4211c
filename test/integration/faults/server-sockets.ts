import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

/**
 * Watches the server side of the connections accepted on one port (the fake provider's), through
 * Node's `net.server.socket` diagnostics channel: a test sees a client close its connection from
 * where the provider sits, without any hook in the provider.
 */
export class ServerSockets {
  /** Connections that carried at least one request (a pool may also open idle spares). */
  readonly used = new Set<Socket>();
  private readonly onSocket = (message: unknown) => {
    const socket = (message as { socket: Socket }).socket;
    if (socket.localPort !== this.port) return;
    socket.once('data', () => this.used.add(socket));
  };

  constructor(private readonly port: number) {
    subscribe('net.server.socket', this.onSocket);
  }

  /** Used connections still open on the provider's side. */
  openUsed(): number {
    return [...this.used].filter((socket) => !socket.destroyed).length;
  }

  dispose(): void {
    unsubscribe('net.server.socket', this.onSocket);
  }
}

/** Yields to the event loop until `condition` holds; a condition that never comes fails at the bound. */
export async function until(condition: () => boolean, boundMs = 5_000): Promise<void> {
  const giveUpAt = Date.now() + boundMs;
  while (!condition()) {
    if (Date.now() > giveUpAt) throw new Error(`the condition did not hold within ${boundMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
