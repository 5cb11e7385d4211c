import { InvalidConfigurationException } from 'nest-model-router';

type Env = Readonly<Record<string, string | undefined>>;

/** The OTLP encodings the gateway exports in; `http/protobuf` is the specification's default. */
const PROTOCOLS = ['http/protobuf', 'http/json'] as const;
type Protocol = (typeof PROTOCOLS)[number];

export interface GatewayTelemetry {
  /** Exports what is buffered (spans, metrics) and stops; resolves when done. */
  shutdown(): Promise<void>;
}

/** Whether the standard variables ask for traces: an OTLP endpoint (all signals, or traces). */
export function wantsTelemetry(env: Env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  return Boolean(
    env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim(),
  );
}

/**
 * Starts the OpenTelemetry Node SDK when `OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set: traces (and, with a metrics or common endpoint,
 * the GenAI metrics) over OTLP/HTTP in `OTEL_EXPORTER_OTLP_PROTOCOL` (`http/protobuf` or
 * `http/json`), as `OTEL_SERVICE_NAME`. Without those variables nothing is imported: the SDK and
 * its exporters load only here, on demand. The library's spans then join the caller's trace
 * (`traceparent`) and carry it on to the providers.
 */
export async function startTelemetry(
  env: Env = process.env,
): Promise<GatewayTelemetry | undefined> {
  if (!wantsTelemetry(env)) return undefined;
  const protocol = protocolOf(env);
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim().replace(/\/+$/, '');
  const tracesUrl = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || `${base}/v1/traces`;
  const metricsUrl =
    env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT?.trim() || (base ? `${base}/v1/metrics` : undefined);
  const [{ NodeSDK }, { PeriodicExportingMetricReader }, exporters] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/sdk-metrics'),
    loadExporters(protocol),
  ]);
  const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL);
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'nest-model-router-gateway',
    traceExporter: new exporters.Traces({ url: tracesUrl }),
    metricReaders:
      metricsUrl === undefined
        ? []
        : [
            new PeriodicExportingMetricReader({
              exporter: new exporters.Metrics({ url: metricsUrl }),
              ...(interval > 0 ? { exportIntervalMillis: interval } : {}),
            }),
          ],
    instrumentations: [],
  });
  sdk.start();
  let stopping: Promise<void> | undefined;
  return { shutdown: () => (stopping ??= sdk.shutdown().catch(() => undefined)) };
}

function protocolOf(env: Env): Protocol {
  const given =
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() || env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim();
  if (given === undefined || given === '') return 'http/protobuf';
  if ((PROTOCOLS as readonly string[]).includes(given)) return given as Protocol;
  throw new InvalidConfigurationException(
    `OTEL_EXPORTER_OTLP_PROTOCOL must be ${PROTOCOLS.join(' or ')} (the gateway exports over ` +
      `OTLP/HTTP); got '${given.slice(0, 40)}'.`,
  );
}

async function loadExporters(protocol: Protocol) {
  if (protocol === 'http/json') {
    const [traces, metrics] = await Promise.all([
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/exporter-metrics-otlp-http'),
    ]);
    return { Traces: traces.OTLPTraceExporter, Metrics: metrics.OTLPMetricExporter };
  }
  const [traces, metrics] = await Promise.all([
    import('@opentelemetry/exporter-trace-otlp-proto'),
    import('@opentelemetry/exporter-metrics-otlp-proto'),
  ]);
  return { Traces: traces.OTLPTraceExporter, Metrics: metrics.OTLPMetricExporter };
}
