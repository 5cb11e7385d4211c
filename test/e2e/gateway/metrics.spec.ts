import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { register, Registry } from 'prom-client';
import { demoGatewayConfig } from '../../../apps/gateway/src/config/demo-config.js';
import type { GatewayConfig } from '../../../apps/gateway/src/config/gateway-config.js';
import { FakeProvider } from '../../../src/testing/index.js';
import {
  ManualClock,
  postJson,
  startGateway,
  user,
  type RunningGateway,
} from './gateway-harness.js';
import { sampleValue } from '../../support/metric-samples.js';

const FAKE_KEY = 'sk-fake-metrics-key-0123456789';
const WRONG_KEY = 'sk-wrong-metrics-secret-9876543210';

type Labels = Record<string, string>;

/** Every value the label takes in the samples of `name`. */
function labelValues(text: string, name: string, label: string): string[] {
  const values = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const match = new RegExp(`[{,]${label}="([^"]*)"`).exec(line);
    if (match) values.add(match[1]!);
  }
  return [...values].toSorted();
}

async function scrape(gateway: RunningGateway): Promise<string> {
  const response = await fetch(`${gateway.url}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

const REQUESTS = 'model_router_requests_total';

describe('GET /metrics on the gateway', () => {
  const clock = new ManualClock();
  let fake: FakeProvider;
  let gateway: RunningGateway;
  let config: GatewayConfig;

  beforeAll(async () => {
    fake = await FakeProvider.start({ apiKey: FAKE_KEY });
    const demo = demoGatewayConfig({ tokenDelayMs: 0, failEvery: 0, clock: clock.read });
    config = {
      ...demo,
      providers: {
        fake: { type: 'openai', baseURL: fake.openaiBaseURL, apiKey: FAKE_KEY, resilience: false },
        wrongkey: {
          type: 'openai',
          baseURL: fake.openaiBaseURL,
          apiKey: WRONG_KEY,
          resilience: false,
        },
      },
    };
    // its own registry: several gateways run in this process (the default is the global one)
    gateway = await startGateway({ clock: clock.read, config, metricsRegistry: new Registry() });
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  it('counts a routed call under the router, the route and the model that answered', async () => {
    const before = await scrape(gateway);
    const { data, response } = await gateway.client.chat.completions
      .create({ model: 'auto', messages: [user('What is the capital of France?')] })
      .withResponse();
    const route = response.headers.get('x-model-router-route')!;
    expect(route).toBe('simple');
    expect(data.model).toBe('demo-mini');

    const after = await scrape(gateway);
    const labels = { router: 'auto', route, model: 'demo-mini' };
    expect(
      sampleValue(after, REQUESTS, { ...labels, outcome: 'ok' }) -
        sampleValue(before, REQUESTS, { ...labels, outcome: 'ok' }),
    ).toBe(1);
    expect(
      sampleValue(after, 'model_router_tokens_total', { ...labels, type: 'output' }),
    ).toBeGreaterThan(
      sampleValue(before, 'model_router_tokens_total', { ...labels, type: 'output' }),
    );
    // the configured models' state, read on scrape
    expect(
      sampleValue(after, 'model_router_model_state', {
        ...labels,
        state: 'available',
      }),
    ).toBe(1);
  });

  it('folds provider/<model id> calls into one provider/* series, whatever id the client sends', async () => {
    const before = await scrape(gateway);
    const ids = ['gpt-4o-mini', 'client-chosen-id-1', 'client-chosen-id-2'];
    for (const id of ids) {
      const data = await gateway.client.chat.completions.create({
        model: `fake/${id}`,
        messages: [user('hello')],
      });
      expect(data.model).toBe(`fake/${id}`);
    }

    const after = await scrape(gateway);
    const labels = { router: '', route: '', model: 'fake/*' };
    expect(
      sampleValue(after, REQUESTS, { ...labels, outcome: 'ok' }) -
        sampleValue(before, REQUESTS, { ...labels, outcome: 'ok' }),
    ).toBe(3);
    expect(
      sampleValue(after, 'model_router_tokens_total', { ...labels, type: 'input' }),
    ).toBeGreaterThan(
      sampleValue(before, 'model_router_tokens_total', { ...labels, type: 'input' }),
    );
    for (const id of ids) expect(after).not.toContain(id);
  });

  it('labels a per-request failover list `failover`, and its members as configured or provider/*', async () => {
    const before = await scrape(gateway);
    const response = await postJson(`${gateway.url}/v1/chat/completions`, {
      model: 'fake/gpt-fault-503',
      models: ['wrongkey/gpt-4o-mini', 'demo-pro'],
      messages: [user('hello')],
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { model: string }).model).toBe('demo-pro');

    const after = await scrape(gateway);
    const delta = (name: string, labels: Labels) =>
      sampleValue(after, name, labels) - sampleValue(before, name, labels);
    expect(delta(REQUESTS, { router: '', route: '', model: 'failover', outcome: 'ok' })).toBe(1);
    expect(
      delta('model_router_model_failures_total', {
        router: '',
        route: '',
        model: 'fake/*',
        kind: 'transient',
      }),
    ).toBe(1);
    expect(
      delta('model_router_model_failures_total', {
        router: '',
        route: '',
        model: 'wrongkey/*',
        kind: 'misconfigured',
      }),
    ).toBe(1);
    expect(delta('model_router_failovers_total', { router: '', route: '' })).toBe(2);
    expect(after).not.toContain('failover(');
    expect(after).not.toContain('gpt-fault-503');
  });

  it('keeps every label bounded and never shows a provider key, even after a 401 that echoes it', async () => {
    const failed = await postJson(`${gateway.url}/v1/chat/completions`, {
      model: 'wrongkey/gpt-4o-mini',
      messages: [user('hello')],
    });
    expect(failed.status).toBeGreaterThanOrEqual(400);

    const text = await scrape(gateway);
    expect(
      sampleValue(text, REQUESTS, {
        router: '',
        route: '',
        model: 'wrongkey/*',
        outcome: 'error',
      }),
    ).toBe(1);
    expect(text).not.toContain(FAKE_KEY);
    expect(text).not.toContain(WRONG_KEY);
    expect(text).not.toMatch(/sk-[A-Za-z0-9-]{6,}/);
    // only configured names and the folded ad-hoc ones, whatever the clients asked for above
    const configured = [
      ...Object.keys(config.module.routers),
      ...Object.keys(config.module.models ?? {}),
    ];
    for (const model of labelValues(text, REQUESTS, 'model')) {
      expect([...configured, 'fake/*', 'wrongkey/*', 'failover']).toContain(model);
    }
  });
});

const quietDemo = () => demoGatewayConfig({ tokenDelayMs: 0, failEvery: 0 });

describe('several gateways in one process', () => {
  it('keep their metrics apart, each on its own registry', async () => {
    const [first, second] = [new Registry(), new Registry()];
    const a = await startGateway({ config: quietDemo(), metricsRegistry: first });
    const b = await startGateway({ config: quietDemo(), metricsRegistry: second });
    const labels = { router: '', route: '', model: 'demo-pro', outcome: 'ok' };
    try {
      await a.client.chat.completions.create({ model: 'demo-pro', messages: [user('hi')] });

      expect(sampleValue(await scrape(a), REQUESTS, labels)).toBe(1);
      expect(sampleValue(await first.metrics(), REQUESTS, labels)).toBe(1);
      expect(sampleValue(await scrape(b), REQUESTS, labels)).toBe(0);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    // a closed gateway takes its metrics out of the registry it was given
    expect(first.getSingleMetric(REQUESTS)).toBeUndefined();
  });

  it('use prom-client’s global register by default (npm start), one application at a time', async () => {
    const gateway = await startGateway({ config: quietDemo() });
    try {
      await gateway.client.chat.completions.create({ model: 'demo-pro', messages: [user('hi')] });
      const labels = { router: '', route: '', model: 'demo-pro', outcome: 'ok' };
      expect(sampleValue(await register.metrics(), REQUESTS, labels)).toBe(1);
      expect(sampleValue(await scrape(gateway), REQUESTS, labels)).toBe(1);
    } finally {
      await gateway.close();
    }
    expect(register.getSingleMetric(REQUESTS)).toBeUndefined();
  });
});
