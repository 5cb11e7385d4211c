import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { lastValueFrom, toArray } from 'rxjs';
import type { ChatModel } from '../../../src/core/chat/chat-model.js';
import { toolResultMessage, userMessage } from '../../../src/core/chat/messages.js';
import type { ChatRequest } from '../../../src/core/chat/request.js';
import { DecisionModelChatModelRouter } from '../../../src/core/decision/decision-model-chat-model-router.js';
import { ChatModelDecisionModel } from '../../../src/core/decision/models/chat-model-decision-model.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import { routingTracer } from '../../../src/core/observability/tracing.js';
import { RoutingChatModel } from '../../../src/core/routing/routing-chat-model.js';
import { FailoverStrategy } from '../../../src/core/strategies/failover-strategy.js';
import { openRoutingScope } from '../../../src/nest/http/open-routing-scope.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import { RoutingChatService } from '../../../src/nest/service/routing-chat.service.js';
import { installOpenTelemetryTracing } from '../../../src/otel/index.js';
import { OpenAiCompatibleEmbeddingModel } from '../../../src/providers/embeddings/openai-compatible-embedding-model.js';
import { OpenAiCompatibleChatModel } from '../../../src/providers/openai/openai-compatible-chat-model.js';
import { useFakeProvider } from '../../support/fake-provider.js';
import { childrenOf, spanText, useOtelSdk } from '../../support/otel.js';

/**
 * The span tree of routed calls through ModelRouterModule (which installs the tracer by itself
 * when @opentelemetry/api resolves) with a real SDK and real OpenAI-compatible models on the fake
 * provider: failover, streams, a tool loop, an LLM judge, embeddings, and what spans never carry.
 */

const API_KEY = 'sk-canary-7f3a9c2e51d04b8a';
const SECRET_TEXT = 'the launch code is zebra-4471';
const fake = useFakeProvider();
const otel = useOtelSdk();
let app: INestApplication;
let service: RoutingChatService;

function openai(model: string): OpenAiCompatibleChatModel {
  return new OpenAiCompatibleChatModel({
    baseURL: fake.provider.openaiBaseURL,
    apiKey: API_KEY,
    model,
  });
}

const ask = (text: string): ChatRequest => ({ messages: [userMessage(text)] });

function only(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((span) => span.name === name);
  expect(found.map((span) => span.name)).toEqual([name]);
  return found[0]!;
}

beforeAll(async () => {
  const routers: Record<string, ChatModel> = {
    failover: new ModelRouter({
      routes: [
        { name: 'primary', model: openai('primary-model') },
        { name: 'backup', model: openai('backup-model') },
      ],
      routingStrategy: new FailoverStrategy({ cooldownMs: 60_000 }),
    }),
    continued: new ModelRouter({
      routes: [
        { name: 'primary', model: openai('cont-primary') },
        {
          name: 'fallback',
          model: new OpenAiCompatibleChatModel({
            baseURL: fake.provider.openaiBaseURL,
            apiKey: API_KEY,
            model: 'cont-fallback',
            assistantPrefill: true,
          }),
        },
      ],
      routingStrategy: new FailoverStrategy({ cooldownMs: 60_000 }),
      continuation: true,
    }),
    quiet: new ModelRouter({
      routes: [{ name: 'only', model: openai('quiet-no-usage') }],
      routingStrategy: new FailoverStrategy(),
    }),
    judged: new RoutingChatModel({
      routes: [
        { name: 'chat', description: 'small talk', model: openai('small-model') },
        { name: 'math', description: 'arithmetic and proofs', model: openai('math-model') },
      ],
      router: new DecisionModelChatModelRouter(new ChatModelDecisionModel(openai('judge-model'))),
      defaultRoute: 'chat',
    }),
  };
  const moduleRef = await Test.createTestingModule({
    imports: [ModelRouterModule.forRoot({ routers, defaultRouter: 'failover' })],
  }).compile();
  app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  service = app.get(RoutingChatService);
});
afterAll(async () => {
  await app?.close();
});

