import { describe, expect, it } from '@jest/globals';
import type { ChatModel } from '../../../../src/core/chat/chat-model.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import { promptPrefixKey } from '../../../../src/core/chat/prompt-prefix.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';
import { LeastBusyBalancer } from '../../../../src/core/strategies/balancers/least-busy-balancer.js';
import { WeightedBalancer } from '../../../../src/core/strategies/balancers/weighted-balancer.js';
import { kindError } from '../strategies/fakes.js';

const MODELS = ['a', 'b', 'c'];
/** Long enough to be cached by a provider (≥ 1,024 tokens, at four characters a token). */
const SYSTEM = 'You are the support assistant of a bicycle shop. '.repeat(100);
const CONVERSATIONS = 50;
const TURNS = 20;

/** Turn `turn` of conversation `id`: the same system prompt and first message, a longer tail. */
function turnOf(id: number, turn: number): ChatRequest {
  const messages: ChatRequest['messages'] = [
    { role: 'system', text: SYSTEM },
    { role: 'user', content: `Conversation ${id}: my chain keeps slipping on hill ${id * 7}.` },
  ];
  for (let t = 1; t <= turn; t++) {
    messages.push({ role: 'assistant', text: `Answer ${t}.` });
    messages.push({ role: 'user', content: `Follow-up ${t} of ${id}.` });
  }
  return { messages };
}

function group(
  down: Set<string>,
  balancer: WeightedBalancer | LeastBusyBalancer = new WeightedBalancer(),
) {
  const served: string[] = [];
  const model = (name: string): ChatModel => ({
    chat: async () => {
      if (down.has(name)) throw kindError('server-error');
      served.push(name);
      return { aiMessage: { role: 'assistant', text: name } };
    },
  });
  const router = new ModelRouter({
    routingStrategy: new FailoverStrategy({ delegate: balancer, cooldownMs: 3_600_000 }),
    routes: MODELS.map((name) => ({ name, model: model(name) })),
  });
  return { router, served };
}

/** 1,000 calls: 20 turns of 50 conversations, interleaved; the model that answered each. */
async function run(router: ModelRouter, served: string[]): Promise<Map<number, string[]>> {
  const byConversation = new Map<number, string[]>();
  for (let turn = 0; turn < TURNS; turn++) {
    for (let id = 0; id < CONVERSATIONS; id++) {
      await router.chat(turnOf(id, turn));
      byConversation.set(id, [...(byConversation.get(id) ?? []), served.at(-1)!]);
    }
  }
  return byConversation;
}

const mostCommonShare = (models: string[]) => {
  const counts = new Map<string, number>();
  for (const model of models) counts.set(model, (counts.get(model) ?? 0) + 1);
  return Math.max(...counts.values()) / models.length;
};
const home = (models: string[]) => models[0]!;

describe('prompt affinity in a balanced group', () => {
  it('keeps each conversation on one model while all are healthy, and still spreads them', async () => {
    const { router, served } = group(new Set());
    const byConversation = await run(router, served);
    for (const models of byConversation.values())
      expect(mostCommonShare(models)).toBeGreaterThanOrEqual(0.95);
    // conversations spread over the three models (rendezvous hashing, weight 1 each)
    const homes = [...byConversation.values()].map(home);
    for (const name of MODELS) expect(homes.filter((h) => h === name).length).toBeGreaterThan(5);
  });

  it('without it, a weighted group rotates each conversation over its models', async () => {
    const { router, served } = group(new Set(), new WeightedBalancer({ promptAffinity: false }));
    const byConversation = await run(router, served);
    for (const models of byConversation.values()) expect(mostCommonShare(models)).toBeLessThan(0.5);
  });

  it('when one model cools down, only its conversations move', async () => {
    const healthy = await run(...(Object.values(group(new Set())) as [ModelRouter, string[]]));
    const { router, served } = group(new Set(['b']));
    const degraded = await run(router, served);
    let moved = 0;
    for (const [id, models] of degraded) {
      const before = home(healthy.get(id)!);
      if (before === 'b') {
        moved += 1;
        expect(models.every((m) => m !== 'b')).toBe(true);
        expect(mostCommonShare(models)).toBeGreaterThanOrEqual(0.95);
      } else {
        expect(models.every((m) => m === before)).toBe(true);
      }
    }
    expect(moved).toBeGreaterThan(5);
  });

  it('leaves short prompts, sessions and a balancer set to promptAffinity: false balanced as before', async () => {
    const short: ChatRequest = { messages: [{ role: 'user', content: 'hello' }] };
    const balancer = new LeastBusyBalancer();
    const off = new WeightedBalancer({ promptAffinity: false });
    const on = new WeightedBalancer();
    const models = MODELS.map((name) => ({
      name,
      model: { chat: async () => ({ aiMessage: { role: 'assistant' as const, text: '' } }) },
      metadata: new Map<string, unknown>(),
    }));
    const picks = (
      b: WeightedBalancer | LeastBusyBalancer,
      request: ChatRequest,
      attributes = {},
    ) =>
      new Set(
        Array.from(
          { length: 9 },
          () => (b.route(models, request, { attributes, attempt: 1 }) as { name: string }).name,
        ),
      );
    expect(picks(on, short).size).toBe(3);
    expect(picks(off, turnOf(1, 0)).size).toBe(3);
    expect(picks(on, turnOf(1, 0)).size).toBe(1);
    const events: unknown[] = [];
    on.route(models, turnOf(1, 0), { attributes: {}, attempt: 1, observer: (e) => events.push(e) });
    expect(events).toEqual([expect.objectContaining({ type: 'model-balanced', byPrefix: true })]);
    expect(picks(on, turnOf(1, 0), { model_router_session: 's1' }).size).toBe(3);
    expect(picks(balancer, turnOf(2, 0)).size).toBe(1);
    expect(picks(balancer, short).size).toBeGreaterThan(1);
  });

  it('derives one key per conversation; the caller’s own key wins', () => {
    expect(promptPrefixKey(turnOf(3, 0))).toBe(promptPrefixKey(turnOf(3, 9)));
    expect(promptPrefixKey(turnOf(3, 0))).not.toBe(promptPrefixKey(turnOf(4, 0)));
    expect(promptPrefixKey({ ...turnOf(3, 0), parameters: { promptCacheKey: 'mine' } })).toBe(
      'mine',
    );
    expect(() => new WeightedBalancer({ promptAffinity: { minPromptTokens: -1 } })).toThrow(
      /promptAffinity.minPromptTokens/,
    );
  });
});
