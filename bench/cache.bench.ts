/**
 * The response cache (issue 26), every figure against a baseline measured in this run:
 * - CPU per request through the gateway: a cache hit, against the floor forwarder (Fastify +
 *   undici, in this process) and against a miss (the router, the upstream call, the store);
 * - a hit from the Redis store against one from the memory store (wall-clock median, loopback);
 * - a semantic lookup (embedding the question, dot products, guard) over 10,000 cached questions.
 * Requests go through Fastify's `inject` to an upstream in this process that answers at once, so
 * the floor and a miss include the upstream's work, and a hit has none to do.
 *
 *   npm run bench -- cache
 */
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createGatewayApp } from '../apps/gateway/src/create-gateway-app.js';
import { ResponseCache } from '../src/core/cache/response-cache.js';
import { MemoryResponseCacheStore } from '../src/nest/cache/memory-response-cache-store.js';
import { WordVectorEmbeddingModel } from '../src/embedded/word-vector-embedding-model.js';
import { isRedisServerAvailable, startRedisServer } from '../test/support/redis-server.js';
import { writeGatewayConfig } from './lib/bench-gateway-config.js';
import { seededRandom } from './lib/seeded-random.js';
import { median, printTable, type Row } from './lib/measure.js';
import { cpuPerRequest, startUpstream, type Injector } from './gateway-cpu.bench.js';
import { floorForwarderApp } from './lib/floor-forwarder-app.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const BATCH = 200;

/** The floor forwarder of bench/servers/floor-forwarder.ts, in this process. */
async function floorForwarder(origin: string) {
  const floor = floorForwarderApp(origin, 16);
  await floor.app.ready();
  return { fastify: floor.app as unknown as Injector, close: floor.close };
}

async function gateway(configPath: string) {
  // each gateway its own registry: two in one process would register the same metric names
  const { Registry } = (await import('prom-client')).default;
  const app = await createGatewayApp({
    config: configPath,
    logger: false,
    metricsRegistry: new Registry(),
  });
  await app.init();
  const fastify = app.getHttpAdapter().getInstance() as unknown as Injector;
  await fastify.ready();
  return { fastify, close: () => app.close() };
}

function withCache(origin: string, cacheYaml: string): string {
  const path = writeGatewayConfig(origin);
  writeFileSync(path, `${readFileSync(path, 'utf8')}\n${cacheYaml}\n`);
  return path;
}

/** Wall-clock µs per request (a Redis round trip is waiting, not CPU). */
async function wallPerRequest(target: { fastify: Injector }, count: number): Promise<number> {
  const start = performance.now();
  await cpuPerRequest(target, 'auto', count, false, 'hit');
  return ((performance.now() - start) * 1000) / count;
}

const quartiles = (values: number[]) => {
  const sorted = values.toSorted((a, b) => a - b);
  return `${sorted[Math.floor(values.length / 4)]!.toFixed(2)}–${sorted[Math.floor((3 * values.length) / 4)]!.toFixed(2)}`;
};

async function hitAgainstFloorAndMiss(origin: string, rows: Row[]): Promise<void> {
  const floor = await floorForwarder(origin);
  const cached = await gateway(withCache(origin, 'cache: { ttl: 1h }'));
  try {
    await cpuPerRequest(floor, 'bench-model', 4 * BATCH);
    await cpuPerRequest(cached, 'auto', 4 * BATCH);
    await cpuPerRequest(cached, 'auto', 4 * BATCH, true);
    const hit: number[] = [];
    const floors: number[] = [];
    const miss: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      hit.push(await cpuPerRequest(cached, 'auto', BATCH, false, 'hit'));
      floors.push(await cpuPerRequest(floor, 'bench-model', BATCH));
      miss.push(await cpuPerRequest(cached, 'auto', BATCH, true, 'miss'));
    }
    const toFloor = hit.map((h, i) => h / floors[i]!);
    const toMiss = miss.map((m, i) => m / hit[i]!);
    rows.push({
      benchmark: `CPU per request, a hit through the gateway vs the floor forwarder (median of ${ROUNDS} batches of ${BATCH})`,
      figure: `${median(hit).toFixed(0)} µs`,
      baseline: `floor ${median(floors).toFixed(0)} µs`,
      ratio: `${median(toFloor).toFixed(2)}× floor (quartiles ${quartiles(toFloor)}; goal ≤ 1.3×)`,
    });
    rows.push({
      benchmark: 'CPU per request, a miss (router, upstream call, store) vs a hit',
      figure: `${median(miss).toFixed(0)} µs`,
      baseline: `hit ${median(hit).toFixed(0)} µs`,
      ratio: `${median(toMiss).toFixed(2)}× a hit (quartiles ${quartiles(toMiss)}; goal ≥ 5×)`,
    });
  } finally {
    await floor.close();
    await cached.close();
  }
}

