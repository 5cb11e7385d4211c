import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeProvider } from '../../src/testing/index.js';
import { startDeafServer, WireFaultServer } from './wire-fault-server.js';

/**
 * The upstreams of the fault bench, all on 127.0.0.1 in the bench's own process:
 * - `fake`: the project's FakeProvider, faults chosen by the model id (`s05-a-fault-hang`) or
 *   switched at run time (`setFault`);
 * - `steady`: a FakeProvider that pauses 2 s before each token (a slow-but-steady model);
 * - `keyed`: a FakeProvider that wants another key than the gateway sends (401, key echoed);
 * - `raw`: faults the FakeProvider does not play (below);
 * - `dead`: a port nothing listens on (connection refused);
 * - `wire`: faults on raw TCP (wire-fault-server.ts); `wire2` another one, for the faults that
 *   leave a kept-alive connection unusable (so they spoil no other scenario's connection);
 * - `guarded`: a wire server behind a request body limit (413 before reading, then a reset);
 * - `deaf`: accepts connections and never reads a byte of the request.
 */
export interface FaultUpstreams {
  fake: FakeProvider;
  steady: FakeProvider;
  keyed: FakeProvider;
  raw: RawFaultServer;
  deadOrigin: string;
  wire: WireFaultServer;
  wire2: WireFaultServer;
  /** A wire server behind a body limit (GUARDED_BODY_BYTES): over it, 413 and a reset. */
  guarded: WireFaultServer;
  deaf: { origin: string; close(): Promise<void> };
  close(): Promise<void>;
}

/** The key the gateway sends upstream: it must never reach a caller. */
export const UPSTREAM_KEY = 'sk-fault-bench-UPSTREAM-SECRET-0123456789';
/** The gateway sends UPSTREAM_KEY to `keyed` too, which wants this one: a 401 echoing the key. */
const KEYED_WANTS = 'sk-fault-bench-other-key';
/** The request body over which the `guarded` provider answers 413 without reading it. */
export const GUARDED_BODY_BYTES = 1024 * 1024;
/** The pause before each token of the `steady` provider. */
export const STEADY_TOKEN_MS = 2_000;

export async function startFaultUpstreams(): Promise<FaultUpstreams> {
  const fake = await FakeProvider.start();
  const steady = await FakeProvider.start({ tokenDelayMs: STEADY_TOKEN_MS });
  const keyed = await FakeProvider.start({ apiKey: KEYED_WANTS });
  const raw = await RawFaultServer.start();
  const deadOrigin = await freeOrigin();
  const [wire, wire2, guarded, deaf] = await Promise.all([
    WireFaultServer.start(),
    WireFaultServer.start(),
    WireFaultServer.start({ refuseOverBytes: GUARDED_BODY_BYTES }),
    startDeafServer(),
  ]);
  return {
    fake,
    steady,
    keyed,
    raw,
    deadOrigin,
    wire,
    wire2,
    guarded,
    deaf,
    close: async () => {
      await Promise.all([fake.close(), steady.close(), keyed.close(), raw.close()]);
      await Promise.all([wire.close(), wire2.close(), guarded.close(), deaf.close()]);
    },
  };
}

