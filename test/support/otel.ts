import { afterAll, beforeAll, beforeEach } from '@jest/globals';
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

/** A reader the test collects from when it wants, with no timer. */
class CollectingReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export interface OtelHandle {
  readonly exporter: InMemorySpanExporter;
  spans(): ReadableSpan[];
  /** The histogram data points of `name` recorded so far. */
  points(name: string): Promise<Array<{ attributes: Record<string, unknown>; count: number }>>;
}

/**
 * Registers a real OpenTelemetry SDK for the describe block, as an app's start-up would: a
 * tracer provider with an in-memory exporter, the AsyncLocalStorage context manager, the W3C
 * propagator and a meter provider with a reader the test collects; spans forgotten before each test.
 */
export function useOtelSdk(): OtelHandle {
  const exporter = new InMemorySpanExporter();
  const reader = new CollectingReader();
  const contextManager = new AsyncLocalStorageContextManager();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const meterProvider = new MeterProvider({ readers: [reader] });

  beforeAll(() => {
    context.setGlobalContextManager(contextManager.enable());
    trace.setGlobalTracerProvider(tracerProvider);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    metrics.setGlobalMeterProvider(meterProvider);
  });
  afterAll(async () => {
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
    trace.disable();
    metrics.disable();
    propagation.disable();
    context.disable();
  });
  beforeEach(() => exporter.reset());

  return {
    exporter,
    spans: () => exporter.getFinishedSpans(),
    points: async (name) => {
      const { resourceMetrics } = await reader.collect();
      return pointsOf(resourceMetrics, name);
    },
  };
}

function pointsOf(
  resourceMetrics: ResourceMetrics,
  name: string,
): Array<{ attributes: Record<string, unknown>; count: number }> {
  const found = resourceMetrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .filter((metric) => metric.descriptor.name === name);
  return found.flatMap((metric) =>
    metric.dataPoints.map((point) => ({
      attributes: point.attributes as Record<string, unknown>,
      count: (point.value as { count: number }).count,
    })),
  );
}

/** The children of `parent` among `spans`. */
export function childrenOf(spans: readonly ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  return spans.filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);
}

/** Everything a span carries as text: name, attributes, events, status. */
export function spanText(span: ReadableSpan): string {
  return JSON.stringify({
    name: span.name,
    attributes: span.attributes,
    events: span.events,
    status: span.status,
    links: span.links,
  });
}
