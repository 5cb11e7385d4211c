import 'reflect-metadata';
import { afterEach, describe, expect, it } from '@jest/globals';
import { Test, type TestingModule } from '@nestjs/testing';
import { Registry } from 'prom-client';
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { InvalidConfigurationException } from '../../../../src/core/errors/exceptions.js';
import type { RoutingEvent } from '../../../../src/core/observability/routing-event.js';
import { ChatInterceptorChain } from '../../../../src/nest/interceptors/chat-interceptor-chain.js';
import { ModelRouterModule } from '../../../../src/nest/module/model-router.module.js';
import { RoutingChatService } from '../../../../src/nest/service/routing-chat.service.js';
import {
  MetricsChatInterceptor,
  ModelRouterMetrics,
  ModelRouterMetricsModule,
  type ModelRouterMetricsModuleOptions,
} from '../../../../src/metrics.js';
import { ScriptedRouter } from './support/scripted-router.js';
import { samples, valueOf } from './support/metric-values.js';

const ask = { messages: [{ role: 'user' as const, content: 'hello' }] };
const SECRET_MESSAGE = 'upstream 503 (Authorization: Bearer sk-secret-0123456789abcdef)';

function secretError(): Error {
  const error = new Error(SECRET_MESSAGE);
  error.name = 'UpstreamUnavailable';
  return error;
}

const selected = (route: string): RoutingEvent => ({
  type: 'route-selected',
  route,
  isDefaultRoute: false,
});

const failed = (model: string, kind = 'transient', attempt = 1): RoutingEvent =>
  ({
    type: 'model-failed',
    route: 'simple',
    model,
    attempt,
    kind,
    error: { name: 'UpstreamUnavailable', message: SECRET_MESSAGE },
  }) as RoutingEvent;

interface Subject {
  moduleRef: TestingModule;
  registry: Registry;
  router: ScriptedRouter;
  clock: { now: number };
  service: RoutingChatService;
  metrics: ModelRouterMetrics;
}

const open: TestingModule[] = [];

async function start(options: ModelRouterMetricsModuleOptions = {}): Promise<Subject> {
  const clock = { now: Date.UTC(2030, 0, 1) };
  const router = new ScriptedRouter(clock);
  const registry = options.registry ?? new Registry();
  const moduleRef = await Test.createTestingModule({
    imports: [
      ModelRouterModule.forRoot({
        routers: { main: router },
        models: { solo: router },
        clock: () => clock.now,
      }),
      ModelRouterMetricsModule.forRoot({ registry, ...options }),
    ],
  }).compile();
  open.push(moduleRef);
  await moduleRef.init();
  return {
    moduleRef,
    registry,
    router,
    clock,
    service: moduleRef.get(RoutingChatService),
    metrics: moduleRef.get(ModelRouterMetrics),
  };
}

afterEach(async () => {
  for (const moduleRef of open.splice(0)) await moduleRef.close();
});

