import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of Redis, so a test can cut off (or stall) one replica while Redis stays
 * up for the others: a network partition rather than a crash.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private mode: 'open' | 'cut' | 'stalled' = 'open';

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number): Promise<TcpProxy> {
    let proxy: TcpProxy | undefined;
    const server = createServer((client) => proxy!.accept(client, targetPort));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    proxy = new TcpProxy(server, typeof address === 'object' && address ? address.port : 0);
    return proxy;
  }

  /** Drops every connection and refuses new ones until `heal()`. */
  cut(): void {
    this.mode = 'cut';
    for (const socket of this.sockets) socket.destroy();
  }

  /** Keeps connections open but forwards nothing: Redis seems to hang. */
  stall(): void {
    this.mode = 'stalled';
    for (const socket of this.sockets) socket.pause();
  }

  heal(): void {
    const wasStalled = this.mode === 'stalled';
    this.mode = 'open';
    if (wasStalled) for (const socket of this.sockets) socket.resume();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket, targetPort: number): void {
    if (this.mode === 'cut') {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.sockets.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        this.sockets.delete(from);
        to.destroy();
      });
      if (this.mode === 'stalled') from.pause();
    }
  }
}
