import { describe, expect, it } from '@jest/globals';
import { ResponseCache } from '../../../../src/core/cache/response-cache.js';
import type { ResponseCacheStore } from '../../../../src/core/cache/response-cache-store.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';
import { MemoryResponseCacheStore } from '../../../../src/nest/cache/memory-response-cache-store.js';

const request = { messages: [{ role: 'user' as const, content: 'hello' }] };
const answer = (fields: Partial<ChatResponse> = {}): ChatResponse => ({
  aiMessage: { role: 'assistant', text: 'hi', attributes: { model_router_cost_usd: 0.002 } },
  finishReason: 'stop',
  tokenUsage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 },
  ...fields,
});

describe('ResponseCache', () => {
  it('serves a stored answer at no cost and no usage, and counts what it saved', async () => {
    const cache = new ResponseCache({ store: new MemoryResponseCacheStore() });
    const plan = cache.plan(request, 'auto', 'team-a', { ttlMs: 1000 });
    expect((await cache.lookup(plan)).outcome).toBe('miss');
    await cache.save(plan, { response: answer(), storedAt: 0 });
    const hit = await cache.lookup(cache.plan(request, 'auto', 'team-a', { ttlMs: 1000 }));
    expect(hit.outcome).toBe('hit');
    const served = cache.served(hit);
    expect(served.aiMessage.text).toBe('hi');
    expect(served.tokenUsage).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
    expect(served.aiMessage.attributes).toMatchObject({
      model_router_cost_usd: 0,
      model_router_cache: 'hit',
    });
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, savedUsd: 0.002 });
    expect(cache.hitRate()).toBe(0.5);
  });

  it("does not replay the stored answer's decision id: that decision was another call's", async () => {
    const cache = new ResponseCache({ store: new MemoryResponseCacheStore() });
    const plan = cache.plan(request, 'auto', 'team-a', { ttlMs: 1000 });
    const decided = answer({
      aiMessage: {
        role: 'assistant',
        text: 'hi',
        attributes: { model_router_cost_usd: 0.002, chat_model_decision_id: 'd-1' },
      },
    });
    await cache.save(plan, { response: decided, storedAt: 0 });
    const served = cache.served(await cache.lookup(plan));
    expect(served.aiMessage.attributes).not.toHaveProperty('chat_model_decision_id');
    expect(served.aiMessage.attributes).toMatchObject({ model_router_cache: 'hit' });
  });

  it.each<[string, Partial<ChatResponse>]>([
    ['cut at the token limit', { finishReason: 'length' }],
    ['filtered', { finishReason: 'content_filter' }],
    ['empty', { aiMessage: { role: 'assistant', text: '' } }],
  ])('does not store an answer %s', async (_, fields) => {
    const cache = new ResponseCache({ store: new MemoryResponseCacheStore() });
    const plan = cache.plan(request, 'auto', undefined, { ttlMs: 1000 });
    expect(await cache.save(plan, { response: answer(fields), storedAt: 0 })).toBe(false);
  });

  it('does not store an answer larger than its bound', async () => {
    const cache = new ResponseCache({ store: new MemoryResponseCacheStore(), maxValueBytes: 100 });
    const plan = cache.plan(request, 'auto', undefined, { ttlMs: 1000 });
    const long = answer({ aiMessage: { role: 'assistant', text: 'x'.repeat(200) } });
    expect(await cache.save(plan, { response: long, storedAt: 0 })).toBe(false);
  });

  it('misses, and never throws, when the store fails', async () => {
    const broken: ResponseCacheStore = {
      kind: 'broken',
      get: () => Promise.reject(new Error('ECONNREFUSED')),
      set: () => Promise.reject(new Error('ECONNREFUSED')),
    };
    const cache = new ResponseCache({ store: broken });
    const plan = cache.plan(request, 'auto', undefined, { ttlMs: 1000 });
    expect((await cache.lookup(plan)).outcome).toBe('miss');
    expect(await cache.save(plan, { response: answer(), storedAt: 0 })).toBe(false);
    expect(cache.stats().errors).toBe(2);
  });

  it('neither looks up nor stores under no-store; stores without looking under no-cache', async () => {
    const cache = new ResponseCache({ store: new MemoryResponseCacheStore() });
    const noStore = cache.plan(request, 'auto', undefined, { ttlMs: 1000 }, 'no-store');
    expect(noStore).toMatchObject({ lookup: false, store: false });
    const noCache = cache.plan(request, 'auto', undefined, { ttlMs: 1000 }, 'no-cache');
    expect((await cache.lookup(noCache)).outcome).toBe('bypass');
    expect(await cache.save(noCache, { response: answer(), storedAt: 0 })).toBe(true);
  });
});

describe('MemoryResponseCacheStore', () => {
  const entry = { response: answer(), storedAt: 0 };

  it('keeps at most maxEntries, the least recently used forgotten first', () => {
    const store = new MemoryResponseCacheStore({ maxEntries: 2 });
    store.set('a', entry, 1000, 'x');
    store.set('b', entry, 1000, 'x');
    store.get('a');
    store.set('c', entry, 1000, 'x');
    expect([store.get('a'), store.get('b'), store.get('c')].map(Boolean)).toEqual([
      true,
      false,
      true,
    ]);
  });

  it('keeps at most maxBytes, and nothing larger than the whole', () => {
    const store = new MemoryResponseCacheStore({ maxBytes: 100 });
    store.set('a', entry, 1000, 'x'.repeat(60));
    store.set('b', entry, 1000, 'x'.repeat(60));
    expect(store.get('a')).toBeUndefined();
    expect(store.bytes).toBe(60);
    store.set('huge', entry, 1000, 'x'.repeat(101));
    expect(store.get('huge')).toBeUndefined();
  });

  it('forgets an entry after its TTL, on the injected clock', () => {
    let now = 1_000;
    const store = new MemoryResponseCacheStore({ clock: () => now });
    store.set('a', entry, 500, 'x');
    now += 499;
    expect(store.get('a')).toBeDefined();
    now += 2;
    expect(store.get('a')).toBeUndefined();
  });
});