async function redisAgainstMemory(origin: string, rows: Row[]): Promise<void> {
  if (!isRedisServerAvailable()) {
    rows.push({
      benchmark: 'Redis hit vs memory hit',
      figure: 'skipped: redis-server is not installed',
      baseline: '–',
      ratio: '–',
    });
    return;
  }
  const server = await startRedisServer();
  const memory = await gateway(withCache(origin, 'cache: { ttl: 1h }'));
  const redis = await gateway(
    withCache(
      origin,
      `state: { type: redis, url: '${server.url}' }\ncache: { store: redis, ttl: 1h }`,
    ),
  );
  try {
    await cpuPerRequest(memory, 'auto', 2 * BATCH);
    await cpuPerRequest(redis, 'auto', 2 * BATCH);
    const added: number[] = [];
    const memoryHits: number[] = [];
    const redisHits: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const m = await wallPerRequest(memory, BATCH);
      const r = await wallPerRequest(redis, BATCH);
      memoryHits.push(m);
      redisHits.push(r);
      added.push(r - m);
    }
    rows.push({
      benchmark: 'Wall time of a hit, Redis store (loopback) vs memory store',
      figure: `${median(redisHits).toFixed(0)} µs`,
      baseline: `memory ${median(memoryHits).toFixed(0)} µs`,
      ratio: `+${(median(added) / 1000).toFixed(3)} ms (goal ≤ +1 ms)`,
    });
  } finally {
    await memory.close();
    await redis.close();
    await server.stop();
  }
}

async function semanticLookup(rows: Row[]): Promise<void> {
  const embeddings = new WordVectorEmbeddingModel().preload();
  const cache = new ResponseCache({
    store: new MemoryResponseCacheStore({ maxEntries: 20_000 }),
    embeddings,
    maxSemanticEntries: 20_000,
  });
  const settings = { ttlMs: 3_600_000, semantic: { threshold: 0.95 } };
  const words =
    'river mountain city language history music science market garden winter ocean bridge library engine harvest painting recipe planet forest poem'.split(
      ' ',
    );
  const random = seededRandom(26);
  const question = () =>
    `what about the ${Array.from({ length: 5 }, () => words[Math.floor(random() * words.length)]).join(' ')}`;
  const answer = {
    response: {
      aiMessage: { role: 'assistant' as const, text: 'ok' },
      finishReason: 'stop' as const,
    },
    storedAt: 0,
  };
  for (let i = 0; i < 10_000; i++) {
    await cache.save(
      cache.plan(
        { messages: [{ role: 'user', content: `${question()} ${'again '.repeat(i % 7)}`.trim() }] },
        'auto',
        undefined,
        settings,
      ),
      answer,
    );
  }
  // the baseline: the same lookup with one cached question (the embedding and the exact miss)
  const small = new ResponseCache({ store: new MemoryResponseCacheStore(), embeddings });
  await small.save(
    small.plan({ messages: [{ role: 'user', content: question() }] }, 'auto', undefined, settings),
    answer,
  );
  // CPU time: on a shared machine, wall time measures the neighbours as much as the scan
  const time = async (target: ResponseCache) => {
    const start = process.cpuUsage();
    for (let i = 0; i < 200; i++) {
      await target.lookup(
        target.plan(
          { messages: [{ role: 'user', content: `${question()} please` }] },
          'auto',
          undefined,
          settings,
        ),
      );
    }
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000 / 200;
  };
  await time(cache);
  await time(small);
  const big: number[] = [];
  const one: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    big.push(await time(cache));
    one.push(await time(small));
  }
  rows.push({
    benchmark:
      'CPU per semantic lookup (embed, dot products, guards) over 10,000 questions in one bucket',
    figure: `${median(big).toFixed(3)} ms`,
    baseline: `1 cached question ${median(one).toFixed(3)} ms`,
    ratio: `${(median(big) / median(one)).toFixed(1)}× (goal ≤ 2 ms)`,
  });
}

export async function run(): Promise<void> {
  const upstream = await startUpstream();
  const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const rows: Row[] = [];
  try {
    await hitAgainstFloorAndMiss(origin, rows);
    await redisAgainstMemory(origin, rows);
    await semanticLookup(rows);
  } finally {
    upstream.close();
  }
  printTable('Response cache', rows);
}
