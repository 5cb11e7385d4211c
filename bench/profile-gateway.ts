/**
 * Not a benchmark (no `.bench`): a CPU profile of the gateway under load, for finding where its
 * time goes. Writes a `.cpuprofile` into BENCH_PROFILE_DIR (default the system's temp folder).
 *
 *   npx tsc -p tsconfig.bench.json && node build/bench/profile-gateway.js [model]
 */
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeGatewayConfig } from './lib/bench-gateway-config.js';
import { ChildServer } from './lib/child-server.js';
import { throughput } from './lib/http-load.js';

const here = dirname(fileURLToPath(import.meta.url));
const dir = process.env.BENCH_PROFILE_DIR ?? tmpdir();
const model = process.argv[2] ?? 'up/bench-model';
const stream = process.argv[3] === 'stream';
const upstream = await ChildServer.start('upstream', join(here, 'servers/fake-upstream.js'));
const config = writeGatewayConfig(upstream.origin);
const gateway = await ChildServer.start(
  'gateway',
  join(here, 'servers/gateway-server.js'),
  [join(here, '../apps/gateway/src/create-gateway-app.js'), config],
  ['--cpu-prof', `--cpu-prof-dir=${dir}`],
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
