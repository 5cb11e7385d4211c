import { describe, expect, it } from '@jest/globals';
import { LowestLatencyBalancer } from '../../../../src/core/strategies/balancers/lowest-latency-balancer.js';
import type { ChatModelWrapper } from '../../../../src/core/chat/chat-model-wrapper.js';
import { answer, attempt, manualClock, member, request } from './support.js';

/** One call through the balancer, the chosen model taking `latency[name]` ms on the clock. */
function call(
  balancer: LowestLatencyBalancer,
  models: ChatModelWrapper[],
  clock: ReturnType<typeof manualClock>,
  latency: Record<string, number>,
  stream = false,
) {
  const context = attempt(stream ? { stream: true } : {});
  const model = balancer.route(models, request, context) as ChatModelWrapper;
  clock.advance(latency[model.name]!);
  if (stream) {
    balancer.onFirstToken(model, request, context);
    clock.advance(1000); // the rest of the stream does not count
  }
  balancer.onSuccess(model, answer('ok'), request, context);
  return model.name;
}

describe('LowestLatencyBalancer', () => {
  const models = [member('slow'), member('fast')];

  it('measures every model first, then sends ≥ 90 % to one 3× faster', () => {
    const clock = manualClock();
    const balancer = new LowestLatencyBalancer({ clock: clock.fn });
    const picks = Array.from({ length: 1000 }, () =>
      call(balancer, models, clock, { slow: 300, fast: 100 }),
    );
    expect(picks.slice(0, 2)).toEqual(['slow', 'fast']);
    expect(picks.filter((p) => p === 'fast').length / 1000).toBeGreaterThanOrEqual(0.9);
    expect(balancer.latencyOf('fast')).toBe(100);
  });

  it('keeps measuring the slower model (exploration) and finds it again within 200 calls once it recovers', () => {
    const clock = manualClock();
    const balancer = new LowestLatencyBalancer({ clock: clock.fn });
    for (let i = 0; i < 500; i++) call(balancer, models, clock, { slow: 300, fast: 100 });
    const after = Array.from({ length: 200 }, () =>
      call(balancer, models, clock, { slow: 30, fast: 100 }),
    );
    const firstWin = after.findIndex((p, i) => i > 0 && p === 'slow' && after[i - 1] === 'slow');
    expect(firstWin).toBeGreaterThan(0);
    expect(after.slice(-50).filter((p) => p === 'slow').length).toBeGreaterThanOrEqual(45);
  });

  it('streams are balanced on time to first token, not on the whole answer', () => {
    const clock = manualClock();
    const balancer = new LowestLatencyBalancer({ clock: clock.fn, explore: 0 });
    for (let i = 0; i < 10; i++) call(balancer, models, clock, { slow: 50, fast: 20 }, true);
    expect(balancer.latencyOf('fast', 'stream')).toBe(20);
    expect(balancer.latencyOf('fast', 'chat')).toBeUndefined();
  });

  it('a failure gives no latency sample (the circuit judges failures)', () => {
    const clock = manualClock();
    const balancer = new LowestLatencyBalancer({ clock: clock.fn });
    const context = attempt();
    const model = balancer.route(models, request, context) as ChatModelWrapper;
    clock.advance(5000);
    balancer.onFailure(model, new Error('down'), request, context);
    balancer.onSuccess(model, answer('late'), request, context);
    expect(balancer.latencyOf(model)).toBeUndefined();
  });

  it('rejects alpha and explore outside their ranges', () => {
    expect(() => new LowestLatencyBalancer({ alpha: 0 })).toThrow('alpha');
    expect(() => new LowestLatencyBalancer({ explore: 1 })).toThrow('explore');
  });
});
