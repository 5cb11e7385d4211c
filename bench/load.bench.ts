/**
 * Load and soak: 10,000 requests, 100 at a time, half of them streamed, through the demo gateway
 * over HTTP to fake providers with 30 % of the provider calls faulty and one provider down. Every
 * request must end in a whole answer or a clear error (never a hang, never a truncated success),
 * and the heap after the run must stay within 10 % of the heap after warm-up. The baseline is
 * the same load in the same run against a healthy provider. One more client sends only hostile
 * bodies (the fuzz test's corpus) meanwhile: none may get a 5xx or hang.
 *
 *   npm run bench -- load
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { FakeProvider } from '../src/testing/index.js';
import { mb, settledMemory, type MemorySnapshot } from './lib/heap.js';
import { startHostileClient, type HostileResult } from './lib/hostile-client.js';
import { percentile, runLoad, type LoadResult } from './lib/load-client.js';
import { startLoadGateway, type LoadGateway, type LoadModel } from './lib/load-gateway.js';
import { printTable, ratio } from './lib/measure.js';
import { faultShare, type FaultMix } from './lib/random-faults.js';
import { seededRandom } from './lib/seeded-random.js';

const REQUESTS = 10_000;
const WARMUP = 2_000;
const CONCURRENCY = 100;
const BOUND_MS = 15_000;
const TEXT = 'Summarise the incident report in two sentences';
const ANSWER = /^You said: Summarise the incident report in two sentences \(model [\w-]+\)$/;

/** 30 % of provider calls: errors before output, timeouts, and failures in mid-stream. */
const FAULTS: FaultMix = [
  ['fault-503', 0.05],
  ['fault-500', 0.03],
  ['fault-429-retry-after-ms-20', 0.03],
  ['fault-429', 0.02],
  ['fault-reset', 0.03],
  ['fault-hang', 0.01],
  ['fault-slow-first-token-3000', 0.01],
  ['fault-cut-after-3', 0.04],
  ['fault-stall-after-3', 0.01],
  ['fault-error-after-3', 0.02],
  ['fault-malformed-chunk', 0.02],
  ['fault-no-done-open', 0.02],
  ['fault-context-length', 0.01],
];

export async function run(): Promise<void> {
  const provider = await FakeProvider.start();
  // a provider that is down: its port refuses connections
  const gone = await FakeProvider.start();
  const downURL = gone.openaiBaseURL;
  await gone.close();
  const random = seededRandom(20_261_129);

  const healthy: LoadModel[] = [
    { name: 'alpha', baseURL: provider.openaiBaseURL },
    { name: 'beta', baseURL: provider.openaiBaseURL },
  ];
  const faulty: LoadModel[] = [
    { name: 'down', baseURL: downURL },
    { name: 'alpha', baseURL: provider.openaiBaseURL, faults: FAULTS },
    { name: 'beta', baseURL: provider.openaiBaseURL, faults: FAULTS },
  ];

  let gateway: LoadGateway | undefined;
  try {
    gateway = await startLoadGateway(healthy, random);
    await load(gateway, WARMUP);
    const baseline = await load(gateway, REQUESTS);
    await gateway.app.close();

    gateway = await startLoadGateway(faulty, random);
    await load(gateway, WARMUP);
    provider.requests.clear(); // the fixture's log is not the gateway's memory
    const warm = await settledMemory();
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    // one more client beside the load, sending only hostile bodies (the fuzz test's corpus)
    const hostileClient = startHostileClient(new URL(gateway.baseURL).origin, BOUND_MS);
    const result = await load(gateway, REQUESTS);
    const hostile = await hostileClient.stop();
    lag.disable();
    provider.requests.clear();
    const after = await settledMemory();
    report(baseline, result, hostile, warm, after, lag);
  } finally {
    await gateway?.app.close();
    await provider.close();
  }
}

function load(gateway: LoadGateway, requests: number): Promise<LoadResult> {
  return runLoad({
    baseURL: gateway.baseURL,
    model: 'main',
    text: TEXT,
    requests,
    concurrency: CONCURRENCY,
    streamShare: 0.5,
    boundMs: BOUND_MS,
    answer: ANSWER,
  });
}

const errorCount = (r: LoadResult) => [...r.errors.values()].reduce((sum, count) => sum + count, 0);
const breakdown = (r: LoadResult) =>
  [...r.errors.entries()]
    .toSorted()
    .map(([label, count]) => `${label}: ${count}`)
    .join(', ');

