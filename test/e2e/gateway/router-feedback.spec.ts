import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { sseData } from './gateway-harness.js';
import { authed, KEYS, teamEnv, useFakeGateway } from './team-support.js';

const FIXTURE = new URL('./fixtures/learning.yaml', import.meta.url).pathname;
const LEARNED = new URL('./fixtures/learned.jsonl', import.meta.url).pathname;

describe('POST /router/feedback: decision ids, authorisation, bounded bodies', () => {
  const setup = useFakeGateway((fake) => ({
    config: FIXTURE,
    env: teamEnv(fake, { LEARNED_FILE: LEARNED }),
  }));

  const chat = (key: string, stream = false, content = 'what is the weather like on mars') =>
    fetch(
      `${setup.gateway.url}/v1/chat/completions`,
      authed(key, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'desk',
          stream,
          messages: [{ role: 'user', content }],
        }),
      }),
    );
  const feedback = (key: string, body: unknown) =>
    fetch(
      `${setup.gateway.url}/router/feedback`,
      authed(key, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    );
  const learned = async () =>
    (await (await fetch(`${setup.gateway.url}/router/learned`, authed(KEYS.ops))).json()) as {
      routers: Record<string, { counts: Record<string, number> }>;
    };

  it('names the decision in x-model-router-decision, on answers and streams', async () => {
    const answer = await chat(KEYS.teamA);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-model-router-decision')).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const streamed = await chat(KEYS.teamA, true);
    expect(streamed.headers.get('x-model-router-decision')).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(sseData(await streamed.text()).length).toBeGreaterThan(0);
  });

  it('the key that made the call teaches the router; the same feedback again is one example', async () => {
    const decision = (await chat(KEYS.teamA)).headers.get('x-model-router-decision')!;
    expect((await feedback(KEYS.teamA, { decision, route: 'complex' })).status).toBe(204);
    expect((await feedback(KEYS.teamA, { decision, route: 'complex' })).status).toBe(204);
    expect((await learned()).routers.desk!.counts).toEqual({ simple: 0, complex: 1 });
    const other = await feedback(KEYS.teamA, { decision, route: 'simple' });
    expect(other.status).toBe(409);
  });

  it("another key's decision reads as unknown (404); an admin key may give feedback", async () => {
    const decision = (await chat(KEYS.teamA)).headers.get('x-model-router-decision')!;
    const foreign = await feedback(KEYS.teamB, { decision, route: 'complex' });
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { error: { message: string } }).error.message).toMatch(
      /Unknown or expired decision/,
    );
    expect((await feedback(KEYS.ops, { decision, quality: 'bad' })).status).toBe(204);
  });

  it("a client key's feedback moves its own routing only; an admin's moves every key's", async () => {
    const text = 'tell me a joke about penguins sliding on icebergs';
    const decided = async (key: string) => {
      const answer = await chat(key, false, text);
      await answer.text();
      return {
        route: answer.headers.get('x-model-router-route')!,
        decision: answer.headers.get('x-model-router-decision')!,
      };
    };
    const before = (await decided(KEYS.teamA)).route;
    const other = before === 'simple' ? 'complex' : 'simple';
    const taught = await decided(KEYS.teamA);
    expect((await feedback(KEYS.teamA, { decision: taught.decision, route: other })).status).toBe(
      204,
    );
    expect((await decided(KEYS.teamA)).route).toBe(other);
    const forB = await decided(KEYS.teamB);
    expect(forB.route).toBe(before);
    expect((await feedback(KEYS.ops, { decision: forB.decision, route: other })).status).toBe(204);
    expect((await decided(KEYS.teamB)).route).toBe(other);
  });

  it.each([
    ['an unknown route', { route: 'nonsense' }, 400, /Unknown route 'nonsense'/],
    ['an unknown quality', { quality: 'meh' }, 400, /quality/],
    ['an extra field', { route: 'simple', extra: 1 }, 400, /extra/],
  ])('%s is a clear 4xx', async (_case, extra, status, message) => {
    const decision = (await chat(KEYS.teamA)).headers.get('x-model-router-decision')!;
    const answer = await feedback(KEYS.teamA, { decision, ...extra });
    expect(answer.status).toBe(status);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(
      message,
    );
  });

  it.each([
    ['no decision', {}],
    ['a decision that is a number', { decision: 42, route: 'simple' }],
    ['a huge decision id', { decision: 'x'.repeat(100_000), route: 'simple' }],
    ['not JSON', '{"decision": '],
    ['an unknown id', { decision: 'AAAAAAAAAAAAAAAAAAAAAA', route: 'simple' }],
  ])('%s: 4xx, never 500', async (_case, body) => {
    const answer = await feedback(KEYS.teamA, body);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
  });

  it('GET /router/learned is for admin keys; it names no key', async () => {
    const refused = await fetch(`${setup.gateway.url}/router/learned`, authed(KEYS.teamA));
    expect(refused.status).toBe(403);
    // as /metrics answers a client key, so OpenAI's SDKs read it the same way
    expect(await refused.json()).toMatchObject({
      error: { type: 'permission_error', code: 'admin_key_required' },
    });
    const listed = await fetch(`${setup.gateway.url}/router/learned`, authed(KEYS.ops));
    expect(listed.status).toBe(200);
    expect(JSON.stringify(await listed.json())).not.toMatch(/canary/);
  });

  it('a flood of feedback from one key is rate-limited with 429 and Retry-After', async () => {
    let limited: Response | undefined;
    for (let i = 0; i < 70 && !limited; i++) {
      const answer = await feedback(KEYS.teamB, { decision: `unknown-${i}`, route: 'simple' });
      if (answer.status === 429) limited = answer;
    }
    expect(limited?.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
