import 'reflect-metadata';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Body, Controller, type INestApplication, Post } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { Registry } from 'prom-client';
import request from 'supertest';
import type { ChatModel } from '../../../src/core/chat/chat-model.js';
import type { ChatResponse } from '../../../src/core/chat/response.js';
import { ChatModelRoutingResult } from '../../../src/core/routing/chat-model-routing-result.js';
import { RoutingChatModel } from '../../../src/core/routing/routing-chat-model.js';
import { FailoverStrategy } from '../../../src/core/strategies/failover-strategy.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import { ModelRoutingInterceptor } from '../../../src/nest/http/model-routing.interceptor.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import { RoutingChatService } from '../../../src/nest/service/routing-chat.service.js';
import { ModelRouterMetricsModule } from '../../../src/metrics.js';

const COOLDOWN_MS = 60_000;

/** Answers with its name and token usage, or fails like a provider's 503 while `failing`. */
class SwitchableModel implements ChatModel {
  failing = false;

  constructor(private readonly name: string) {}

  async chat(): Promise<ChatResponse> {
    if (this.failing) {
      throw Object.assign(
        new Error(
          `${this.name}: 503 Service Unavailable (Authorization: Bearer sk-secret-42abcdefgh)`,
        ),
        { status: 503 },
      );
    }
    return {
      aiMessage: { role: 'assistant', text: this.name },
      tokenUsage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 },
    };
  }
}

@Controller()
class ChatController {
  constructor(private readonly chat: RoutingChatService) {}

  @Post('chat')
  async answer(@Body() body: { text: string }) {
    const response = await this.chat.chat({ messages: [{ role: 'user', content: body.text }] });
    return { text: response.aiMessage.text };
  }
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the Prometheus text format (sample lines only). */
function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels: Record<string, string> = {};
      for (const [, key, labelValue] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
        labels[key] = labelValue;
      }
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

function value(
  samples: Sample[],
  name: string,
  labels: Record<string, string>,
): number | undefined {
  return samples.find(
    (sample) =>
      sample.name === name &&
      Object.keys(sample.labels).length === Object.keys(labels).length &&
      Object.entries(labels).every(([key, expected]) => sample.labels[key] === expected),
  )?.value;
}

function stateOf(samples: Sample[], model: string): string | undefined {
  return samples.find(
    (sample) =>
      sample.name === 'model_router_model_state' &&
      sample.labels.model === model &&
      sample.value === 1,
  )?.labels.state;
}

describe.each(['express', 'fastify'] as const)('GET /metrics over HTTP (%s)', (adapter) => {
  let app: INestApplication;
  let url: string;
  let clock: { now: number };
  let primary: SwitchableModel;

  beforeEach(async () => {
    clock = { now: Date.UTC(2030, 0, 1, 9) };
    primary = new SwitchableModel('primary');
    const support = new RoutingChatModel({
      routes: [
        {
          name: 'simple',
          description: 'short questions',
          model: new ModelRouter({
            routes: [
              { name: 'primary', model: primary },
              { name: 'backup', model: new SwitchableModel('backup') },
            ],
            routingStrategy: new FailoverStrategy({ cooldownMs: COOLDOWN_MS, halfOpenProbes: 1 }),
          }),
        },
      ],
      router: () => ChatModelRoutingResult.defaultRoute(),
      defaultRoute: 'simple',
    });
    const moduleRef = await Test.createTestingModule({
      imports: [
        ModelRouterModule.forRoot({ routers: { support }, clock: () => clock.now }),
        ModelRouterMetricsModule.forRoot({ registry: new Registry(), path: 'metrics' }),
      ],
      controllers: [ChatController],
    }).compile();
    app =
      adapter === 'fastify'
        ? moduleRef.createNestApplication(new FastifyAdapter(), { logger: false })
        : moduleRef.createNestApplication({ logger: false });
    // as in an app that reports routes in headers: /metrics must be unaffected by it
    app.useGlobalInterceptors(app.get(ModelRoutingInterceptor));
    await app.init();
    if (adapter === 'fastify') await app.getHttpAdapter().getInstance().ready();
    await app.listen(0, '127.0.0.1');
    url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });

  afterEach(async () => {
    await app.close();
  });

  it('serves the text format with every model router metric, following a failover and a cooldown', async () => {
    const before = await request(url).get('/metrics').expect(200);
    expect(before.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(before.text).toContain('# TYPE model_router_requests_total counter');
    expect(before.text).toContain('# TYPE model_router_request_duration_seconds histogram');
    expect(before.text).toContain('# TYPE model_router_model_state gauge');
    expect(stateOf(parse(before.text), 'primary')).toBe('available');

    primary.failing = true;
    const failedAt = clock.now;
    const served = await request(url).post('/chat').send({ text: 'hello' }).expect(201);
    expect(served.body.text).toBe('backup');

    const during = await request(url).get('/metrics').expect(200);
    const samples = parse(during.text);
    const call = { router: 'support', route: 'simple', model: 'backup' };
    expect(value(samples, 'model_router_requests_total', { ...call, outcome: 'ok' })).toBe(1);
    expect(value(samples, 'model_router_request_duration_seconds_count', call)).toBe(1);
    expect(value(samples, 'model_router_tokens_total', { ...call, type: 'input' })).toBe(7);
    expect(value(samples, 'model_router_tokens_total', { ...call, type: 'output' })).toBe(3);
    expect(
      value(samples, 'model_router_model_failures_total', {
        router: 'support',
        route: 'simple',
        model: 'primary',
        kind: 'transient',
      }),
    ).toBe(1);
    expect(
      value(samples, 'model_router_failovers_total', { router: 'support', route: 'simple' }),
    ).toBe(1);
    expect(stateOf(samples, 'primary')).toBe('cooldown');
    expect(stateOf(samples, 'backup')).toBe('available');
    expect(during.text).not.toContain('sk-secret');
    expect(during.text).not.toContain('Service Unavailable');

    // the scrape itself is not a chat call
    await request(url).get('/metrics').expect(200);
    clock.now = failedAt + COOLDOWN_MS;
    const after = parse((await request(url).get('/metrics').expect(200)).text);
    expect(stateOf(after, 'primary')).toBe('half-open');
    expect(value(after, 'model_router_requests_total', { ...call, outcome: 'ok' })).toBe(1);
  });
});
