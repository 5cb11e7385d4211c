import { describe, expect, it } from '@jest/globals';
import type { ChatModel } from '../../../../src/core/chat/chat-model.js';
import { DecisionModelChatModelRouter } from '../../../../src/core/decision/decision-model-chat-model-router.js';
import type { DecisionModel } from '../../../../src/core/decision/decision-model.js';
import { TargetShare, validateTargetShare } from '../../../../src/core/decision/target-share.js';
import { RoutingChatModel } from '../../../../src/core/routing/routing-chat-model.js';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';

/** mulberry32: a seeded, deterministic stream of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * A deterministic fake decision model with a spread of probabilities: P(complex) is skewed low
 * (u³: about a fifth of messages above 0.5), as a real judge's is on mostly simple traffic.
 */
function spreadDecisionModel(seed = 7): DecisionModel {
  const next = seeded(seed);
  return {
    decide: async () => {
      const complex = next() ** 3;
      return {
        value: complex > 0.5 ? 'complex' : 'simple',
        probabilities: { simple: 1 - complex, complex },
      };
    },
  };
}

const answering = (name: string): ChatModel => ({
  chat: async () => ({ aiMessage: { role: 'assistant', text: name } }),
});

async function complexShare(
  share: number | undefined,
  options: { minProbability?: number; store?: InMemoryRouteStateStore; seed?: number } = {},
) {
  const router = new DecisionModelChatModelRouter(spreadDecisionModel(options.seed), {
    ...(share !== undefined
      ? {
          targetShare: new TargetShare(
            { complex: share },
            options.store ? { store: options.store, scope: 'shared' } : {},
          ),
        }
      : {}),
    ...(options.minProbability !== undefined ? { minProbability: options.minProbability } : {}),
  });
  const model = new RoutingChatModel({
    routes: [
      { name: 'simple', description: 'Simple questions', model: answering('simple') },
      { name: 'complex', description: 'Hard problems', model: answering('complex') },
    ],
    router,
    defaultRoute: 'simple',
  });
  const routes: string[] = [];
  for (let i = 0; i < 1_000; i++) {
    const response = await model.chat({
      messages: [{ role: 'user', content: `message ${i}: ${i % 3 === 0 ? 'prove it' : 'hi'}` }],
    });
    routes.push(response.aiMessage.text ?? '');
  }
  const after = routes.slice(200);
  return { share: after.filter((r) => r === 'complex').length / after.length, router };
}

describe('targetShare: a calibrated share for a route', () => {
  it('without it, the route gets what the decision model gives it', async () => {
    const { share } = await complexShare(undefined);
    expect(share).toBeGreaterThan(0.17);
    expect(share).toBeLessThan(0.24);
  });

  it('keeps the complex share within 0.25–0.35 for a target of 0.3', async () => {
    const { share, router } = await complexShare(0.3);
    expect(share).toBeGreaterThanOrEqual(0.25);
    expect(share).toBeLessThanOrEqual(0.35);
    const [status] = router.targetShare!.report();
    expect(status).toMatchObject({ route: 'complex', target: 0.3, samples: 1_000 });
    expect(status!.achieved).toBeGreaterThan(0.25);
    expect(status!.threshold).toBeLessThan(0.5);
  });

  it('keeps it within 0.07–0.13 for a target of 0.1', async () => {
    const { share } = await complexShare(0.1);
    expect(share).toBeGreaterThanOrEqual(0.07);
    expect(share).toBeLessThanOrEqual(0.13);
  });

  it('still sends calls below minProbability to the default route', async () => {
    // the route gets at most the calls above 0.75 (about 9 %), not its 30 % target
    const { share } = await complexShare(0.3, { minProbability: 0.75 });
    expect(share).toBeLessThan(0.2);
  });

  it('replicas on one store calibrate on each other’s decisions', async () => {
    const store = new InMemoryRouteStateStore();
    await complexShare(0.3, { store, seed: 1 });
    const second = new TargetShare({ complex: 0.3 }, { store, scope: 'shared' });
    expect(second.report()[0]!.samples).toBe(1_000);
  });

  it('validates the targets: route names and shares in (0, 1)', () => {
    expect(() => validateTargetShare({ complex: 1.2 }, ['simple', 'complex'])).toThrow(
      /targetShare.complex must be a share between 0 and 1/,
    );
    expect(() => validateTargetShare({ hard: 0.2 }, ['simple', 'complex'])).toThrow(
      /targetShare.hard: no such route/,
    );
    expect(() => validateTargetShare({ a: 0.6, b: 0.5 })).toThrow(/add up to 1.1/);
    expect(
      () =>
        new RoutingChatModel({
          routes: [
            { name: 'simple', model: answering('s') },
            { name: 'complex', model: answering('c') },
          ],
          router: new DecisionModelChatModelRouter(spreadDecisionModel(), {
            targetShare: { hard: 0.2 },
          }),
          defaultRoute: 'simple',
        }),
    ).toThrow(/targetShare.hard: no such route/);
  });
});
