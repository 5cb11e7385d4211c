/**
 * The gateway's client-disconnect signal (apps/gateway/src/http/client-disconnect.ts) against a
 * baseline tree's, over real keep-alive HTTP on 127.0.0.1 (Fastify's `inject`, which
 * gateway-cpu drives, has no connection to share a signal across). Two servers in this process,
 * each handler taking its request's signal and making one resilient model call with it, as the
 * gateway does; CPU per request (client and server), interleaved batches. Runs only with a
 * baseline:
 *
 *   BENCH_BASELINE_GATEWAY=/tmp/gw-base npm run bench -- client-disconnect
 */
import { Agent, createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerResponse } from 'node:http';
import { abortOnDisconnect } from '../apps/gateway/src/http/client-disconnect.js';
import { BaseChatModel, withResilience } from '../src/index.js';
import type { ChatResponse } from '../src/index.js';
import { batchesAgainstBaseline, printTable } from './lib/measure.js';

type AbortOnDisconnect = (raw: ServerResponse) => AbortSignal;

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const BATCH = Number(process.env.BENCH_BATCH ?? 200);

class Instant extends BaseChatModel {
  constructor() {
    super({});
  }
  protected doChat(): Promise<ChatResponse> {
    return Promise.resolve({ aiMessage: { role: 'assistant', text: 'ok' }, finishReason: 'stop' });
  }
}
const model = withResilience(new Instant(), { name: 'bench-model' });
const question = { messages: [{ role: 'user' as const, content: 'hi' }] };

async function serve(signalOf: AbortOnDisconnect): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => {
    void model.chat(question, { signal: signalOf(res) }).then((answer) => {
      res.end(answer.aiMessage.text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

function get(agent: Agent, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ port, host: '127.0.0.1', path: '/', agent }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end();
  });
}

async function cpuPerRequest(agent: Agent, port: number, count: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) await get(agent, port);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
}

export async function run(): Promise<void> {
  const baselineRoot = process.env.BENCH_BASELINE_GATEWAY;
  if (!baselineRoot) {
    console.log('\nclient-disconnect: set BENCH_BASELINE_GATEWAY to a built tree to compare with');
    return;
  }
  const baseline = (await import(
    pathToFileURL(join(baselineRoot, 'apps/gateway/dist/http/client-disconnect.js')).href
  )) as { abortOnDisconnect: AbortOnDisconnect };
  const ours = await serve(abortOnDisconnect);
  const theirs = await serve(baseline.abortOnDisconnect);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const batch = (port: number, count: number) => cpuPerRequest(agent, port, count);
  await batch(ours.port, 4 * BATCH); // JIT warm-up
  await batch(theirs.port, 4 * BATCH);
  const row = await batchesAgainstBaseline(
    `CPU per request, one resilient call (median of ${ROUNDS} interleaved batches of ${BATCH})`,
    () => batch(ours.port, BATCH),
    () => batch(theirs.port, BATCH),
    ROUNDS,
  );
  agent.destroy();
  await Promise.all([ours, theirs].map(({ server }) => new Promise((r) => server.close(r))));
  printTable('Client-disconnect signal, keep-alive HTTP, interleaved against a baseline tree', [
    row,
  ]);
}
