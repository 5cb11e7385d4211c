import { describe, expect, it } from '@jest/globals';
import { LowestCostBalancer } from '../../../../src/core/strategies/balancers/lowest-cost-balancer.js';
import { OrderedBalancer } from '../../../../src/core/strategies/balancers/balancer.js';
import { userMessage } from '../../../../src/core/chat/messages.js';
import type { ChatModelWrapper } from '../../../../src/core/chat/chat-model-wrapper.js';
import { answer, attempt, member, recorder, request } from './support.js';

describe('LowestCostBalancer', () => {
  // cheap input, dear output versus the opposite
  const inputCheap = member('input-cheap', { pricing: { input: 0.1, output: 10 } });
  const outputCheap = member('output-cheap', { pricing: { input: 5, output: 1 } });
  const unpriced = member('unpriced');

  it('estimates prompt × input price + expected output × output price', () => {
    const balancer = new LowestCostBalancer();
    const longPrompt = {
      messages: [userMessage('x'.repeat(40_000))],
      parameters: { maxOutputTokens: 10 },
    };
    // 10,000 prompt tokens: input price dominates
    expect(balancer.estimateCost(inputCheap, longPrompt)).toBeCloseTo(
      (10_000 * 0.1 + 10 * 10) / 1e6,
      12,
    );
    expect((balancer.route([outputCheap, inputCheap], longPrompt) as ChatModelWrapper).name).toBe(
      'input-cheap',
    );
    // a short prompt with a long expected answer: output price dominates
    const longAnswer = { messages: [userMessage('hi')], parameters: { maxOutputTokens: 4000 } };
    expect((balancer.route([inputCheap, outputCheap], longAnswer) as ChatModelWrapper).name).toBe(
      'output-cheap',
    );
  });

  it("learns a model's answer length; maxOutputTokens caps it", () => {
    const balancer = new LowestCostBalancer({ expectedOutputTokens: 1000 });
    balancer.onSuccess(
      inputCheap,
      { ...answer('ok'), tokenUsage: { outputTokens: 2 } },
      request,
      attempt(),
    );
    // expected output 2 tokens on input-cheap now: it wins a short prompt
    expect((balancer.route([outputCheap, inputCheap], request) as ChatModelWrapper).name).toBe(
      'input-cheap',
    );
  });

  it('a model without pricing comes after priced ones (unknown is not cheap)', () => {
    const balancer = new LowestCostBalancer();
    expect((balancer.route([unpriced, outputCheap], request) as ChatModelWrapper).name).toBe(
      'output-cheap',
    );
    expect(balancer.estimateCost(unpriced, request)).toBeUndefined();
  });

  it('reports each choice as a model-balanced event', () => {
    const events = recorder();
    new LowestCostBalancer().route(
      [inputCheap, outputCheap],
      request,
      attempt({ observer: events.observer, route: 'r' }),
    );
    expect(events.ofType('model-balanced')).toEqual([
      {
        type: 'model-balanced',
        route: 'r',
        model: 'output-cheap',
        balancer: 'lowest-cost',
        candidates: 2,
      },
    ]);
  });
});

describe('OrderedBalancer', () => {
  it('is the failover order: always the first candidate', () => {
    const models = [member('a'), member('b')];
    const balancer = new OrderedBalancer();
    expect([1, 2, 3].map(() => (balancer.route(models, request) as ChatModelWrapper).name)).toEqual(
      ['a', 'a', 'a'],
    );
    expect(balancer.route([], request)).toBeUndefined();
  });
});
