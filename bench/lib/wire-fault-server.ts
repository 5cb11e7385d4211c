import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { completion, reply, WIRE_PLAYS } from './wire-fault-plays.js';

/**
 * An OpenAI-dialect upstream written on raw TCP, for the faults an HTTP server library will not
 * send: bodies longer or shorter than their `content-length`, trickled or oversized headers, a
 * redirect, a corrupt `gzip` body, invalid UTF-8, a BOM, odd SSE framing. The fault is the end of
 * the model id (`s31-a-empty-choices`; `…-once`: only the first time); keep-alive is kept, as a
 * real server keeps it.
 *
 * A redirect points at `/stolen` here, which records every request that arrives there (a client
 * that follows it would bring the key along).
 */
export class WireFaultServer {
  /** The `authorization` headers of the requests that followed a redirect to `/stolen`. */
  readonly stolen: string[] = [];
  private readonly sockets = new Set<Socket>();
  /** The models asked for so far (for the `-once` faults). */
  private readonly seen = new Set<string>();

  private constructor(
    private readonly server: Server,
    private readonly refuseOverBytes: number,
  ) {}

  /**
   * `refuseOverBytes`: a request body over it is refused as a proxy in front of a model server
   * refuses it (nginx's `client_max_body_size`): 413 as soon as the headers are in, and the
   * connection closed without reading the body (the client's unread bytes make that a reset).
   */
  static async start({ refuseOverBytes = Infinity } = {}): Promise<WireFaultServer> {
    const server = createServer();
    const wire = new WireFaultServer(server, refuseOverBytes);
    server.on('connection', (socket) => wire.serve(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return wire;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Reads requests off the socket one after another (keep-alive), answering each. */
  private serve(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let pending = Buffer.alloc(0);
    socket.on('data', (data: Buffer) => {
      pending = Buffer.concat([pending, data]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end === -1) return;
        const head = pending.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (length > this.refuseOverBytes) {
          const refusal =
            '{"error":{"message":"413 Request Entity Too Large","type":"invalid_request_error"}}';
          reply(socket, 413, 'application/json', refusal, ['connection: close']);
          socket.destroy();
          return;
        }
        if (pending.length < end + 4 + length) return;
        const body = pending.subarray(end + 4, end + 4 + length).toString();
        pending = pending.subarray(end + 4 + length);
        this.answer(socket, head, body);
      }
    });
  }

  private answer(socket: Socket, head: string, body: string): void {
    const path = head.split(' ')[1] ?? '';
    if (path.includes('/stolen')) {
      this.stolen.push(/\r\nauthorization:\s*([^\r]*)/i.exec(head)?.[1] ?? '(none)');
      reply(socket, 200, 'application/json', completion('stolen', 'the key was sent to /stolen'));
      return;
    }
    const request = JSON.parse(body) as { model: string; stream?: boolean };
    // `…-once`: the fault the first time, a whole answer after
    const once = request.model.endsWith('-once');
    const seen = this.seen.has(request.model);
    this.seen.add(request.model);
    const spec = once && seen ? 'answer' : request.model.replace(/-once$/, '');
    const fault = WIRE_PLAYS.find(([suffix]) => spec.endsWith(suffix));
    if (!fault) {
      reply(socket, 404, 'application/json', '{"error":{"message":"unknown wire fault"}}');
      return;
    }
    fault[1](socket, request.model, this.origin, request.stream === true);
  }
}

/**
 * A server that accepts connections and never reads from them: a request larger than the
 * socket buffers (a long prompt) blocks its sender on a full TCP window, and no answer comes.
 */
export async function startDeafServer(): Promise<{ origin: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer({ pauseOnConnect: true }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