describe('routed calls as OpenTelemetry spans', () => {
  it('the module installed the tracer without configuration', () => {
    expect(routingTracer()).toBeDefined();
  });

  it('an attempt whose provider reported no usage carries the estimate, marked', async () => {
    const response = await service.chat(ask('hello'), { router: 'quiet' });
    expect(response.tokenUsage?.estimated).toBe(true);
    const attempt = only(otel.spans(), 'chat quiet-no-usage');
    expect(attempt.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': response.tokenUsage!.inputTokens,
      'gen_ai.usage.output_tokens': response.tokenUsage!.outputTokens,
      'model_router.usage_estimated': true,
    });
  });

  it('a failover is one call span over two CLIENT attempt spans, the failed one with error.type', async () => {
    fake.provider.setFault('primary-model', 'fault-503-once');
    const response = await service.chat(ask('hello'), { router: 'failover' });
    expect(response.aiMessage.text).toBeTruthy();

    const spans = otel.spans();
    const call = only(spans, 'model_router.call failover');
    expect(call.kind).toBe(SpanKind.INTERNAL);
    expect(call.attributes).toMatchObject({
      'model_router.router': 'failover',
      'model_router.model': 'backup',
    });
    const [failed, answered] = childrenOf(spans, call).toSorted(
      (a, b) =>
        Number(a.attributes['model_router.attempt']) - Number(b.attributes['model_router.attempt']),
    );
    expect(childrenOf(spans, call)).toHaveLength(2);
    expect(failed!.name).toBe('chat primary-model');
    expect(failed!.kind).toBe(SpanKind.CLIENT);
    expect(failed!.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'primary-model',
      'model_router.attempt': 1,
      'error.type': 'transient',
    });
    expect(answered!.name).toBe('chat backup-model');
    expect(answered!.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(answered!.attributes).toMatchObject({
      'gen_ai.request.model': 'backup-model',
      'gen_ai.response.model': 'backup-model',
      'gen_ai.response.finish_reasons': ['stop'],
      'model_router.attempt': 2,
    });
    expect(answered!.attributes['gen_ai.usage.input_tokens']).toBe(
      response.tokenUsage?.inputTokens,
    );
    expect(answered!.attributes['gen_ai.usage.output_tokens']).toBe(
      response.tokenUsage?.outputTokens,
    );
    for (const span of [failed!, answered!]) {
      expect(span.spanContext().traceId).toBe(call.spanContext().traceId);
    }

    // each attempt's HTTP request carried its own span as the parent
    const sent = (model: string) => fake.provider.requests.last(model)!.headers.traceparent;
    expect(sent('primary-model')).toBe(
      `00-${call.spanContext().traceId}-${failed!.spanContext().spanId}-01`,
    );
    expect(sent('backup-model')).toBe(
      `00-${call.spanContext().traceId}-${answered!.spanContext().spanId}-01`,
    );

    const durations = await otel.points('gen_ai.client.operation.duration');
    expect(durations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          attributes: expect.objectContaining({
            'gen_ai.request.model': 'primary-model',
            'error.type': 'transient',
          }),
        }),
        expect.objectContaining({
          attributes: expect.objectContaining({ 'gen_ai.request.model': 'backup-model' }),
        }),
      ]),
    );
    const tokens = await otel.points('gen_ai.client.token.usage');
    const types = tokens
      .filter((point) => point.attributes['gen_ai.request.model'] === 'backup-model')
      .map((point) => point.attributes['gen_ai.token.type']);
    expect(types.toSorted()).toEqual(['input', 'output']);
  });

  it("continues the caller's traceparent from the request's headers", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const scope = openRoutingScope(
      { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } },
      undefined,
    );
    await service.chat(ask('hello'), { router: 'failover', scope });
    const call = only(otel.spans(), 'model_router.call failover');
    expect(call.spanContext().traceId).toBe(traceId);
    expect(call.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(childrenOf(otel.spans(), call)).toHaveLength(1);
  });

  it('a stream: the attempt span ends when the stream ends, with its time to first chunk', async () => {
    const model = openai('stream-model');
    const events = model.stream(ask('count to three'))[Symbol.asyncIterator]();
    const first = await events.next();
    expect(first.done).toBe(false);
    expect(otel.spans()).toEqual([]);
    while (!(await events.next()).done) {
      // drain
    }
    const attempt = only(otel.spans(), 'chat stream-model');
    expect(attempt.attributes['model_router.stream']).toBe(true);
    expect(attempt.attributes['model_router.time_to_first_chunk']).toEqual(expect.any(Number));
    expect(attempt.attributes['gen_ai.usage.output_tokens']).toEqual(expect.any(Number));

    // through the service: call span over the stream's attempt, both ended after the last event
    const streamed = await lastValueFrom(
      service.stream(ask('count to three'), { router: 'failover' }).pipe(toArray()),
    );
    expect(streamed.at(-1)?.type).toBe('complete');
    const call = only(otel.spans(), 'model_router.call failover');
    const [child] = childrenOf(otel.spans(), call);
    expect(child!.name).toMatch(/^chat (primary|backup)-model$/);
    expect(child!.attributes['model_router.time_to_first_chunk']).toEqual(expect.any(Number));
    const ttfc = await otel.points('gen_ai.client.operation.time_to_first_chunk');
    expect(ttfc.some((point) => point.attributes['gen_ai.request.model'] === 'stream-model')).toBe(
      true,
    );
  });

  it('a stream cut mid-answer and continued: the cut attempt failed, the continuation answered', async () => {
    fake.provider.setFault('cont-primary', 'fault-cut-after-3');
    const events = await lastValueFrom(
      service.stream(ask('tell me a story'), { router: 'continued' }).pipe(toArray()),
    );
    expect(events.at(-1)?.type).toBe('complete');
    const spans = otel.spans();
    const call = only(spans, 'model_router.call continued');
    const attempts = childrenOf(spans, call).toSorted(
      (a, b) =>
        Number(a.attributes['model_router.attempt']) - Number(b.attributes['model_router.attempt']),
    );
    expect(attempts.map((span) => span.name)).toEqual(['chat cont-primary', 'chat cont-fallback']);
    expect(attempts[0]!.attributes['error.type']).toEqual(expect.any(String));
    expect(attempts[0]!.attributes['model_router.time_to_first_chunk']).toEqual(expect.any(Number));
    expect(attempts[1]!.attributes['error.type']).toBeUndefined();
    expect(attempts[1]!.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
  });

  it('an LLM judge is a decision span of its own; the tool loop returns without asking it', async () => {
    fake.provider.setAnswer('judge-model', { text: 'B' });
    fake.provider.setAnswer('math-model', {
      toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }],
      finishReason: 'tool_calls',
    });
    const tools = [{ name: 'add', parameters: { type: 'object' } }];
    const first = await service.chat(
      { messages: [userMessage('what is 1 + 2?')], parameters: { tools } },
      { router: 'judged' },
    );
    const spans = otel.spans();
    const call = only(spans, 'model_router.call judged');
    expect(call.attributes['model_router.route']).toBe('math');
    const children = childrenOf(spans, call);
    expect(children.map((span) => span.name).toSorted()).toEqual([
      'chat math-model',
      'model_router.decision judge',
    ]);
    const decision = children.find((span) => span.name === 'model_router.decision judge')!;
    const judge = childrenOf(spans, decision);
    expect(judge.map((span) => span.name)).toEqual(['chat judge-model']);
    expect(judge[0]!.attributes['model_router.attempt']).toBe(1);
    const answer = children.find((span) => span.name === 'chat math-model')!;
    expect(answer.attributes['model_router.attempt']).toBe(1);
    expect(answer.attributes['gen_ai.response.finish_reasons']).toEqual(['tool_calls']);

    otel.exporter.reset();
    const toolCall = first.aiMessage.toolCalls![0]!;
    fake.provider.setAnswer('math-model', { text: '3' });
    await service.chat(
      {
        messages: [
          userMessage('what is 1 + 2?'),
          first.aiMessage,
          toolResultMessage(toolCall.id, '3', 'add'),
        ],
        parameters: { tools },
      },
      { router: 'judged' },
    );
    const loop = only(otel.spans(), 'model_router.call judged');
    expect(loop.attributes['model_router.route']).toBe('math');
    expect(childrenOf(otel.spans(), loop).map((span) => span.name)).toEqual(['chat math-model']);
  });

  it('embeddings: one CLIENT span per request, carrying its traceparent', async () => {
    const model = new OpenAiCompatibleEmbeddingModel({
      baseURL: fake.provider.openaiBaseURL,
      apiKey: API_KEY,
      model: 'embed-model',
    });
    await model.embed(['one', 'two']);
    const span = only(otel.spans(), 'embeddings embed-model');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'embeddings',
      'gen_ai.request.model': 'embed-model',
      'model_router.attempt': 1,
    });
    expect(fake.provider.requests.last('embed-model')!.headers.traceparent).toContain(
      span.spanContext().spanId,
    );
  });

  it('no message text and no API key in any span by default; text only with the opt-in', async () => {
    fake.provider.setAnswer('backup-model', { text: `echo: ${SECRET_TEXT}` });
    fake.provider.setFault('primary-model', 'fault-401-once');
    await service.chat(ask(SECRET_TEXT), { router: 'failover' });
    const all = otel.spans().map(spanText).join('\n');
    expect(otel.spans().length).toBeGreaterThanOrEqual(2);
    expect(all).not.toContain('zebra-4471');
    expect(all).not.toContain(API_KEY);

    const previous = process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT;
    process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT = 'true';
    const uninstall = installOpenTelemetryTracing();
    try {
      otel.exporter.reset();
      await service.chat(ask(SECRET_TEXT), { router: 'failover' });
      const attempt = otel.spans().find((span) => span.name === 'chat backup-model')!;
      expect(String(attempt.attributes['gen_ai.input.messages'])).toContain(SECRET_TEXT);
      expect(String(attempt.attributes['gen_ai.output.messages'])).toContain(SECRET_TEXT);
      expect(otel.spans().map(spanText).join('\n')).not.toContain(API_KEY);
    } finally {
      uninstall();
      installOpenTelemetryTracing({ captureMessageContent: false });
      if (previous === undefined)
        delete process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT;
      else process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT = previous;
    }
  });
});
