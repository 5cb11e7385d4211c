import {
  context,
  SpanStatusCode,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import type { AttemptAnswer, AttemptStart, AttemptTrace } from '../core/observability/tracing.js';
import { contentAttribute } from './gen-ai-content.js';
import type { GenAiMetrics } from './gen-ai-metrics.js';

/**
 * One provider attempt: a CLIENT span named `{operation} {model}` with the GenAI attributes, and
 * the GenAI metrics when it ends. Attributes are built only for a recording span; the metrics
 * always get theirs (a no-op meter ignores them).
 */
export class OtelAttempt implements AttemptTrace {
  private readonly startedAt = performance.now();
  private ended = false;
  private firstChunkAt: number | undefined;

  constructor(
    private readonly span: Span,
    private readonly ctx: Context,
    private readonly start: AttemptStart,
    private readonly metrics: GenAiMetrics,
    private readonly captureContent: boolean,
  ) {}

  run<T>(work: () => T): T {
    return context.with(this.ctx, work);
  }

  firstChunk(): void {
    if (this.firstChunkAt !== undefined || this.ended) return;
    this.firstChunkAt = performance.now();
    const seconds = (this.firstChunkAt - this.startedAt) / 1000;
    if (this.span.isRecording()) {
      this.span.setAttribute('model_router.time_to_first_chunk', seconds);
    }
    if (this.metrics.enabled) {
      this.metrics.recordTimeToFirstChunk(seconds, this.metricAttributes(undefined));
    }
  }

  succeeded(answer: AttemptAnswer): void {
    if (this.ended) return;
    const span = this.span;
    if (span.isRecording()) {
      const attributes: Attributes = {};
      if (answer.responseModel !== undefined) {
        attributes['gen_ai.response.model'] = answer.responseModel;
      }
      if (answer.finishReasons !== undefined) {
        attributes['gen_ai.response.finish_reasons'] = [...answer.finishReasons];
      }
      if (answer.inputTokens !== undefined) {
        attributes['gen_ai.usage.input_tokens'] = answer.inputTokens;
      }
      if (answer.outputTokens !== undefined) {
        attributes['gen_ai.usage.output_tokens'] = answer.outputTokens;
      }
      if (answer.usageEstimated === true) attributes['model_router.usage_estimated'] = true;
      if (this.captureContent) {
        const output = contentAttribute(answer.output);
        if (output !== undefined) attributes['gen_ai.output.messages'] = output;
      }
      span.setAttributes(attributes);
    }
    if (!this.metrics.enabled) return this.end(undefined);
    const metricAttributes = this.metricAttributes(answer.responseModel);
    if (answer.inputTokens !== undefined) {
      this.metrics.recordTokens(answer.inputTokens, 'input', metricAttributes);
    }
    if (answer.outputTokens !== undefined) {
      this.metrics.recordTokens(answer.outputTokens, 'output', metricAttributes);
    }
    this.end(metricAttributes);
  }

  failed(error: unknown, errorType?: string): void {
    if (this.ended) return;
    const type = errorType ?? errorTypeOf(error);
    // the error's name only: a provider's message may quote the request
    this.span.setAttribute('error.type', type);
    this.span.setStatus({ code: SpanStatusCode.ERROR, message: type });
    this.end(
      this.metrics.enabled
        ? { ...this.metricAttributes(undefined), 'error.type': type }
        : undefined,
    );
  }

  cancelled(): void {
    if (this.ended) return;
    this.span.setAttribute('model_router.cancelled', true);
    this.end(undefined);
  }

  private end(metricAttributes: Attributes | undefined): void {
    this.ended = true;
    this.span.end();
    if (metricAttributes === undefined) return;
    this.metrics.recordDuration((performance.now() - this.startedAt) / 1000, metricAttributes);
  }

  private metricAttributes(responseModel: string | undefined): Attributes {
    const attributes: Attributes = {
      'gen_ai.operation.name': this.start.operation,
      'gen_ai.provider.name': this.start.provider,
      'gen_ai.request.model': this.start.requestModel,
    };
    if (responseModel !== undefined) attributes['gen_ai.response.model'] = responseModel;
    return attributes;
  }
}

/** A low-cardinality word for a failure: the error's kind (ProviderException), else its class. */
function errorTypeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const kind = (error as { kind?: unknown }).kind;
    if (typeof kind === 'string' && kind) return kind;
    const name = (error as { name?: unknown }).name;
    if (typeof name === 'string' && name) return name;
  }
  return '_OTHER';
}
