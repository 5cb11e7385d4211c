import { describe, expect, it } from '@jest/globals';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import type { ModelRoutingFunction } from '../../../../src/core/strategies/model-routing-strategy.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';
import {
  answer,
  fakeModel,
  kindError,
  manualClock,
  recorder,
  request,
} from '../strategies/fakes.js';

const firstModel: ModelRoutingFunction = (models) => models[0];

describe('ModelRouter routing events', () => {
  it('reports model-called, model-failed, failover and model-succeeded with the route from the call attributes', async () => {
    const seen = recorder();
    const router = new ModelRouter({
      routes: [
        { name: 'a', model: fakeModel('a', kindError('transient', '503 from a')) },
        { name: 'b', model: fakeModel('b', answer('b')) },
      ],
      routingStrategy: firstModel,
    });
    await router.chat(request, {
      observer: seen.observer,
      attributes: { chat_model_route: 'complex' },
    });
    expect(seen.events).toEqual([
      { type: 'model-called', route: 'complex', model: 'a', attempt: 1 },
      {
        type: 'model-failed',
        route: 'complex',
        model: 'a',
        attempt: 1,
        kind: 'transient',
        error: { name: 'Error', message: '503 from a' },
      },
      { type: 'failover', route: 'complex', from: 'a', to: 'b', attempt: 2 },
      { type: 'model-called', route: 'complex', model: 'b', attempt: 2 },
      { type: 'model-succeeded', route: 'complex', model: 'b', attempt: 2 },
    ]);
  });

  it('reports router-exhausted with every error, and no route when the attribute is not a string', async () => {
    const seen = recorder();
    const router = new ModelRouter({
      routes: [fakeModel('a', new Error('a is down')), fakeModel('b', new Error('b is down'))],
      routingStrategy: firstModel,
    });
    await router
      .chat(request, { observer: seen.observer, attributes: { chat_model_route: 42 } })
      .catch(() => undefined);
    expect(seen.ofType('router-exhausted')).toEqual([
      {
        type: 'router-exhausted',
        attempts: 2,
        errors: [
          { name: 'Error', message: 'a is down' },
          { name: 'Error', message: 'b is down' },
        ],
      },
    ]);
    expect(seen.events.every((event) => !('route' in event))).toBe(true);
  });

  it('router-exhausted carries the retry-after hint when every model cools down', async () => {
    const clock = manualClock();
    const seen = recorder();
    const router = new ModelRouter({
      routes: [fakeModel('a', new Error('a is down'))],
      routingStrategy: new FailoverStrategy({ cooldownMs: 3_000, clock: clock.fn }),
    });
    await router.chat(request).catch(() => undefined);
    clock.advance(1_000);
    await router.chat(request, { observer: seen.observer }).catch(() => undefined);
    expect(seen.ofType('router-exhausted')).toEqual([
      { type: 'router-exhausted', attempts: 0, errors: [], retryAfterMs: 2_000 },
    ]);
  });

  it('an observer that throws does not change the outcome', async () => {
    const router = new ModelRouter({
      routes: [fakeModel('a', new Error('a is down')), fakeModel('b', answer('b'))],
      routingStrategy: new FailoverStrategy(),
    });
    const response = await router.chat(request, {
      observer: () => {
        throw new Error('observer broke');
      },
    });
    expect(response).toEqual(answer('b'));
  });
});
