import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { demoGatewayConfig } from '../../../apps/gateway/src/config/demo-config.js';
import type { ChatModel } from '../../../src/core/chat/chat-model.js';
import { ProviderException } from '../../../src/core/errors/provider-exception.js';
import { InMemoryRouteStateStore } from '../../../src/core/state/in-memory-route-state-store.js';
import {
  ManualClock,
  postJson,
  startGateway,
  user,
  type RunningGateway,
} from './gateway-harness.js';

/** `fake/ok` answers; any other id is a model the provider does not have (404). */
function fakeProvider(modelId: string): ChatModel {
  return {
    chat: async () => {
      if (modelId === 'ok') return { aiMessage: { role: 'assistant', text: 'ok' } };
      throw new ProviderException(`fake model '${modelId}' failed: HTTP 404: no such model`, {
        kind: 'misconfigured',
        provider: 'fake',
        model: modelId,
        status: 404,
      });
    },
  };
}

/**
 * Issue 12, point 3: 10,000 requests naming new `provider/<random>` models in failover lists
 * left one circuit each in the state store, never released.
 */
describe('circuits of models that clients name', () => {
  const clock = new ManualClock();
  const store = new InMemoryRouteStateStore(clock.read, { maxCircuits: 50 });
  let gateway: RunningGateway;

  beforeAll(async () => {
    const demo = demoGatewayConfig({ tokenDelayMs: 0, failEvery: 0, clock: clock.read });
    gateway = await startGateway({
      config: {
        ...demo,
        module: { ...demo.module, stateStore: store },
        providers: { fake: fakeProvider },
      },
      clock: clock.read,
    });
  });

  afterAll(() => gateway.close());

  const health = async () => (await fetch(`${gateway.url}/health`)).text();

  it('stay within the store’s bound, and health stays the same size', async () => {
    const before = await health();
    for (let i = 0; i < 300; i++) {
      const response = await postJson(`${gateway.url}/v1/chat/completions`, {
        model: `fake/random-${i}`,
        models: ['fake/ok'],
        messages: [user('hi')],
      });
      expect(response.status).toBe(200);
    }
    expect(store.circuitCount()).toBeLessThanOrEqual(50);
    expect((await health()).length).toBe(before.length);
  });

  it('are forgotten an hour after their cooldown ends', async () => {
    clock.advance(30_000 + 60 * 60_000);
    expect(store.listCircuits('gateway/models:').size).toBe(0);
  });
});
