/**
 * What the demo gateway adds to a call, against the call made directly to the upstream, and
 * against the floor (a bare Fastify + undici forwarder), all measured in this run: a fake
 * upstream answering in tens of microseconds, each server in a process of its own.
 *
 *   npm run bench -- gateway
 *   BENCH_BASELINE_GATEWAY=/tmp/gw-base npm run bench -- gateway   (a built tree to compare with:
 *     its apps/gateway/dist/create-gateway-app.js; build it with `npm run build:gateway` there)
 *
 * Figures: sequential overhead (median, p99) over the direct call after a JIT warm-up; calls
 * per second at 16 connections and the server's CPU time per call; time to the first byte of a
 * stream over the direct call's; resident memory idle, at its peak under load, and after it.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeGatewayConfig } from './lib/bench-gateway-config.js';
import { ChildServer, type ServerStats } from './lib/child-server.js';
import { firstByte, sequential, throughput, type Latency, type Target } from './lib/http-load.js';
import { mb } from './lib/heap.js';
import { printTable, type Row } from './lib/measure.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 16;
const LOAD_MS = Number(process.env.BENCH_LOAD_MS ?? 3_000);

interface Gateway {
  label: string;
  server: ChildServer;
  targets: Target[];
  idle: ServerStats;
  peakRss: number;
  after?: ServerStats;
}

/** How `npm start` runs the gateway: a bounded young generation (see the README, Benchmarks). */
export const GATEWAY_NODE_FLAGS = ['--max-semi-space-size=4'];
/**
 * And its environment: glibc's malloc shares two arenas between the threads (GC helpers, libuv)
 * instead of one per thread, each keeping what a load freed (the README, Benchmarks).
 */
export const GATEWAY_ENV = { MALLOC_ARENA_MAX: '2' };

async function startGateway(
  label: string,
  modulePath: string,
  config: string,
  execArgv: string[],
  env: Record<string, string>,
): Promise<Gateway> {
  const server = await ChildServer.start(
    label,
    join(here, 'servers/gateway-server.js'),
    [modulePath, config],
    execArgv,
    env,
  );
  const idle = await server.quietStats();
  return {
    label,
    server,
    idle,
    peakRss: idle.rss,
    targets: [
      { name: `${label}, provider/model-id`, origin: server.origin, model: 'up/bench-model' },
      { name: `${label}, router auto (decision + failover)`, origin: server.origin, model: 'auto' },
    ],
  };
}