describe('ModelRouterMetricsModule: the chat interceptor', () => {
  it('is discovered by the chat interceptor chain', async () => {
    const subject = await start();
    const chain = subject.moduleRef.get(ChatInterceptorChain).list();
    expect(chain.some((interceptor) => interceptor instanceof MetricsChatInterceptor)).toBe(true);
  });

  it('counts a successful call by router, route and model, with its duration from the clock', async () => {
    const subject = await start();
    subject.router.scripts = [
      { events: [selected('simple')], takesMs: 1500, route: 'simple', model: 'primary' },
    ];
    await subject.service.chat(ask);
    await subject.service.chat(ask);

    const labels = { router: 'main', route: 'simple', model: 'primary' };
    expect(
      await valueOf(subject.registry, 'model_router_requests_total', { ...labels, outcome: 'ok' }),
    ).toBe(2);
    const duration = 'model_router_request_duration_seconds';
    expect(await valueOf(subject.registry, duration, labels, `${duration}_count`)).toBe(2);
    expect(await valueOf(subject.registry, duration, labels, `${duration}_sum`)).toBe(3);
    // 1.5 s falls in the 2.5 s bucket, not the 1 s one
    expect(
      await valueOf(subject.registry, duration, { ...labels, le: 1 }, `${duration}_bucket`),
    ).toBe(0);
    expect(
      await valueOf(subject.registry, duration, { ...labels, le: 2.5 }, `${duration}_bucket`),
    ).toBe(2);
    expect(await samples(subject.registry, 'model_router_model_failures_total')).toEqual([]);
  });

  it('counts a failed call as an error, its model failure by kind, and keeps the message out', async () => {
    const subject = await start();
    subject.router.scripts = [
      {
        events: [
          selected('simple'),
          failed('primary', 'rate-limited'),
          {
            type: 'router-exhausted',
            route: 'simple',
            attempts: 1,
            errors: [{ name: 'UpstreamUnavailable', message: SECRET_MESSAGE }],
          },
        ],
        failWith: secretError(),
      },
    ];
    await expect(subject.service.chat(ask)).rejects.toThrow('upstream 503');

    expect(
      await valueOf(subject.registry, 'model_router_requests_total', {
        router: 'main',
        route: 'simple',
        model: '',
        outcome: 'error',
      }),
    ).toBe(1);
    expect(
      await valueOf(subject.registry, 'model_router_model_failures_total', {
        router: 'main',
        route: 'simple',
        model: 'primary',
        kind: 'rate-limited',
      }),
    ).toBe(1);
    expect(await samples(subject.registry, 'model_router_tokens_total')).toEqual([]);
    const text = await subject.metrics.scrape();
    expect(text).toContain('model_router_model_failures_total{');
    expect(text).not.toContain('sk-secret');
    expect(text).not.toContain('upstream');
    expect(text).not.toContain('UpstreamUnavailable');
  });

  it('counts a failed-over call as served by the backup, with the hidden failure and the failover', async () => {
    const subject = await start();
    subject.router.scripts = [
      {
        events: [
          selected('simple'),
          failed('primary'),
          { type: 'model-retry', route: 'simple', model: 'primary', attempt: 1, delayMs: 100 },
          failed('primary', 'transient', 2),
          { type: 'failover', route: 'simple', from: 'primary', to: 'backup', attempt: 3 },
          { type: 'model-succeeded', route: 'simple', model: 'backup', attempt: 3 },
        ],
        route: 'simple',
        model: 'backup',
      },
    ];
    await subject.service.chat(ask);

    const { registry } = subject;
    expect(
      await valueOf(registry, 'model_router_requests_total', {
        router: 'main',
        route: 'simple',
        model: 'backup',
        outcome: 'ok',
      }),
    ).toBe(1);
    expect(await samples(registry, 'model_router_requests_total')).toHaveLength(1);
    expect(
      await valueOf(registry, 'model_router_model_failures_total', {
        router: 'main',
        route: 'simple',
        model: 'primary',
        kind: 'transient',
      }),
    ).toBe(2);
    expect(
      await valueOf(registry, 'model_router_failovers_total', { router: 'main', route: 'simple' }),
    ).toBe(1);
    expect(
      await valueOf(registry, 'model_router_retries_total', { router: 'main', model: 'primary' }),
    ).toBe(1);
  });

  it('takes the route of a failover from the call when the event has none', async () => {
    const subject = await start();
    subject.router.scripts = [
      {
        events: [
          selected('complex'),
          { type: 'failover', from: 'a', to: 'b', attempt: 2 },
          {
            type: 'model-failed',
            model: 'b',
            attempt: 2,
            kind: 'timeout',
            error: { name: 'E', message: 'm' },
          },
        ],
        model: 'b',
      },
    ];
    await subject.service.chat(ask);
    expect(
      await valueOf(subject.registry, 'model_router_failovers_total', {
        router: 'main',
        route: 'complex',
      }),
    ).toBe(1);
    expect(
      await valueOf(subject.registry, 'model_router_model_failures_total', {
        router: 'main',
        route: 'complex',
        model: 'b',
        kind: 'timeout',
      }),
    ).toBe(1);
  });

  it('counts decision model failures per router', async () => {
    const subject = await start();
    subject.router.scripts = [
      {
        events: [
          {
            type: 'decision-failed',
            error: { name: 'Error', message: SECRET_MESSAGE },
            fallback: 'default-route',
          },
          { type: 'route-selected', route: 'simple', isDefaultRoute: true },
        ],
        route: 'simple',
        model: 'primary',
      },
    ];
    await subject.service.chat(ask);
    await subject.service.chat(ask);
    expect(
      await valueOf(subject.registry, 'model_router_decision_failures_total', { router: 'main' }),
    ).toBe(2);
    expect(await subject.metrics.scrape()).not.toContain('sk-secret');
  });

  it('adds up input and output tokens of successful calls, chat and stream alike', async () => {
    const subject = await start();
    subject.router.scripts = [
      { route: 'simple', model: 'primary', tokenUsage: { inputTokens: 12, outputTokens: 30 } },
      { route: 'simple', model: 'primary', tokenUsage: { inputTokens: 8, outputTokens: 5 } },
      // only a total: nothing to split into input and output
      { route: 'simple', model: 'primary', tokenUsage: { totalTokens: 99 } },
    ];
    await subject.service.chat(ask);
    const events = await lastValueFrom(subject.service.stream(ask).pipe(toArray()));
    expect(events.at(-1)?.type).toBe('complete');
    await subject.service.chat(ask);

    const labels = { router: 'main', route: 'simple', model: 'primary' };
    const tokens = 'model_router_tokens_total';
    expect(await valueOf(subject.registry, tokens, { ...labels, type: 'input' })).toBe(20);
    expect(await valueOf(subject.registry, tokens, { ...labels, type: 'output' })).toBe(35);
    expect(await samples(subject.registry, tokens)).toHaveLength(2);
    expect(
      await valueOf(subject.registry, 'model_router_requests_total', { ...labels, outcome: 'ok' }),
    ).toBe(3);
  });

  it('counts a call the caller aborts, and a stream the subscriber leaves, as cancelled', async () => {
    const subject = await start();
    subject.router.scripts = [{ events: [selected('simple')], hang: true }];
    const controller = new AbortController();
    const call = subject.service.chat(ask, { signal: controller.signal });
    controller.abort(new Error('caller gave up'));
    await expect(call).rejects.toThrow('caller gave up');

    const stream = subject.service.stream(ask).subscribe({ error: () => undefined });
    stream.unsubscribe();
    // let the model see its aborted signal: nothing else may be recorded for these calls
    await new Promise((resolve) => setImmediate(resolve));

    // the stream's router had already chosen its route when the subscriber left
    expect(await samples(subject.registry, 'model_router_requests_total')).toEqual([
      expect.objectContaining({
        labels: { router: 'main', route: 'simple', model: '', outcome: 'cancelled' },
        value: 2,
      }),
    ]);
    expect(subject.router.calls).toBe(2);
  });

  it('names the model that was answering a stream its subscriber left', async () => {
    const subject = await start();
    const called: RoutingEvent = {
      type: 'model-called',
      route: 'simple',
      model: 'primary',
      attempt: 1,
    };
    subject.router.scripts = [{ events: [selected('simple'), called], hang: true }];

    const stream = subject.service.stream(ask).subscribe({ error: () => undefined });
    await new Promise((resolve) => setImmediate(resolve));
    stream.unsubscribe();
    await new Promise((resolve) => setImmediate(resolve));

    expect(await samples(subject.registry, 'model_router_requests_total')).toEqual([
      expect.objectContaining({
        labels: { router: 'main', route: 'simple', model: 'primary', outcome: 'cancelled' },
        value: 1,
      }),
    ]);
  });

  it('labels a call made to a model directly with the model and no router', async () => {
    const subject = await start();
    subject.router.scripts = [{}];
    await firstValueFrom(subject.service.stream(ask, { model: 'solo' }).pipe(toArray()));
    expect(
      await valueOf(subject.registry, 'model_router_requests_total', {
        router: '',
        route: '',
        model: 'solo',
        outcome: 'ok',
      }),
    ).toBe(1);
  });

  it('keeps credentials and unknown error kinds out of labels', async () => {
    const subject = await start();
    subject.router.scripts = [
      {
        events: [failed('gpt-x', 'Bearer sk-secret-0123456789abcdef')],
        // a provider echoing something odd as its model name
        model: 'https://user:sk-secret-0123456789abcdef@proxy.example/gpt-x',
      },
    ];
    await subject.service.chat(ask);
    const text = await subject.metrics.scrape();
    expect(text).not.toContain('sk-secret');
    expect(
      await valueOf(subject.registry, 'model_router_model_failures_total', {
        router: 'main',
        route: 'simple',
        model: 'gpt-x',
        kind: 'unknown',
      }),
    ).toBe(1);
    expect(
      await valueOf(subject.registry, 'model_router_requests_total', {
        router: 'main',
        route: '',
        model: 'https://***@proxy.example/gpt-x',
        outcome: 'ok',
      }),
    ).toBe(1);
  });
});

