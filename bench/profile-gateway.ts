/**
 * Not a benchmark (no `.bench`): a CPU profile of the gateway under load, for finding where its
 * time goes. Writes a `.cpuprofile` into BENCH_PROFILE_DIR (default the system's temp folder).
 *
 *   npx tsc -p tsconfig.bench.json && node build/bench/profile-gateway.js [model] [stream]
 *
 * With BENCH_PROFILE_INJECT=<calls>: that many sequential calls `inject`ed in this process, as
 * `gateway-cpu` makes them, profiled after a warm-up (no sockets, the upstream in this process).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { cpuPerRequest, loadGateway, startUpstream } from './gateway-cpu.bench.js';
import { writeGatewayConfig } from './lib/bench-gateway-config.js';
import { ChildServer } from './lib/child-server.js';
import { throughput } from './lib/http-load.js';

const here = dirname(fileURLToPath(import.meta.url));
const dir = process.env.BENCH_PROFILE_DIR ?? tmpdir();
const model = process.argv[2] ?? 'up/bench-model';
const stream = process.argv[3] === 'stream';
const injected = Number(process.env.BENCH_PROFILE_INJECT ?? 0);
if (injected > 0) {
  const upstream = await startUpstream();
  const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const app = join(here, '../apps/gateway/src/create-gateway-app.js');
  const gateway = await loadGateway(app, writeGatewayConfig(origin));
  await cpuPerRequest(gateway, model, 1_000, false, undefined, stream); // JIT warm-up
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  // a sample every 100 µs: a call is a few hundred µs
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const us = await cpuPerRequest(gateway, model, injected, false, undefined, stream);
  const { profile } = await session.post('Profiler.stop');
  const file = join(dir, `gateway-inject-${Date.now()}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  console.log(`${us.toFixed(0)} µs of CPU a call; profile in ${file}`);
  await gateway.close();
  upstream.close();
  process.exit(0);
}
const upstream = await ChildServer.start('upstream', join(here, 'servers/fake-upstream.js'));
const config = writeGatewayConfig(upstream.origin);
const gateway = await ChildServer.start(
  'gateway',
  join(here, 'servers/gateway-server.js'),
  [join(here, '../apps/gateway/src/create-gateway-app.js'), config],
  // a sample every 100 µs (the default is 1 ms: too coarse for calls of a few hundred µs)
  ['--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${dir}`],
);
const target = { name: 'gateway', origin: gateway.origin, model };
const idle = await gateway.stats(true);
await throughput(target, { connections: 16, durationMs: 2_000, stream });
const result = await throughput(target, { connections: 16, durationMs: 5_000, stream });
const after = await gateway.stats(true);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
console.log(`${result.perSecond.toFixed(0)} calls/s; profile in ${dir}`);
console.log(
  `heap ${mib(idle.heapUsed)} → ${mib(after.heapUsed)}, rss ${mib(idle.rss)} → ${mib(after.rss)}`,
);
await new Promise((resolve) => setTimeout(resolve, 2_000));
const later = await gateway.stats(true);
console.log(`2 s later: heap ${mib(later.heapUsed)}, rss ${mib(later.rss)}`);
if (process.env.BENCH_HEAP_SNAPSHOT) console.log(`heap snapshot: ${await gateway.heapSnapshot()}`);
gateway.stop();
upstream.stop();
