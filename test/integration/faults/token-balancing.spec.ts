import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LowestTokenUsageRoutingStrategy } from '../../../src/core/strategies/lowest-token-usage-routing-strategy.js';
import { FakeProvider } from '../../../src/testing/index.js';
import { FaultStack, ask, expectedAnswer } from './fault-fixture.js';

/**
 * 200 requests at once over equal models: without reservations they would all land on the model
 * that was lowest when they started; with them, each model gets its share within 10%.
 */

const MODELS = ['gpt-even-a', 'gpt-even-b', 'gpt-even-c', 'gpt-even-d'];
const REQUESTS = 200;
const roomy = { attemptMs: 15_000, firstTokenMs: 15_000, idleMs: 15_000 };

describe('token balancing under concurrency, over real HTTP', () => {
  let provider: FakeProvider;
  let stack: FaultStack;
  const strategy = new LowestTokenUsageRoutingStrategy();

  beforeAll(async () => {
    provider = await FakeProvider.start();
    stack = await FaultStack.start({
      provider,
      strategy,
      models: MODELS.map((model) => ({ name: model, providerModel: model, timeouts: roomy })),
    });
  });
  afterAll(async () => {
    await stack.close();
    await provider.close();
  });

  it(`spreads ${REQUESTS} concurrent requests over ${MODELS.length} equal models within 10%`, async () => {
    const responses = await Promise.all(
      Array.from({ length: REQUESTS }, () =>
        stack.service.chat({ ...ask(), parameters: { maxOutputTokens: 64 } }),
      ),
    );

    // every request got its whole answer
    for (const response of responses) {
      expect(response.aiMessage.text).toBe(expectedAnswer(response.modelName!));
      expect(response.tokenUsage?.totalTokens).toBeGreaterThan(0);
    }
    const fair = REQUESTS / MODELS.length;
    for (const model of MODELS) {
      const requests = provider.requests.count(model);
      expect(requests).toBeGreaterThanOrEqual(fair * 0.9);
      expect(requests).toBeLessThanOrEqual(fair * 1.1);
      expect(responses.filter((r) => r.modelName === model)).toHaveLength(requests);
    }
    // the real usage is balanced too, and no reservation is left behind
    const tokens = MODELS.map((model) => strategy.tokensOf(model));
    expect(Math.max(...tokens) / Math.min(...tokens)).toBeLessThanOrEqual(1.1);
    const total = responses.reduce((sum, r) => sum + r.tokenUsage!.totalTokens!, 0);
    expect(tokens.reduce((a, b) => a + b, 0)).toBe(total);
  });
});
