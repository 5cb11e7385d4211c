/**
 * The gateway's CPU per request against a baseline tree's, both in this one process and measured
 * in interleaved batches, so that the machine changing speed from minute to minute (which moves
 * two gateways measured one after the other by ±10–30 %) affects both alike. Runs only with a
 * baseline:
 *
 *   BENCH_BASELINE_GATEWAY=/tmp/gw-base npm run bench -- gateway-cpu
 *     (a built tree: its apps/gateway/dist/create-gateway-app.js, `npm run build:gateway` there)
 *
 * Requests go through Fastify's `inject` (no client sockets) to an upstream in this process that
 * answers at once, so the figure is the gateway's own work plus one loopback HTTP call each.
 */
import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeGatewayConfig } from './lib/bench-gateway-config.js';
import { batchesAgainstBaseline, printTable, type Row } from './lib/measure.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
/** Calls per batch (BENCH_BATCH): smaller batches pair the two trees' minutes more closely. */
const BATCH = Number(process.env.BENCH_BATCH ?? 100);

/** What the benches drive: Fastify's `inject`, no socket. */
export interface Injector {
  inject(request: {
    method: 'POST';
    url: string;
    headers: Record<string, string>;
    payload: string;
  }): Promise<{ statusCode: number; body: string; headers: Record<string, unknown> }>;
  ready(): Promise<unknown>;
}

const ANSWER = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1,
  model: 'bench-model',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Paris.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
});

const chunk = (fields: object) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'bench-model', ...fields })}\n\n`;
/** The same answer as SSE events (`stream: true`): two text deltas, the finish, the usage. */
const STREAMED = [
  chunk({
    choices: [{ index: 0, delta: { role: 'assistant', content: 'Par' }, finish_reason: null }],
  }),
  chunk({ choices: [{ index: 0, delta: { content: 'is.' }, finish_reason: null }] }),
  chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
  chunk({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } }),
  'data: [DONE]\n\n',
].join('');

export async function startUpstream(): Promise<Server> {
  const server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      if (Buffer.concat(parts).includes('"stream":true')) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(STREAMED);
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(ANSWER);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

export interface Gateway {
  fastify: Injector;
  close(): Promise<unknown>;
}

export async function loadGateway(modulePath: string, config: string): Promise<Gateway> {
  type Create = (options: { config: string; logger: false }) => Promise<{
    init(): Promise<unknown>;
    close(): Promise<unknown>;
    getHttpAdapter(): { getInstance(): Injector };
  }>;
  const { createGatewayApp } = (await import(pathToFileURL(modulePath).href)) as {
    createGatewayApp: Create;
  };
  const app = await createGatewayApp({ config, logger: false });
  await app.init();
  const fastify = app.getHttpAdapter().getInstance();
  await fastify.ready();
  return { fastify, close: () => app.close() };
}

let unique = 0;
/**
 * CPU µs per request over `count` sequential requests; `fresh` asks a question never asked before
 * (a cache miss every time), `expect` checks the answer's `x-model-router-cache`, `stream` asks
 * for the answer as SSE events (and checks that it ends with `[DONE]`).
 */
export async function cpuPerRequest(
  { fastify }: { fastify: Injector },
  model: string,
  count: number,
  fresh = false,
  expect?: string,
  stream = false,
): Promise<number> {
  const fixed = JSON.stringify({
    model,
    messages: [{ role: 'user', content: 'What is the capital of France?' }],
    ...(stream ? { stream: true } : {}),
  });
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const payload = fresh
      ? JSON.stringify({
          model,
          messages: [{ role: 'user', content: `What is the capital of France? ${++unique}` }],
        })
      : fixed;
    const response = await fastify.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    if (response.statusCode !== 200) throw new Error(`${model}: ${response.body.slice(0, 200)}`);
    if (stream && !response.body.endsWith('data: [DONE]\n\n')) {
      throw new Error(`${model}: the stream did not end with [DONE]: ${response.body.slice(-200)}`);
    }
    if (expect !== undefined && response.headers['x-model-router-cache'] !== expect) {
      throw new Error(
        `expected a cache ${expect}, got ${String(response.headers['x-model-router-cache'])}`,
      );
    }
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
}

export async function run(): Promise<void> {
  const baselineRoot = process.env.BENCH_BASELINE_GATEWAY;
  if (!baselineRoot) {
    console.log('\ngateway-cpu: set BENCH_BASELINE_GATEWAY to a built tree to compare with');
    return;
  }
  const upstream = await startUpstream();
  const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const config = writeGatewayConfig(origin);
  const current = await loadGateway(
    join(here, '../apps/gateway/src/create-gateway-app.js'),
    config,
  );
  // both trees register the same Prometheus metric names in prom-client's global registry
  const promClient = (await import('prom-client')).default;
  promClient.register.clear();
  const baseline = await loadGateway(
    join(baselineRoot, 'apps/gateway/dist/create-gateway-app.js'),
    config,
  );
  const rows: Row[] = [];
  for (const [label, model, stream] of [
    ['`provider/model-id`', 'up/bench-model', false],
    ['router `auto`', 'auto', false],
    ['`provider/model-id`, streamed', 'up/bench-model', true],
    ['router `auto`, streamed', 'auto', true],
  ] as const) {
    const batch = (gateway: Gateway, count: number) =>
      cpuPerRequest(gateway, model, count, false, undefined, stream);
    await batch(current, 4 * BATCH); // JIT warm-up
    await batch(baseline, 4 * BATCH);
    rows.push(
      await batchesAgainstBaseline(
        `CPU per request, ${label} (median of ${ROUNDS} interleaved batches of ${BATCH})`,
        () => batch(current, BATCH),
        () => batch(baseline, BATCH),
        ROUNDS,
        0,
      ),
    );
  }
  printTable('Gateway CPU per request, interleaved against a baseline tree', rows);
  await Promise.all([current.close(), baseline.close()]);
  upstream.close();
}
