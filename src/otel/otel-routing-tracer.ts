import {
  context,
  createContextKey,
  propagation,
  ProxyTracerProvider,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type {
  AttemptStart,
  AttemptTrace,
  RoutedCallFacts,
  RoutingTracer,
  TraceCarrier,
} from '../core/observability/tracing.js';
import { contentAttribute } from './gen-ai-content.js';
import { GenAiMetrics } from './gen-ai-metrics.js';
import { OtelAttempt } from './otel-attempt.js';

export const TRACER_NAME = 'nest-model-router';

/** What the API's tracer provider delegates to while the app has registered none. */
const NO_PROVIDER = new ProxyTracerProvider().getDelegate();

/** An attempt while nothing records: every hook is a no-op, `run` just runs. */
const IDLE_ATTEMPT: AttemptTrace = {
  run: (work) => work(),
  firstChunk: () => undefined,
  succeeded: () => undefined,
  failed: () => undefined,
  cancelled: () => undefined,
};

/** The attempts made so far under the nearest call or decision span (`model_router.attempt`). */
const ATTEMPTS = createContextKey('model_router.attempts');

interface AttemptCount {
  n: number;
}

export interface OtelRoutingTracerOptions {
  /** Message content on attempt spans (`gen_ai.input.messages`, `gen_ai.output.messages`). */
  captureMessageContent: boolean;
}

/**
 * The routing tracer on the OpenTelemetry API: spans on the global tracer provider (a no-op
 * until the app registers one), the GenAI metrics on the global meter. A call span is an
 * INTERNAL span with the routing facts; each provider attempt under it a CLIENT span.
 */
export class OtelRoutingTracer implements RoutingTracer {
  private readonly tracer: Tracer = trace.getTracer(TRACER_NAME);
  private readonly metrics = new GenAiMetrics();

  constructor(private readonly options: OtelRoutingTracerOptions) {}

  async routedCall<T>(
    parent: TraceCarrier | undefined,
    work: () => Promise<T>,
    facts: () => RoutedCallFacts,
  ): Promise<T> {
    if (!this.recording()) return work();
    const { span, ctx } = this.startCall(parent);
    try {
      const result = await context.with(ctx, work);
      endCall(span, facts, undefined);
      return result;
    } catch (error) {
      endCall(span, facts, error);
      throw error;
    }
  }

  routedStream<E>(
    parent: TraceCarrier | undefined,
    open: () => AsyncIterable<E>,
    facts: () => RoutedCallFacts,
  ): AsyncIterable<E> {
    if (!this.recording()) return open();
    return {
      [Symbol.asyncIterator]: () => {
        const { span, ctx } = this.startCall(parent);
        let ended = false;
        const end = (error: unknown) => {
          if (ended) return;
          ended = true;
          endCall(span, facts, error);
        };
        return boundIterator(ctx, () => open()[Symbol.asyncIterator](), end);
      },
    };
  }

  async decision<T>(name: string, work: () => Promise<T>): Promise<T> {
    if (!this.recording()) return work();
    const parent = context.active();
    const span = this.tracer.startSpan(
      `model_router.decision ${name}`,
      { kind: SpanKind.INTERNAL, attributes: { 'model_router.decision_model': name } },
      parent,
    );
    const ctx = trace.setSpan(parent, span).setValue(ATTEMPTS, { n: 0 } satisfies AttemptCount);
    try {
      return await context.with(ctx, work);
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  }

  attempt(start: AttemptStart): AttemptTrace {
    if (!this.recording()) return IDLE_ATTEMPT;
    const parent = context.active();
    const count = parent.getValue(ATTEMPTS) as AttemptCount | undefined;
    const number = count ? ++count.n : 1;
    const span = this.tracer.startSpan(
      `${start.operation} ${start.requestModel}`,
      { kind: SpanKind.CLIENT },
      parent,
    );
    if (span.isRecording()) span.setAttributes(this.attemptAttributes(start, number));
    return new OtelAttempt(
      span,
      trace.setSpan(parent, span),
      start,
      this.metrics,
      this.options.captureMessageContent,
    );
  }

  bindStream<E>(attempt: AttemptTrace, events: AsyncIterable<E>): AsyncIterable<E> {
    if (attempt === IDLE_ATTEMPT) return events;
    return {
      [Symbol.asyncIterator]: () => {
        let iterator: AsyncIterator<E> | undefined;
        return {
          next: () => attempt.run(() => (iterator ??= events[Symbol.asyncIterator]()).next()),
          return: (value?: unknown) =>
            attempt.run(
              () =>
                iterator?.return?.(value) ??
                Promise.resolve({ done: true, value } as IteratorResult<E>),
            ),
        };
      },
    };
  }

  outgoingHeaders(): Record<string, string> | undefined {
    const active = context.active();
    if (trace.getSpan(active) === undefined) return undefined;
    const carrier: Record<string, string> = {};
    propagation.inject(active, carrier);
    return Object.keys(carrier).length > 0 ? carrier : undefined;
  }

  /**
   * Whether anything would record: a tracer or meter provider is registered. Checked per call, as
   * an app may register its SDK after the module started; while none is, calls skip all work.
   */
  recording(): boolean {
    const provider = trace.getTracerProvider() as Partial<ProxyTracerProvider>;
    return provider.getDelegate?.() !== NO_PROVIDER || this.metrics.enabled;
  }

  private startCall(parent: TraceCarrier | undefined): { span: Span; ctx: Context } {
    const parentCtx = parentContext(parent);
    const span = this.tracer.startSpan('model_router.call', { kind: SpanKind.INTERNAL }, parentCtx);
    const ctx = trace.setSpan(parentCtx, span).setValue(ATTEMPTS, { n: 0 } satisfies AttemptCount);
    return { span, ctx };
  }

  private attemptAttributes(start: AttemptStart, number: number): Attributes {
    const attributes: Attributes = {
      'gen_ai.operation.name': start.operation,
      'gen_ai.provider.name': start.provider,
      'gen_ai.request.model': start.requestModel,
      'model_router.attempt': number,
    };
    if (start.stream) attributes['model_router.stream'] = true;
    if (this.options.captureMessageContent) {
      const input = contentAttribute(start.input);
      if (input !== undefined) attributes['gen_ai.input.messages'] = input;
    }
    return attributes;
  }
}

/**
 * The call's parent: the active span (an app's HTTP instrumentation), else the caller's
 * `traceparent` from the request's headers, else none (a new trace).
 */
function parentContext(carrier: TraceCarrier | undefined): Context {
  const active = context.active();
  if (carrier === undefined || carrier.traceparent === undefined) return active;
  if (trace.getSpan(active) !== undefined) return active;
  return propagation.extract(active, carrier);
}

function endCall(span: Span, facts: () => RoutedCallFacts, error: unknown): void {
  if (span.isRecording()) {
    const known = facts();
    const attributes: Attributes = {};
    if (known.router !== undefined) attributes['model_router.router'] = known.router;
    if (known.route !== undefined) attributes['model_router.route'] = known.route;
    if (known.routeProbability !== undefined) {
      attributes['model_router.route.probability'] = known.routeProbability;
    }
    if (known.model !== undefined) attributes['model_router.model'] = known.model;
    if (known.costUsd !== undefined) attributes['model_router.cost_usd'] = known.costUsd;
    if (known.cache !== undefined) attributes['model_router.cache'] = known.cache;
    span.setAttributes(attributes);
    if (known.router !== undefined) span.updateName(`model_router.call ${known.router}`);
  }
  if (error !== undefined) markFailed(span, error);
  span.end();
}

function markFailed(span: Span, error: unknown): void {
  const name =
    typeof error === 'object' && error !== null && typeof (error as Error).name === 'string'
      ? (error as Error).name
      : '_OTHER';
  span.setAttribute('error.type', name);
  span.setStatus({ code: SpanStatusCode.ERROR, message: name });
}

/** An iterator whose every step runs in `ctx`; `end` hears how it ended (error or undefined). */
function boundIterator<E>(
  ctx: Context,
  open: () => AsyncIterator<E>,
  end: (error: unknown) => void,
): AsyncIterator<E> {
  let iterator: AsyncIterator<E> | undefined;
  return {
    next: () =>
      context.with(ctx, async () => {
        try {
          const step = await (iterator ??= open()).next();
          if (step.done) end(undefined);
          return step;
        } catch (error) {
          end(error);
          throw error;
        }
      }),
    return: (value?: unknown) =>
      context.with(ctx, async () => {
        try {
          return (await iterator?.return?.(value)) ?? ({ done: true, value } as IteratorResult<E>);
        } finally {
          end(undefined);
        }
      }),
  };
}
