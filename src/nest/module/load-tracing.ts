import { installedRoutingTracer } from '../../core/observability/tracing.js';

let loading: Promise<boolean> | undefined;

/**
 * Installs the OpenTelemetry routing tracer (`src/otel`) when `@opentelemetry/api` resolves and
 * no tracer is installed yet; without the package it does nothing. Once per process: spans go
 * to whatever tracer provider the app registers, before or after this runs.
 */
export function loadOpenTelemetryTracing(
  importer: () => Promise<{ installOpenTelemetryTracing: () => unknown }> = () =>
    import('../../otel/index.js'),
): Promise<boolean> {
  return (loading ??= importer().then(
    (otel) => {
      if (installedRoutingTracer() === undefined) otel.installOpenTelemetryTracing();
      return true;
    },
    // the optional peer is absent: no tracing, and no error
    () => false,
  ));
}