function report(
  baseline: LoadResult,
  result: LoadResult,
  hostile: HostileResult,
  warm: MemorySnapshot,
  after: MemorySnapshot,
  lag: IntervalHistogram,
): void {
  const rps = (r: LoadResult) => (REQUESTS / r.durationMs) * 1000;
  const share = `${Math.round(faultShare(FAULTS) * 100)} %`;
  const heapRatio = after.heapUsed / warm.heapUsed;

  printTable(
    `Load and soak: ${REQUESTS.toLocaleString('en')} requests, ${CONCURRENCY} concurrent, half streamed, through the gateway (${share} of provider calls faulty, one provider down)`,
    [
      {
        benchmark: 'throughput',
        figure: `${rps(result).toFixed(0)} req/s`,
        baseline: `${rps(baseline).toFixed(0)} req/s healthy provider`,
        ratio: ratio(rps(result), rps(baseline)),
      },
      {
        benchmark: 'latency p50 / p99',
        figure: `${percentile(result.latencies, 50).toFixed(0)} / ${percentile(result.latencies, 99).toFixed(0)} ms`,
        baseline: `${percentile(baseline.latencies, 50).toFixed(0)} / ${percentile(baseline.latencies, 99).toFixed(0)} ms`,
        ratio: ratio(percentile(result.latencies, 99), percentile(baseline.latencies, 99)),
      },
      {
        benchmark: 'whole answers',
        figure: `${result.answers}`,
        baseline: `${baseline.answers}`,
        ratio: '–',
      },
      {
        benchmark: 'clear errors',
        figure: `${errorCount(result)}${errorCount(result) ? ` (${breakdown(result)})` : ''}`,
        baseline: `${errorCount(baseline)}`,
        ratio: '–',
      },
      {
        benchmark: `hangs (no answer within ${BOUND_MS / 1000} s)`,
        figure: `${result.hangs}`,
        baseline: `${baseline.hangs}`,
        ratio: '–',
      },
      {
        benchmark: 'truncated or unclear outcomes',
        figure: `${result.bad}`,
        baseline: `${baseline.bad}`,
        ratio: '–',
      },
      {
        benchmark: 'hostile bodies (1 more client, beside the load)',
        figure:
          `${hostile.sent} sent: ${hostile.refused} × 4xx, ${hostile.serverErrors} × 5xx, ` +
          `${hostile.hangs} hangs, largest answer ${hostile.largestAnswerBytes} B`,
        baseline: '0 × 5xx, 0 hangs',
        ratio: '–',
      },
      {
        // one process plays client, gateway and providers: a stall longer than a stream's idle
        // bound (1 s) times out every stream in flight, and explains a run with more errors
        benchmark: 'event-loop delay p99 / max (whole process)',
        figure: `${(lag.percentile(99) / 1e6).toFixed(0)} / ${(lag.max / 1e6).toFixed(0)} ms`,
        baseline: '–',
        ratio: '–',
      },
      {
        benchmark: 'heap used after GC: after the run',
        figure: mb(after.heapUsed),
        baseline: `${mb(warm.heapUsed)} after warm-up`,
        ratio: ratio(after.heapUsed, warm.heapUsed),
      },
      {
        benchmark: 'RSS: after the run',
        figure: mb(after.rss),
        baseline: `${mb(warm.rss)} after warm-up`,
        ratio: ratio(after.rss, warm.rss),
      },
    ],
  );
  const reasons = [...result.reasons.entries()].toSorted((a, b) => b[1] - a[1]).slice(0, 5);
  if (reasons.length > 0) console.log('\nMost frequent clear errors (numbers masked):');
  for (const [reason, count] of reasons) console.log(`  ${count} × ${reason.slice(0, 300)}`);
  for (const sample of [...baseline.badSamples, ...result.badSamples]) {
    console.log(`  unclear outcome: ${sample}`);
  }
  const accounted = result.answers + errorCount(result) + result.hangs + result.bad === REQUESTS;
  const ok =
    accounted &&
    result.hangs === 0 &&
    result.bad === 0 &&
    hostile.serverErrors === 0 &&
    hostile.hangs === 0 &&
    baseline.answers === REQUESTS &&
    heapRatio <= 1.1;
  console.log(
    ok
      ? '\nPASS: every request ended in a whole answer or a clear error; no hang; heap within 10 % of warm-up.'
      : '\nFAIL: see the table (hangs, unclear outcomes, baseline errors or heap growth above 10 %).',
  );
  if (!ok) process.exitCode = 1;
}
