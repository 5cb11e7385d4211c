import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { ManualClock } from './gateway-harness.js';
import { KEYS, teamEnv, useFakeGateway } from './team-support.js';

const FIXTURE = new URL('./fixtures/session-pins.yaml', import.meta.url).pathname;

describe('session pins are per key and bounded per key (issue 24, point 7)', () => {
  const clock = new ManualClock();
  const team = useFakeGateway((fake) => ({
    config: FIXTURE,
    env: teamEnv(fake),
    clock: clock.read,
    maxSessionsPerKey: 2,
    metricsRegistry: new Registry(),
  }));

  /** The model that answered `key` in `session`. */
  const ask = async (key: string, session: string): Promise<string> => {
    const answer = await fetch(`${team.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${key}`,
        'x-model-router-session': session,
      },
      body: JSON.stringify({ model: 'pair', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(answer.status).toBe(200);
    return answer.headers.get('x-model-router-model') ?? '';
  };
  const askTimes = async (key: string, session: string, times: number) => {
    const answers: string[] = [];
    for (let i = 0; i < times; i++) answers.push(await ask(key, session));
    return answers;
  };

  it('a key neither reads nor overwrites the pin of another key’s session of the same id', async () => {
    const a = [await ask(KEYS.teamA, 'shared-id')];
    const b = [await ask(KEYS.teamB, 'shared-id')];
    for (let i = 0; i < 3; i++) {
      a.push(await ask(KEYS.teamA, 'shared-id'));
      b.push(await ask(KEYS.teamB, 'shared-id'));
    }
    expect(new Set(a).size).toBe(1);
    expect(new Set(b).size).toBe(1);
    // the router alternates: B's first call went to the other model, and stayed there
    expect(a[0]).not.toBe(b[0]);
  });

  it('a key beyond its live sessions is served unpinned; its pinned ones and other keys’ stay', async () => {
    clock.advance(31 * 60_000); // the first test's sessions expire
    const first = await askTimes(KEYS.teamA, 'a-1', 2);
    await askTimes(KEYS.teamA, 'a-2', 1);
    // a third live session of team-a is not pinned: the router alternates for it
    const third = await askTimes(KEYS.teamA, 'a-3', 4);
    expect(new Set(third).size).toBe(2);
    expect(await askTimes(KEYS.teamA, 'a-1', 3)).toEqual([first[0], first[0], first[0]]);
    // team-b's bound is its own
    expect(new Set(await askTimes(KEYS.teamB, 'b-1', 4)).size).toBe(1);
    // once team-a's sessions have expired, a new one is pinned again
    clock.advance(31 * 60_000);
    expect(new Set(await askTimes(KEYS.teamA, 'a-3', 4)).size).toBe(1);
  });
});