describe('ModelRouterMetrics: embedding calls', () => {
  it('counts calls by model and outcome and the input tokens of answered ones, labels bounded', async () => {
    const subject = await start({
      labelFor: (name) => (name.startsWith('fake/') ? 'fake/*' : name),
    });
    subject.metrics.recordEmbedding({ model: 'demo-embedding', outcome: 'ok', inputTokens: 6 });
    subject.metrics.recordEmbedding({ model: 'demo-embedding', outcome: 'ok', inputTokens: 4 });
    subject.metrics.recordEmbedding({ model: 'fake/emb-1', outcome: 'ok', inputTokens: 3 });
    subject.metrics.recordEmbedding({ model: 'fake/emb-2', outcome: 'error', inputTokens: 9 });
    subject.metrics.recordEmbedding({ model: 'demo-embedding', outcome: 'cancelled' });
    const requests = (model: string, outcome: string) =>
      valueOf(subject.registry, 'model_router_embedding_requests_total', { model, outcome });
    const tokens = (model: string) =>
      valueOf(subject.registry, 'model_router_embedding_tokens_total', { model });
    expect(await requests('demo-embedding', 'ok')).toBe(2);
    expect(await requests('demo-embedding', 'cancelled')).toBe(1);
    expect(await requests('fake/*', 'ok')).toBe(1);
    expect(await requests('fake/*', 'error')).toBe(1);
    expect(await tokens('demo-embedding')).toBe(10);
    // a failed call's tokens are not counted: nothing was embedded
    expect(await tokens('fake/*')).toBe(3);
    // embeddings are not chat calls
    expect(await samples(subject.registry, 'model_router_requests_total')).toEqual([]);
  });

  it('counts a failed call as cancelled when its caller aborted, else as an error', async () => {
    const subject = await start();
    const aborted = new AbortController();
    aborted.abort();
    subject.metrics.recordFailedEmbedding('e', new Error('upstream said no'), aborted.signal);
    subject.metrics.recordFailedEmbedding(
      'e',
      new Error('upstream said no'),
      new AbortController().signal,
    );
    const requests = (outcome: string) =>
      valueOf(subject.registry, 'model_router_embedding_requests_total', { model: 'e', outcome });
    expect(await requests('cancelled')).toBe(1);
    expect(await requests('error')).toBe(1);
  });
});

