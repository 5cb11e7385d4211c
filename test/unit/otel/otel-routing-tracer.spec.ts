import { afterEach, describe, expect, it } from '@jest/globals';
import { context, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { OtelRoutingTracer } from '../../../src/otel/otel-routing-tracer.js';
import { captureContentFromEnv, contentAttribute } from '../../../src/otel/gen-ai-content.js';

const start = { operation: 'chat', provider: 'openai', requestModel: 'gpt-x' } as const;

afterEach(() => {
  trace.disable();
  context.disable();
});

describe('OtelRoutingTracer', () => {
  it('does nothing but run the call while no provider is registered', async () => {
    const tracer = new OtelRoutingTracer({ captureMessageContent: true });
    let read = false;
    const attempt = tracer.attempt({
      ...start,
      input: () => {
        read = true;
        return [];
      },
    });
    expect(attempt.run(() => 42)).toBe(42);
    attempt.succeeded({ inputTokens: 1 });
    expect(
      await tracer.routedCall(
        undefined,
        async () => 'answer',
        () => ({}),
      ),
    ).toBe('answer');
    expect(tracer.outgoingHeaders()).toBeUndefined();
    // content is never even read for a span nobody records
    expect(read).toBe(false);
  });

  it('records once an app registers its provider after the tracer was made', async () => {
    const tracer = new OtelRoutingTracer({ captureMessageContent: false });
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
    );
    await tracer.routedCall(
      undefined,
      async () => tracer.attempt(start).failed(new TypeError('boom')),
      () => ({ router: 'r' }),
    );
    const names = exporter
      .getFinishedSpans()
      .map((span) => [span.name, span.attributes['error.type']]);
    expect(names).toEqual([
      ['chat gpt-x', 'TypeError'],
      ['model_router.call r', undefined],
    ]);
  });
});

describe('message content', () => {
  it('is captured only when the variable is exactly true (any case)', () => {
    expect(captureContentFromEnv({})).toBe(false);
    expect(captureContentFromEnv({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: '1' })).toBe(
      false,
    );
    expect(
      captureContentFromEnv({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: ' TRUE ' }),
    ).toBe(true);
  });

  it('leaves out what cannot be serialised instead of failing the call', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(contentAttribute(() => circular)).toBeUndefined();
    expect(contentAttribute(() => [{ role: 'user' }])).toBe('[{"role":"user"}]');
  });
});
