import type { IncomingMessage, ServerResponse } from 'node:http';

const MAX_BODY_BYTES = 20 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error(`request body larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function headerRecord(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined)
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** The API key a client presented: `x-api-key` (Anthropic) or `Authorization: Bearer` (OpenAI). */
export function presentedKey(headers: Record<string, string>): string | undefined {
  if (headers['x-api-key']) return headers['x-api-key'];
  const match = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '');
  return match?.[1];
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}

/** True once the client went away or the response was destroyed. */
export function isGone(res: ServerResponse): boolean {
  return res.destroyed || res.socket === null || res.socket.destroyed;
}

/** Writes and waits until the data is handed to the socket; `false` if the client is gone. */
export function writeFlushed(res: ServerResponse, data: string): Promise<boolean> {
  if (isGone(res)) return Promise.resolve(false);
  return new Promise((resolve) => {
    res.write(data, (error) => resolve(!error && !isGone(res)));
  });
}
