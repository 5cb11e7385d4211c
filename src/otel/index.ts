import { installRoutingTracer } from '../core/observability/tracing.js';
import { captureContentFromEnv } from './gen-ai-content.js';
import { OtelRoutingTracer } from './otel-routing-tracer.js';

export { CAPTURE_CONTENT_ENV } from './gen-ai-content.js';
export {
  OtelRoutingTracer,
  TRACER_NAME,
  type OtelRoutingTracerOptions,
} from './otel-routing-tracer.js';

export interface OpenTelemetryTracingOptions {
  /**
   * Message content on attempt spans. Default: `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`
   * is `true`.
   */
  captureMessageContent?: boolean;
}

/**
 * Traces routed calls and provider attempts on the global OpenTelemetry API, and records the
 * GenAI metrics on the global meter (`nest-model-router/otel`). The Nest module calls it when
 * `@opentelemetry/api` is installed; a framework-free app calls it once at start. Nothing is
 * emitted until the app registers a tracer (meter) provider. Returns a function that removes it.
 */
export function installOpenTelemetryTracing(options: OpenTelemetryTracingOptions = {}): () => void {
  const tracer = new OtelRoutingTracer({
    captureMessageContent: options.captureMessageContent ?? captureContentFromEnv(),
  });
  installRoutingTracer(tracer);
  return () => installRoutingTracer(undefined);
}