const medianOf = (values: number[]) =>
  values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(3)} ms`;

export async function run(): Promise<void> {
  const upstream = await ChildServer.start('upstream', join(here, 'servers/fake-upstream.js'));
  const floor = await ChildServer.start('floor', join(here, 'servers/floor-forwarder.js'), [
    upstream.origin,
  ]);
  const config = writeGatewayConfig(upstream.origin);
  const gateways = [
    await startGateway(
      'gateway',
      join(here, '../apps/gateway/src/create-gateway-app.js'),
      config,
      GATEWAY_NODE_FLAGS,
      GATEWAY_ENV,
    ),
  ];
  const baselineRoot = process.env.BENCH_BASELINE_GATEWAY;
  if (baselineRoot) {
    gateways.push(
      await startGateway(
        'baseline',
        join(baselineRoot, 'apps/gateway/dist/create-gateway-app.js'),
        config,
        // as its own `npm start` ran it
        [],
        {},
      ),
    );
  }
  const direct: Target = { name: 'direct', origin: upstream.origin, model: 'bench-model' };
  const floorTarget: Target = {
    name: 'floor (Fastify + undici)',
    origin: floor.origin,
    model: 'bench-model',
  };
  const targets = [direct, floorTarget, ...gateways.flatMap((gateway) => gateway.targets)];
  const servers = new Map<string, ChildServer>([[floorTarget.name, floor]]);
  for (const gateway of gateways)
    for (const t of gateway.targets) servers.set(t.name, gateway.server);

  try {
    // the JIT warm-up, every target once; then rounds taking turns, so that noise hits all alike
    for (const target of targets) await sequential(target, { count: 1, warmup: 3_000 });
    for (const target of targets) await firstByte(target, { count: 1, warmup: 500 });
    const latency = new Map<string, Latency[]>();
    const ttfb = new Map<string, Latency[]>();
    const load = new Map<string, { perSecond: number; cpuPerCall?: number }[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of targets) {
        latency.set(target.name, [
          ...(latency.get(target.name) ?? []),
          await sequential(target, { count: 1_000, warmup: 100 }),
        ]);
        ttfb.set(target.name, [
          ...(ttfb.get(target.name) ?? []),
          await firstByte(target, { count: 300, warmup: 20 }),
        ]);
      }
      for (const target of targets) {
        const server = servers.get(target.name);
        const before = await server?.stats();
        const peak = sampleRss(gateways.find((gateway) => gateway.server === server));
        const result = await throughput(target, { connections: CONNECTIONS, durationMs: LOAD_MS });
        peak.stop();
        const after = await server?.stats();
        const cpuPerCall =
          before && after ? (after.cpuMicros - before.cpuMicros) / result.calls : undefined;
        load.set(target.name, [
          ...(load.get(target.name) ?? []),
          { perSecond: result.perSecond, ...(cpuPerCall === undefined ? {} : { cpuPerCall }) },
        ]);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const gateway of gateways) gateway.after = await gateway.server.quietStats();

    const directMedian = medianOf(latency.get(direct.name)!.map((l) => l.medianMs));
    const directP99 = medianOf(latency.get(direct.name)!.map((l) => l.p99Ms));
    const directTtfb = medianOf(ttfb.get(direct.name)!.map((l) => l.medianMs));
    const directRate = medianOf(load.get(direct.name)!.map((l) => l.perSecond));
    const floorOverhead =
      medianOf(latency.get(floorTarget.name)!.map((l) => l.medianMs)) - directMedian;
    const baselineRates = new Map<string, number>();
    const rows: Row[] = [];
    for (const target of targets.slice(1)) {
      const median = medianOf(latency.get(target.name)!.map((l) => l.medianMs)) - directMedian;
      const p99 = medianOf(latency.get(target.name)!.map((l) => l.p99Ms)) - directP99;
      const first = medianOf(ttfb.get(target.name)!.map((l) => l.medianMs)) - directTtfb;
      const rate = medianOf(load.get(target.name)!.map((l) => l.perSecond));
      const cpu = medianOf(load.get(target.name)!.map((l) => l.cpuPerCall ?? 0));
      if (target.name.startsWith('baseline'))
        baselineRates.set(target.name.replace('baseline', 'gateway'), rate);
      rows.push(
        {
          benchmark: `${target.name}: overhead, median`,
          figure: ms(median),
          baseline: `floor ${ms(floorOverhead)}`,
          ratio: `${(median / floorOverhead).toFixed(2)}× floor`,
        },
        {
          benchmark: `${target.name}: overhead, p99`,
          figure: ms(p99),
          baseline: `direct p99 ${ms(directP99)}`,
          ratio: '',
        },
        {
          benchmark: `${target.name}: stream first byte, over direct`,
          figure: ms(first),
          baseline: `direct ${ms(directTtfb)}`,
          ratio: '',
        },
        {
          benchmark: `${target.name}: calls/s at ${CONNECTIONS} connections`,
          figure: rate.toFixed(0),
          baseline: `direct ${directRate.toFixed(0)}`,
          ratio: `${(rate / directRate).toFixed(2)}× direct`,
        },
        {
          benchmark: `${target.name}: server CPU per call`,
          figure: `${cpu.toFixed(0)} µs`,
          baseline: '',
          ratio: '',
        },
      );
    }
    for (const gateway of gateways) {
      const after = gateway.after!;
      rows.push(
        {
          benchmark: `${gateway.label}: RSS idle → peak under load → after (GC'd, settled)`,
          figure: `${mb(gateway.idle.rss)} → ${mb(gateway.peakRss)} → ${mb(after.rss)}`,
          baseline: `idle ${mb(gateway.idle.rss)}`,
          ratio: `${(after.rss / gateway.idle.rss).toFixed(2)}× idle after, ${(gateway.peakRss / gateway.idle.rss).toFixed(2)}× at peak`,
        },
        {
          benchmark: `${gateway.label}: JS heap used idle → after (GC'd, settled)`,
          figure: `${mb(gateway.idle.heapUsed)} → ${mb(after.heapUsed)}`,
          baseline: `idle ${mb(gateway.idle.heapUsed)}`,
          ratio: `${(after.heapUsed / gateway.idle.heapUsed).toFixed(2)}×`,
        },
      );
    }
    // the baseline's rate is measured after the gateway's: put the ratio on the gateway's rows
    for (const row of rows) {
      const name = row.benchmark.replace(/: calls\/s.*$/, '');
      const base = baselineRates.get(name);
      if (base !== undefined && row.benchmark.includes('calls/s'))
        row.ratio += `, ${(Number(row.figure) / base).toFixed(2)}× baseline`;
    }
    printTable(
      `Gateway overhead (fake upstream, direct median ${ms(directMedian)}; ${ROUNDS} rounds, medians)`,
      rows,
    );
  } finally {
    for (const gateway of gateways) gateway.server.stop();
    floor.stop();
    upstream.stop();
  }
}

/** The highest RSS of a gateway while a load runs, sampled every 200 ms. */
function sampleRss(gateway: Gateway | undefined): { stop(): void } {
  if (!gateway) return { stop: () => {} };
  const timer = setInterval(() => {
    void gateway.server.stats().then((stats) => {
      gateway.peakRss = Math.max(gateway.peakRss, stats.rss);
    });
  }, 200);
  return { stop: () => clearInterval(timer) };
}
