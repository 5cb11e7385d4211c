import { describe, expect, it } from '@jest/globals';
import { LeastBusyBalancer } from '../../../../src/core/strategies/balancers/least-busy-balancer.js';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';
import type { ChatModelWrapper } from '../../../../src/core/chat/chat-model-wrapper.js';
import { answer, attempt, counts, manualClock, member, request } from './support.js';

describe('LeastBusyBalancer', () => {
  const models = [member('a'), member('b'), member('c')];

  it('spreads concurrent calls over the models with the fewest in flight', () => {
    const balancer = new LeastBusyBalancer();
    const held = Array.from({ length: 9 }, () => {
      const context = attempt();
      return { context, model: balancer.route(models, request, context) as ChatModelWrapper };
    });
    expect(counts(held.map((h) => h.model))).toEqual({ a: 3, b: 3, c: 3 });
    // two finish on 'b': the next two calls go there
    for (const done of held.filter((h) => h.model.name === 'b').slice(0, 2)) {
      balancer.onSuccess(done.model, answer('ok'), request, done.context);
    }
    expect(balancer.inFlight('b')).toBe(1);
    expect((balancer.route(models, request, attempt()) as ChatModelWrapper).name).toBe('b');
  });

  it('releases on failure and cancel too, and only once per attempt', () => {
    const balancer = new LeastBusyBalancer();
    const context = attempt();
    const model = balancer.route(models, request, context) as ChatModelWrapper;
    balancer.onFailure(model, new Error('down'), request, context);
    balancer.onCancel(model, undefined, request, context);
    expect(balancer.inFlight(model)).toBe(0);
  });

  it('counts in flight across balancers sharing a store (replicas)', () => {
    const store = new InMemoryRouteStateStore();
    const one = new LeastBusyBalancer({ store, scope: 'g' });
    const two = new LeastBusyBalancer({ store, scope: 'g' });
    const first = one.route(models, request, attempt()) as ChatModelWrapper;
    const second = two.route(models, request, attempt()) as ChatModelWrapper;
    expect([first.name, second.name]).toEqual(['a', 'b']);
  });

  it('a call never released (its replica died) stops counting after one to two windows', () => {
    const clock = manualClock(0);
    const balancer = new LeastBusyBalancer({ clock: clock.fn, windowMs: 1000 });
    balancer.route(models, request, attempt()); // never settled
    clock.advance(1500);
    const finishing = attempt();
    const model = balancer.route(models, request, finishing) as ChatModelWrapper;
    expect(balancer.inFlight('a')).toBe(1); // the lost call, in the previous window
    expect(model.name).toBe('b');
    clock.advance(500); // it started in a window that no longer counts; this one released later
    balancer.onSuccess(model, answer('ok'), request, finishing);
    expect(balancer.inFlight('a')).toBe(0);
    expect(balancer.inFlight('b')).toBe(0);
  });

  it('a call without a context (the balancer used as a bare chooser) is not counted', () => {
    const balancer = new LeastBusyBalancer();
    balancer.route(models, request);
    expect(balancer.inFlight('a')).toBe(0);
  });
});
