import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FakeProvider } from '../../../src/testing/index.js';
import { postJson, startGatewayOnFake, user, type RunningGateway } from './gateway-harness.js';

const KEY = 'sk-fake-affinity-0123456789';
/** Over 1,024 tokens at four characters a token: a prompt a provider caches. */
const SYSTEM = 'You answer questions about the team’s deployment runbook. '.repeat(80);

/** Issue 28, point 2, over HTTP: conversations stay on one model; the cache key goes upstream. */
describe('prompt caches kept warm through the gateway', () => {
  let fake: FakeProvider;
  let gateway: RunningGateway;
  const chat = (conversation: number, turn: number, extra: Record<string, unknown> = {}) => {
    const messages: unknown[] = [
      { role: 'system', content: SYSTEM },
      user(`Conversation ${conversation}: how do I roll back release ${conversation}?`),
    ];
    for (let t = 1; t <= turn; t++) {
      messages.push({ role: 'assistant', content: `Step ${t}.` }, user(`And then (${t})?`));
    }
    return postJson(`${gateway.url}/v1/chat/completions`, { model: 'pool', messages, ...extra });
  };

  beforeAll(async () => {
    ({ fake, gateway } = await startGatewayOnFake(KEY, {
      config: 'test/e2e/gateway/fixtures/prompt-affinity.yaml',
    }));
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  it('sends every turn of a conversation to one model, with one prompt_cache_key', async () => {
    const served = new Map<number, Set<string>>();
    const keys = new Map<number, Set<unknown>>();
    for (let turn = 0; turn < 5; turn++) {
      for (let conversation = 0; conversation < 12; conversation++) {
        const response = await chat(conversation, turn);
        expect(response.status).toBe(200);
        await response.text();
        const upstream = fake.requests.all().at(-1)!;
        served.set(conversation, (served.get(conversation) ?? new Set()).add(upstream.model!));
        const key = (upstream.body as { prompt_cache_key?: unknown }).prompt_cache_key;
        keys.set(conversation, (keys.get(conversation) ?? new Set()).add(key));
      }
    }
    for (const models of served.values()) expect(models.size).toBe(1);
    for (const key of keys.values()) expect([...key]).toEqual([expect.stringMatching(/^mr-/)]);
    // and the conversations are spread over the group
    const homes = new Set([...served.values()].map((models) => [...models][0]));
    expect(homes.size).toBeGreaterThan(1);
  });

  it("passes the caller's prompt_cache_key through, and it decides the model", async () => {
    const models = new Set<string>();
    for (let conversation = 0; conversation < 6; conversation++) {
      const response = await chat(conversation, 0, { prompt_cache_key: 'runbook-v2' });
      expect(response.status).toBe(200);
      await response.text();
      const upstream = fake.requests.all().at(-1)!;
      expect((upstream.body as { prompt_cache_key?: unknown }).prompt_cache_key).toBe('runbook-v2');
      models.add(upstream.model!);
    }
    expect(models.size).toBe(1);
  });
});
