import 'reflect-metadata';
import { afterEach, describe, expect, it } from '@jest/globals';
import { Test, type TestingModule } from '@nestjs/testing';
import { buildModelRouterOptions } from '../../../src/nest/config/build-model-router-options.js';
import { parseModelRouterConfig } from '../../../src/config/load-model-router-config.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import { RoutingChatService } from '../../../src/nest/service/routing-chat.service.js';
import { testFactories } from './test-factories.js';
import { problemsOf } from '../../support/config-problems.js';

const MUST =
  "must be a duration such as '250ms', '20s', '5m' or '1h', or a whole number of milliseconds above 0";

const ask = (text: string) => ({ messages: [{ role: 'user' as const, content: text }] });

let moduleRef: TestingModule | undefined;

afterEach(async () => {
  await moduleRef?.close();
  moduleRef = undefined;
});

/**
 * A group [a, b] whose sessions live `sessionTtlMs` (omitted: the ModelRouter's default), on a
 * clock the test moves. Session `s1` is moved to b by a failover, `a` recovers, and the test
 * asks again once `elapsedMs` have passed since that failover.
 */
async function modelAnsweringPinnedSessionAfter(
  elapsedMs: number,
  sessionTtlMs: number | string | undefined,
): Promise<string | undefined> {
  const { factories, built } = testFactories();
  let now = Date.UTC(2030, 0, 1);
  const clock = () => now;
  const config = parseModelRouterConfig({
    models: { a: { type: 'echo' }, b: { type: 'echo' } },
    routers: {
      main: {
        models: ['a', 'b'],
        cooldownMs: 100,
        ...(sessionTtlMs !== undefined ? { sessionTtlMs } : {}),
      },
    },
  });
  moduleRef = await Test.createTestingModule({
    imports: [
      ModelRouterModule.forRoot(await buildModelRouterOptions(config, { factories, clock })),
    ],
  }).compile();
  await moduleRef.init();
  const chat = moduleRef.get(RoutingChatService);

  expect((await chat.chat(ask('hi'), { session: 's1' })).aiMessage.text).toBe('a: hi');
  built.get('a')!.failing = true;
  expect((await chat.chat(ask('hi'), { session: 's1' })).aiMessage.text).toBe('b: hi');
  built.get('a')!.failing = false;
  now += elapsedMs;
  // a fresh session shows a is back in front of the group (its cooldown is over)
  expect((await chat.chat(ask('hi'), { session: 'fresh' })).aiMessage.text).toBe('a: hi');
  return (await chat.chat(ask('hi'), { session: 's1' })).aiMessage.text;
}

describe('sessionTtlMs in the configuration', () => {
  it('keeps a session on its model until the configured TTL has passed, then lets it go', async () => {
    expect(await modelAnsweringPinnedSessionAfter(999, 1000)).toBe('b: hi');
    expect(await modelAnsweringPinnedSessionAfter(1000, 1000)).toBe('a: hi');
  });

  it('takes an interpolated string (`${SESSION_TTL_MS}`) as a number', async () => {
    expect(await modelAnsweringPinnedSessionAfter(1000, '1000')).toBe('a: hi');
  });

  it('leaves the ModelRouter default (30 minutes) when not set', async () => {
    expect(await modelAnsweringPinnedSessionAfter(1000, undefined)).toBe('b: hi');
    expect(await modelAnsweringPinnedSessionAfter(30 * 60_000, undefined)).toBe('a: hi');
  });

  it('accepts it on routes of a decision-routed router', async () => {
    const config = parseModelRouterConfig({
      models: { a: { type: 'echo' } },
      routers: { main: { routes: [{ name: 'only', model: 'a', sessionTtlMs: 60_000 }] } },
    });
    expect(config.routers.main!.routes![0]!.sessionTtlMs).toBe(60_000);
  });

  it('reports a value that is not a duration above 0 by its path', () => {
    const problems = problemsOf(() =>
      parseModelRouterConfig({
        models: { a: { type: 'echo' } },
        routers: {
          zero: { model: 'a', sessionTtlMs: 0 },
          fraction: { model: 'a', sessionTtlMs: 1.5 },
          words: { model: 'a', sessionTtlMs: 'half an hour' },
          routed: { routes: [{ name: 'only', model: 'a', sessionTtlMs: -1 }] },
        },
      }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        `routers.zero.sessionTtlMs: ${MUST}`,
        `routers.fraction.sessionTtlMs: ${MUST}`,
        `routers.words.sessionTtlMs: ${MUST}`,
        `routers.routed.routes[0].sessionTtlMs: ${MUST}`,
      ]),
    );
    // nothing else is reported (class-validator may list more than one rule per field)
    for (const problem of problems) {
      expect(problem).toMatch(
        /^routers\.(zero|fraction|words|routed\.routes\[0\])\.sessionTtlMs: /,
      );
    }
  });
});
