import { describe, expect, it } from '@jest/globals';
import { WeightedBalancer } from '../../../../src/core/strategies/balancers/weighted-balancer.js';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';
import type { ChatModelWrapper } from '../../../../src/core/chat/chat-model-wrapper.js';
import { counts, member, request } from './support.js';

function pickMany(balancer: WeightedBalancer, models: ChatModelWrapper[], n: number) {
  const picks: ChatModelWrapper[] = [];
  for (let i = 0; i < n; i++) picks.push(balancer.route(models, request) as ChatModelWrapper);
  return picks;
}

describe('WeightedBalancer (smooth weighted round-robin)', () => {
  const models = [
    member('a', { weight: 5 }),
    member('b', { weight: 1 }),
    member('c', { weight: 1 }),
  ];

  it('gives each model exactly its share in every cycle, spread out rather than in a burst', () => {
    const picks = pickMany(new WeightedBalancer(), models, 7).map((m) => m.name);
    // nginx's sequence for 5:1:1 — never more than three of 'a' in a row
    expect(picks).toEqual(['a', 'a', 'b', 'a', 'c', 'a', 'a']);
    expect(counts(pickMany(new WeightedBalancer(), models, 7000))).toEqual({
      a: 5000,
      b: 1000,
      c: 1000,
    });
  });

  it('holds shares within 1 % over any window of 10,000 calls, with fractional weights', () => {
    const odd = [member('x', { weight: 0.7 }), member('y', { weight: 0.3 })];
    const picks = pickMany(new WeightedBalancer(), odd, 10_123).slice(123);
    const share = counts(picks).x! / picks.length;
    expect(Math.abs(share - 0.7)).toBeLessThan(0.01);
  });

  it('takes weights from options when a model has no profile weight, 1 otherwise', () => {
    const plain = [member('p'), member('q'), member('r')];
    const balancer = new WeightedBalancer({ weights: { p: 2 } });
    expect(counts(pickMany(balancer, plain, 400))).toEqual({ p: 200, q: 100, r: 100 });
  });

  it('two balancers on one store walk one cycle together (replicas share the shares)', () => {
    const store = new InMemoryRouteStateStore();
    const one = new WeightedBalancer({ store, scope: 'g' });
    const two = new WeightedBalancer({ store, scope: 'g' });
    const picks: ChatModelWrapper[] = [];
    for (let i = 0; i < 700; i++)
      picks.push((i % 2 ? one : two).route(models, request) as ChatModelWrapper);
    expect(counts(picks)).toEqual({ a: 500, b: 100, c: 100 });
  });

  it('rejects a weight that is not a positive number, naming the model', () => {
    expect(() => new WeightedBalancer({ weights: { a: 0 } })).toThrow('weights.a');
  });
});
