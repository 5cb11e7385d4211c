// The README's core example, kept compiling and true by running it here.
import { describe, expect, it } from '@jest/globals';
import {
  ChatModelRoutingResult,
  DecisionModelChatModelRouter,
  EmbeddedVectorDecisionModel,
  FailoverStrategy,
  LocalDemoChatModel,
  ModelRouter,
  RoutingChatModel,
  userMessage,
  withResilience,
  type ChatModel,
} from '../../../src/index.js';

describe('README: a decision router over two failover groups', () => {
  it('routes by meaning, fails over inside the group, and records the route', async () => {
    let now = 0;
    const clock = () => now;
    // Any ChatModel works here: OpenAiCompatibleChatModel, AnthropicChatModel, your own object.
    const cheap: ChatModel = new LocalDemoChatModel({ name: 'cheap' });
    const backup: ChatModel = new LocalDemoChatModel({ name: 'backup' });
    const strong: ChatModel = new LocalDemoChatModel({ name: 'strong', style: 'thorough' });
    const broken: ChatModel = {
      chat: async () => {
        throw new Error('provider down');
      },
    };

    const router = new RoutingChatModel({
      router: new DecisionModelChatModelRouter(new EmbeddedVectorDecisionModel(), {
        minProbability: 0.4,
      }),
      defaultRoute: 'simple',
      routes: [
        {
          name: 'simple',
          description: 'small talk, greetings and short factual questions',
          examples: ['hi there', 'what is the capital of France', 'thanks, bye'],
          model: new ModelRouter({
            routes: [
              { name: 'broken', model: broken },
              { name: 'cheap', model: withResilience(cheap, { name: 'cheap' }) },
            ],
            routingStrategy: new FailoverStrategy({ cooldownMs: 30_000, clock }),
          }),
        },
        {
          name: 'complex',
          description: 'mathematical proofs, algorithms and multi-step reasoning',
          examples: ['prove that there are infinitely many primes', 'design a sorting algorithm'],
          model: new ModelRouter({
            routes: [
              { name: 'strong', model: strong },
              { name: 'backup', model: backup },
            ],
            routingStrategy: new FailoverStrategy({
              halfOpenProbes: 1,
              cooldownMultiplier: 2,
              clock,
            }),
          }),
        },
      ],
    });

    const simple = await router.chat({ messages: [userMessage('hello, how are you?')] });
    expect(simple.aiMessage.attributes?.chat_model_route).toBe('simple');
    expect(simple.aiMessage.text).toContain("Model 'cheap'"); // 'broken' failed over to 'cheap'

    const complex = await router.chat({
      messages: [userMessage('prove that the square root of two is irrational')],
    });
    expect(complex.aiMessage.attributes?.chat_model_route).toBe('complex');
    expect(complex.aiMessage.text).toContain("Model 'strong'");

    // 'broken' is cooling down: the next simple request goes straight to 'cheap'.
    const health = router.inspectModels().find((m) => m.model === 'broken');
    expect(health).toMatchObject({ route: 'simple', state: 'cooldown', failures: 1 });
    now += 30_000;
    expect(router.inspectModels().find((m) => m.model === 'broken')?.state).not.toBe('cooldown');

    // A function is a router too.
    const fixed = new RoutingChatModel({
      routes: [{ name: 'only', model: broken }],
      router: () => ChatModelRoutingResult.route('only'),
      defaultRoute: 'only',
    });
    await expect(fixed.chat({ messages: [userMessage('x')] })).rejects.toThrow('provider down');
  });
});
