import { describe, expect, it, jest } from '@jest/globals';
import { Redis } from 'ioredis';
import { userMessage } from '../../../src/core/chat/messages.js';
import { DecisionModelChatModelRouter } from '../../../src/core/decision/decision-model-chat-model-router.js';
import type {
  ChoiceAnswer,
  DecisionRequest,
  LearnRequest,
} from '../../../src/core/decision/decision-model.js';
import type { ChatModelRoute } from '../../../src/core/routing/chat-model-route.js';
import type { RedisRouteStateStore } from '../../../src/redis/redis-route-state-store.js';
import { useRedisStores } from './redis-fixtures.js';

const env = useRedisStores();

const ROUTES: ChatModelRoute[] = [
  { name: 'billing', descriptions: ['Invoices and payments'] },
  { name: 'shipping', descriptions: ['Deliveries and tracking'] },
];

/** One replica's decision router, its model recording what it learns. */
function replica(store: RedisRouteStateStore) {
  const learned: string[] = [];
  const model = {
    decide: async (_request: DecisionRequest): Promise<ChoiceAnswer> => ({ value: 'billing' }),
    learn: jest.fn((request: LearnRequest) => {
      const scope = request.scope === undefined ? '' : ` (${request.scope})`;
      learned.push(`${request.route}${scope}: ${JSON.stringify(request.input)}`);
    }),
  };
  const router = new DecisionModelChatModelRouter(model, { logger: { warn: () => undefined } });
  router.validate(ROUTES);
  router.bindRouteState({ store, scope: 'desk' });
  const route = (text: string, caller?: string) =>
    router.route({
      chatRequest: { messages: [userMessage(text)] },
      routes: ROUTES,
      attributes: caller === undefined ? {} : { model_router_caller: caller },
    });
  return { router, learned, route };
}

describe('learned decision examples in Redis', () => {
  it('one replica learns, the other learns it too; a restarted replica starts with them', async () => {
    const a = replica(await env.stores.open());
    const b = replica(await env.stores.open());
    await b.router.syncLearned();

    const { decisionId } = await a.route('where is my parcel');
    await a.router.feedback(decisionId!, 'shipping');
    expect(a.learned).toHaveLength(1);

    await b.router.syncLearned();
    expect(b.learned).toEqual(a.learned);
    expect(b.router.learnedCounts()).toEqual({ billing: 0, shipping: 1 });
    // a second read teaches nothing twice
    await b.router.syncLearned();
    expect(b.learned).toHaveLength(1);

    // one key per router and route, with the router's hash tag
    const raw = new Redis(env.redis.url);
    try {
      const keys = await raw.keys(`${env.stores.prefix}list:*`);
      expect(keys).toEqual([`${env.stores.prefix}list:learned:{desk}:shipping`]);
      expect(await raw.pttl(keys[0]!)).toBeGreaterThan(0);
    } finally {
      raw.disconnect();
    }

    await env.stores.closeAll();
    const restarted = replica(await env.stores.open());
    await restarted.router.syncLearned();
    expect(restarted.learned).toEqual(a.learned);
    expect(restarted.router.learnedExamples().shipping?.[0]?.input).toEqual({
      messages: [{ role: 'user', text: 'where is my parcel' }],
    });
  });

  it("a client key's example reaches the other replica in that key's scope", async () => {
    const a = replica(await env.stores.open());
    const b = replica(await env.stores.open());
    const { decisionId } = await a.route('my invoice is wrong', 'team-a');
    await a.router.feedback(decisionId!, 'shipping', { caller: 'team-a' });
    await b.router.syncLearned();
    expect(b.learned).toEqual([
      'shipping (team-a): {"messages":[{"role":"user","text":"my invoice is wrong"}]}',
    ]);
  });
});