/** An origin whose port was free a moment ago: nothing listens there (connection refused). */
async function freeOrigin(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** The bytes of the oversized stream: one SSE line that never ends. */
export const OVERSIZED_BYTES = 64 * 1024 * 1024;

/**
 * Wire faults chosen by the model id:
 * - `…malformed-json`: 200 `application/json` whose body is cut JSON (not parseable);
 * - `…no-finish`: a stream of three tokens that ends cleanly without finish reason or `[DONE]`;
 * - `…oversized`: a stream whose first `data:` line runs for 64 MiB without a line end;
 * - `…oversized-json`: a valid answer of 96 MiB, chunked (no length said in advance);
 * - `…proxy-html`: a proxy's 502 page (HTML, 240 kB);
 * - `…comments-only`: a stream of SSE comments (`: PROCESSING`) every second, never a token.
 */
export class RawFaultServer {
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<RawFaultServer> {
    const server = createServer();
    const raw = new RawFaultServer(server);
    server.on('connection', (socket) => {
      raw.sockets.add(socket);
      socket.on('close', () => raw.sockets.delete(socket));
    });
    server.on('request', (req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (part: Buffer) => parts.push(part));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(parts).toString()) as { model: string };
        raw.answer(body.model, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return raw;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private answer(model: string, res: ServerResponse): void {
    if (model.endsWith('oversized-json')) {
      writeOversizedJson(res, model);
      return;
    }
    if (model.endsWith('proxy-html')) {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(
        `<html><head><title>502 Bad Gateway</title></head><body>${'<p>nginx</p>'.repeat(20_000)}</body></html>`,
      );
      return;
    }
    if (model.endsWith('malformed-json')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"id":"chatcmpl-raw","object":"chat.completion","choices":[{"index":0,"message":{');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (model.endsWith('no-finish')) {
      for (const word of ['The ', 'answer ', 'is ']) {
        res.write(chunk(model, { content: word }));
      }
      res.end();
      return;
    }
    if (model.endsWith('comments-only')) {
      // "still processing" comments every second, and never a token (until the client leaves)
      const timer = setInterval(() => res.write(': PROCESSING\n\n'), 1_000);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (model.endsWith('oversized')) {
      writeOversized(res, model);
      return;
    }
    res.end(chunk(model, { content: `unknown raw fault ${model}` }));
  }
}

const chunk = (model: string, delta: object) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-raw',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, delta, finish_reason: null }],
  })}\n\n`;

/** Writes one `data:` line of OVERSIZED_BYTES as fast as the client reads, then ends. */
function writeOversized(res: ServerResponse, model: string): void {
  const head = `data: {"id":"chatcmpl-raw","model":"${model}","choices":[{"index":0,"delta":{"content":"`;
  pumpAfter(res, head, OVERSIZED_BYTES, '"}}]}\n\n');
}

/** A whole chat completion whose content is 1.5 × OVERSIZED_BYTES of `x`. */
function writeOversizedJson(res: ServerResponse, model: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const head = `{"id":"chatcmpl-raw","object":"chat.completion","created":1700000000,"model":"${model}","choices":[{"index":0,"message":{"role":"assistant","content":"`;
  const tail =
    '"},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":9,"total_tokens":18}}';
  pumpAfter(res, head, OVERSIZED_BYTES * 1.5, tail);
}

/** Writes `head`, then `bytes` of `x` as fast as the client reads, then `tail`. */
function pumpAfter(res: ServerResponse, head: string, bytes: number, tail: string): void {
  const piece = Buffer.alloc(64 * 1024, 'x');
  let sent = 0;
  const pump = () => {
    while (sent < bytes && !res.destroyed) {
      sent += piece.length;
      if (!res.write(piece)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end(tail);
  };
  res.write(head);
  pump();
}

/**
 * The gateway's YAML: providers `fake`, `steady`, `keyed`, `raw`, `dead` and `anthropic` (the
 * `fake` FakeProvider in the Anthropic dialect), one model per
 * `models` entry (`name: [provider, upstream model id]`) and one failover router per group.
 * Everything else is the defaults, as the external bench runs them.
 */
export function writeFaultConfig(
  upstreams: FaultUpstreams,
  models: Record<string, [provider: string, id: string]>,
  routers: Record<string, string[]>,
): string {
  const origins: Record<string, string> = {
    fake: upstreams.fake.url,
    steady: upstreams.steady.url,
    keyed: upstreams.keyed.url,
    raw: upstreams.raw.origin,
    dead: upstreams.deadOrigin,
    wire: upstreams.wire.origin,
    wire2: upstreams.wire2.origin,
    guarded: upstreams.guarded.origin,
    deaf: upstreams.deaf.origin,
    // a host no resolver knows (RFC 6761), and TLS spoken to a plain-HTTP port
    nodns: 'http://fault-bench.invalid',
    tlsplain: upstreams.fake.url.replace(/^http:/, 'https:'),
  };
  const yaml = [
    'providers:',
    ...Object.entries(origins).map(
      ([name, origin]) =>
        `  ${name}: { type: openai, baseURL: '${origin}/v1', apiKey: ${UPSTREAM_KEY} }`,
    ),
    // the FakeProvider again, in the Anthropic dialect (its own SSE events and errors)
    `  anthropic: { type: anthropic, baseURL: '${upstreams.fake.anthropicBaseURL}', apiKey: ${UPSTREAM_KEY} }`,
    // the wire faults, to the Anthropic dialect's client
    `  wireanthropic: { type: anthropic, baseURL: '${upstreams.wire.origin}', apiKey: ${UPSTREAM_KEY} }`,
    'models:',
    ...Object.entries(models).map(
      ([name, [provider, id]]) => `  ${name}: { provider: ${provider}, model: '${id}' }`,
    ),
    'routers:',
    ...Object.entries(routers).map(
      ([name, members]) => `  ${name}: { models: [${members.join(', ')}], strategy: failover }`,
    ),
    `defaultRouter: ${Object.keys(routers)[0]}`,
    '',
  ].join('\n');
  const file = join(mkdtempSync(join(tmpdir(), 'fault-bench-')), 'model-router.yaml');
  writeFileSync(file, yaml);
  return file;
}
