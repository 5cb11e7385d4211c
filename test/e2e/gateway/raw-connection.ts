import { connect, type Socket } from 'node:net';

/**
 * Writes `request` on a new connection and resolves with everything read until it closes: the
 * bytes as the gateway sent them, for what a client library would hide (a `100 Continue`, a
 * refusal before the body, a connection dropped unanswered). `afterWrite` gets the socket once
 * the request is written (to write a body later, or to keep it open).
 */
export function raw(
  url: string,
  request: string,
  afterWrite?: (socket: Socket) => void,
): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => {
      socket.write(request);
      afterWrite?.(socket);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}
