// The files of docs/nest-module.md, made into one app as the page says (with the README's
// ValidationPipe and exception filter), served over HTTP against the project's FakeProvider; and
// the YAML of docs/ parsed, validated and built by the loaders that read such files.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type INestApplication, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import {
  buildModelRouterOptions,
  getRouterToken,
  ModelRouter,
  ModelRouterExceptionFilter,
  parseModelRouterConfig,
} from 'nest-model-router';
import { MODEL_PROFILE } from 'nest-model-router/core';
import { FakeProvider } from 'nest-model-router/testing';
import { loadGatewayConfig } from '../../../apps/gateway/src/config/load-gateway-config.js';
import { snippetPath, writeSnippets } from './support/markdown.js';

const PAGE = 'docs/nest-module.md';
const env = { OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-ant-test' };
let fake: FakeProvider;

beforeAll(async () => {
  for (const page of [PAGE, 'docs/cost-and-limits.md', 'docs/gateway.md']) writeSnippets(page);
  fake = await FakeProvider.start();
  process.env.OPENAI_BASE_URL = fake.openaiBaseURL;
  process.env.ANTHROPIC_BASE_URL = fake.anthropicBaseURL;
  Object.assign(process.env, env);
});

afterAll(async () => {
  await fake?.close();
});

describe('docs/nest-module.md: the app of its files', () => {
  let app: INestApplication;
  let url: string;
  let alerts: { failures: number };

  beforeAll(async () => {
    const { AppWithMetricsModule } = (await import(snippetPath(PAGE, 'metrics.module.ts'))) as {
      AppWithMetricsModule: new () => unknown;
    };
    const { RoutingAlerts } = (await import(snippetPath(PAGE, 'routing-alerts.ts'))) as {
      RoutingAlerts: new () => { failures: number };
    };
    app = await NestFactory.create(AppWithMetricsModule, { logger: false });
    app.useGlobalPipes(new ValidationPipe({ transform: true }));
    app.useGlobalFilters(new ModelRouterExceptionFilter());
    await app.listen(0, '127.0.0.1');
    url = await app.getUrl();
    alerts = app.get(RoutingAlerts);
  });

  afterAll(async () => {
    await app?.close();
  });

  const ask = (content: string) =>
    fetch(`${url}/support`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content }] }),
    });

  it('answers on the simple route, with the card number redacted before the provider', async () => {
    const res = await ask('hi, my card 4111 1111 1111 1111 was declined');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-model-router-route')).toBe('simple');
    expect(await res.json()).toEqual({
      answer: 'You said: hi, my card [card] was declined (model gpt-4o-mini)',
    });
  });

  it('reports health and metrics, and counts the failures a failover hid', async () => {
    const before = (await (await fetch(`${url}/health`)).json()) as { status: string };
    expect(before.status).toBe('ok');
    fake.setFault('gpt-4o-mini', 'fault-503');
    const res = await ask('hi');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ answer: 'You said: hi (model claude-sonnet-4-6)' });
    expect(alerts.failures).toBeGreaterThanOrEqual(1);
    const health = await fetch(`${url}/health`);
    expect(JSON.stringify(await health.json())).toContain('cooldown');
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toContain('model_router_requests_total{router="support",route="simple"');
  });
});

describe('docs/nest-module.md: forRootAsync from its YAML', () => {
  it('builds the routers of config/model-router.yaml, injectable by name', async () => {
    process.env.MODEL_ROUTER_CONFIG = snippetPath(PAGE, 'config/model-router.yaml');
    const { YamlAppModule } = (await import(snippetPath(PAGE, 'yaml.module.ts'))) as {
      YamlAppModule: new () => unknown;
    };
    const moduleRef = await Test.createTestingModule({ imports: [YamlAppModule] }).compile();
    expect(moduleRef.get(getRouterToken('support'))).toBeDefined();
    await moduleRef.close();
  });

  it('names the offending path when a route points at an unknown model', () => {
    const yaml = readFileSync(snippetPath(PAGE, 'config/model-router.yaml'), 'utf8');
    const broken = yaml.replace('models: [claude, mini]', 'models: [claude, gpt-5]');
    expect(broken).not.toBe(yaml);
    expect(() => parseModelRouterConfig(broken, { env })).toThrow(
      "routers.support.routes[1].models[1]: unknown model 'gpt-5'",
    );
  });
});

describe('docs/cost-and-limits.md: its YAML', () => {
  it('parses, and builds profiles on the group models and budgets in the module options', async () => {
    const yaml = readFileSync(
      snippetPath('docs/cost-and-limits.md', 'config/model-router.yaml'),
      'utf8',
    );
    const config = parseModelRouterConfig(yaml, { env });
    expect(config.state).toMatchObject({ type: 'redis' });
    // built without its Redis state store: this test runs no Redis
    const options = await buildModelRouterOptions({ ...config, state: { type: 'memory' } });
    expect(Object.keys(options.routers)).toEqual(['cheap', 'fast']);
    const cheap = options.routers.cheap as ModelRouter;
    expect(cheap.models()[0]!.metadata.get(MODEL_PROFILE)).toMatchObject({
      pricing: { input: 0.15, output: 0.6, cachedInput: 0.075 },
      limits: { rpm: 500, tpm: 200000 },
    });
    expect(options.budgets).toHaveLength(2);
  });
});

describe('docs/gateway.md: its YAML', () => {
  it('loads as the gateway loads it, keys and all', async () => {
    const config = await loadGatewayConfig(snippetPath('docs/gateway.md', 'config/gateway.yaml'), {
      env: {
        TEAM_A_KEY: 'team-a-key-0123456789',
        CI_KEY_SHA256: 'a'.repeat(64),
        OPS_KEY: 'ops-key-0123456789ab',
        TOOL_CALL_SECRET: 'tool-call-secret',
      },
    });
    expect(config.auth).not.toBe('none');
    expect(Object.keys(config.module.routers)).toEqual(['auto']);
    expect(config.cors).toEqual({ origins: ['https://chat.example.com'] });
  });
});
