/**
 * The gateway's CPU per request with the library's OpenTelemetry tracing in four states, measured
 * in interleaved batches in one process (one gateway, one upstream answering at once):
 *
 * - none: no routing tracer installed (the library without `@opentelemetry/api`);
 * - off: the tracer installed, as the module does whenever the API resolves, but no SDK
 *   registered (the gateway without `OTEL_*` variables): the API's no-op tracer;
 * - context: only the SDK's AsyncLocalStorage context manager and W3C propagator (no tracer or
 *   meter provider), to tell the context manager's share of `on` from the spans';
 * - on: an SDK registered as the gateway's `startTelemetry` does (tracer provider with a batch
 *   processor, AsyncLocalStorage context, W3C propagator, a meter provider), exporting to an
 *   exporter that drops the batches, so that the figure is the spans' cost, not the network's.
 *
 *   npm run bench -- tracing          (BENCH_ROUNDS=10 for a short run)
 */
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { installRoutingTracer } from 'nest-model-router/core';
import { OtelRoutingTracer } from 'nest-model-router/otel';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuPerRequest, loadGateway, startUpstream } from './gateway-cpu.bench.js';
import { writeGatewayConfig } from './lib/bench-gateway-config.js';
import { median, printTable, type Row } from './lib/measure.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const BATCH = 200;

/** Takes every batch and drops it: the export's network is not the library's cost. */
class DroppingExporter implements SpanExporter {
  export(_spans: ReadableSpan[], done: (result: { code: 0 }) => void): void {
    done({ code: 0 });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

class IdleReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

type Mode = 'none' | 'off' | 'context' | 'on';
const MODES = ['none', 'off', 'context', 'on'] as const;

/** Unregisters every global the SDK registered (a fresh start for the next batch's mode). */
function unregisterSdk(): void {
  trace.disable();
  metrics.disable();
  propagation.disable();
  context.disable();
}

function sdk() {
  const contextManager = new AsyncLocalStorageContextManager();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(new DroppingExporter())],
  });
  const meterProvider = new MeterProvider({ readers: [new IdleReader()] });
  // one tracer for every batch, as a process has: switching objects would deoptimise the hooks
  const tracer = new OtelRoutingTracer({ captureMessageContent: false });
  return {
    set(mode: Mode): void {
      unregisterSdk();
      installRoutingTracer(mode === 'none' ? undefined : tracer);
      if (mode === 'none' || mode === 'off') return;
      context.setGlobalContextManager(contextManager.enable());
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
      if (mode === 'context') return;
      trace.setGlobalTracerProvider(tracerProvider);
      metrics.setGlobalMeterProvider(meterProvider);
    },
    shutdown: () => Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]),
  };
}

function quartiles(values: number[]): string {
  const sorted = values.toSorted((x, y) => x - y);
  const at = (q: number) => sorted[Math.floor(q * (sorted.length - 1))]!.toFixed(3);
  return `${at(0.25)}–${at(0.75)}`;
}

export async function run(): Promise<void> {
  const upstream = await startUpstream();
  const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const gateway = await loadGateway(
    join(here, '../apps/gateway/src/create-gateway-app.js'),
    writeGatewayConfig(origin),
  );
  const tracing = sdk();
  const rows: Row[] = [];
  for (const [label, model] of [
    ['`provider/model-id`', 'up/bench-model'],
    ['router `auto`', 'auto'],
  ] as const) {
    const cpu: Record<Mode, number[]> = { none: [], off: [], context: [], on: [] };
    const offRatios: number[] = [];
    const contextRatios: number[] = [];
    const onRatios: number[] = [];
    for (const mode of MODES) {
      tracing.set(mode);
      await cpuPerRequest(gateway, model, 3 * BATCH); // JIT warm-up
    }
    for (let round = 0; round < ROUNDS; round++) {
      // rotate the order, so that no mode always runs on a warmer or cooler moment
      const order = MODES.map((_, i, all) => all[(i + round) % all.length]!);
      const figure: Partial<Record<Mode, number>> = {};
      for (const mode of order) {
        tracing.set(mode);
        figure[mode] = await cpuPerRequest(gateway, model, BATCH);
        cpu[mode].push(figure[mode]);
      }
      offRatios.push(figure.off! / figure.none!);
      contextRatios.push(figure.context! / figure.off!);
      onRatios.push(figure.on! / figure.off!);
    }
    rows.push({
      benchmark: `CPU per request, ${label}, tracer installed, no SDK (off)`,
      figure: `${median(cpu.off).toFixed(0)} µs`,
      baseline: `${median(cpu.none).toFixed(0)} µs (no tracer)`,
      ratio: `${median(offRatios).toFixed(3)}× (quartiles ${quartiles(offRatios)})`,
    });
    rows.push({
      benchmark: `CPU per request, ${label}, the SDK's context manager alone`,
      figure: `${median(cpu.context).toFixed(0)} µs`,
      baseline: `${median(cpu.off).toFixed(0)} µs (off)`,
      ratio: `${median(contextRatios).toFixed(3)}× (quartiles ${quartiles(contextRatios)})`,
    });
    rows.push({
      benchmark: `CPU per request, ${label}, SDK recording every span (on)`,
      figure: `${median(cpu.on).toFixed(0)} µs`,
      baseline: `${median(cpu.off).toFixed(0)} µs (off)`,
      ratio: `${median(onRatios).toFixed(3)}× (quartiles ${quartiles(onRatios)})`,
    });
  }
  tracing.set('none');
  printTable(
    `Gateway CPU per request with tracing none / off / context / on (median of ${ROUNDS} interleaved batches of ${BATCH})`,
    rows,
  );
  await tracing.shutdown();
  await gateway.close();
  upstream.close();
}