describe('ModelRouterMetricsModule: options and registries', () => {
  it('names every metric with the configured prefix', async () => {
    const subject = await start({ prefix: 'llm_gateway_' });
    subject.router.scripts = [{ route: 'simple', model: 'primary' }];
    await subject.service.chat(ask);
    const names = (await subject.registry.getMetricsAsJSON())
      .map((metric) => metric.name)
      .toSorted();
    expect(names).toEqual([
      'llm_gateway_budget_downgrades_total',
      'llm_gateway_cache_lookups_total',
      'llm_gateway_cache_saved_usd_total',
      'llm_gateway_cost_usd_total',
      'llm_gateway_decision_failures_total',
      'llm_gateway_embedding_requests_total',
      'llm_gateway_embedding_tokens_total',
      'llm_gateway_estimated_usage_total',
      'llm_gateway_failovers_total',
      'llm_gateway_hedges_total',
      'llm_gateway_model_failures_total',
      'llm_gateway_model_state',
      'llm_gateway_request_duration_seconds',
      'llm_gateway_requests_total',
      'llm_gateway_retries_total',
      'llm_gateway_route_share',
      'llm_gateway_teacher_decisions_total',
      'llm_gateway_teacher_share',
      'llm_gateway_tokens_total',
    ]);
    expect(subject.metrics.names.requests).toBe('llm_gateway_requests_total');
    expect(
      await valueOf(subject.registry, 'llm_gateway_requests_total', {
        router: 'main',
        route: 'simple',
        model: 'primary',
        outcome: 'ok',
      }),
    ).toBe(1);
  });

  it('uses prom-client’s global register by default and leaves it when the application closes', async () => {
    const { register } = await import('prom-client');
    const first = await start({ registry: undefined });
    expect(first.metrics.registry).toBe(register);
    expect(register.getSingleMetric('model_router_requests_total')).toBeDefined();
    await first.moduleRef.close();
    open.splice(open.indexOf(first.moduleRef), 1);
    expect(register.getSingleMetric('model_router_requests_total')).toBeUndefined();

    // a second application in the same process registers them again
    const second = await start({ registry: undefined });
    second.router.scripts = [{ route: 'simple', model: 'primary' }];
    await second.service.chat(ask);
    expect(await register.metrics()).toContain(
      'model_router_requests_total{router="main",route="simple",model="primary",outcome="ok"} 1',
    );
  });

  it('keeps separate registries apart', async () => {
    const a = await start();
    const b = await start();
    a.router.scripts = [{ route: 'simple', model: 'primary' }];
    await a.service.chat(ask);
    expect(await samples(a.registry, 'model_router_requests_total')).toHaveLength(1);
    expect(await samples(b.registry, 'model_router_requests_total')).toEqual([]);
  });

  it('refuses a second module on the same registry and prefix, naming the clash', async () => {
    const registry = new Registry();
    await start({ registry });
    await expect(start({ registry })).rejects.toThrow(
      /already has metrics named model_router_requests_total.*own `registry` or `prefix`/s,
    );
    // the first module's metrics are untouched
    expect(registry.getSingleMetric('model_router_requests_total')).toBeDefined();
  });

  it('fails the start on an invalid prefix, registry or buckets, naming each field', async () => {
    const attempt = start({
      prefix: '9bad-prefix',
      registry: {} as Registry,
      durationBuckets: [1, 0.5],
    });
    await expect(attempt).rejects.toThrow(InvalidConfigurationException);
    await expect(
      start({ prefix: '9bad-prefix', registry: {} as Registry, durationBuckets: [1, 0.5] }),
    ).rejects.toThrow(
      /prefix: '9bad-prefix'[\s\S]*registry: not a prom-client Registry[\s\S]*durationBuckets/,
    );
  });

  it('rejects an endpoint path that is not a plain path', () => {
    expect(() => ModelRouterMetricsModule.forRoot({ path: 'metrics?x=1' })).toThrow(
      /ModelRouterMetricsModule path: 'metrics\?x=1'/,
    );
  });

  it('fails the start when ModelRouterModule is not registered', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ModelRouterMetricsModule.forRoot({ registry: new Registry() })],
    }).compile();
    open.push(moduleRef);
    await expect(moduleRef.init()).rejects.toThrow(
      'ModelRouterMetricsModule needs ModelRouterModule',
    );
  });

  it('accepts its options from an async factory', async () => {
    const registry = new Registry();
    const router = new ScriptedRouter({ now: 0 });
    router.scripts = [{ route: 'simple', model: 'primary' }];
    const moduleRef = await Test.createTestingModule({
      imports: [
        ModelRouterModule.forRoot({ routers: { main: router } }),
        ModelRouterMetricsModule.forRootAsync({
          useFactory: async () => ({ registry, prefix: 'async_' }),
        }),
      ],
    }).compile();
    open.push(moduleRef);
    await moduleRef.init();
    await moduleRef.get(RoutingChatService).chat(ask);
    expect(
      await valueOf(registry, 'async_requests_total', {
        router: 'main',
        route: 'simple',
        model: 'primary',
        outcome: 'ok',
      }),
    ).toBe(1);
  });
});
