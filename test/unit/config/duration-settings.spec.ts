import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { gatewayConfigSchema } from '../../../apps/gateway/src/config/gateway-config-schema.js';
import { z } from 'zod';
import { configSchemaParts } from '../../../src/config/config-fields.js';
import { modelRouterConfigSchema } from '../../../src/config/model-router-config.js';
import { validateModelRouterConfig } from '../../../src/config/validate-model-router-config.js';
import { problemsOf as problemsOfParse } from '../../support/config-problems.js';

const problemsOf = (raw: unknown) => problemsOfParse(() => validateModelRouterConfig(raw));

/** The duration settings whose name does not end in `Ms`. */
const NAMED_OTHERWISE = ['after', 'ttl', 'firstTokenTimeout', 'idleTimeout', 'answerTimeout'];

interface Setting {
  path: string;
  schema: z.ZodType;
}

/** Every setting of a schema, by path (`*` a name of a record, `[]` an item of a list). */
function settingsOf(schema: z.ZodType, path = '', seen = new Set<z.ZodType>()): Setting[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = schema.def as unknown as Record<string, unknown>;
  const inner = (key: string) => def[key] as z.ZodType;
  switch (def.type) {
    case 'optional':
    case 'nullable':
      return settingsOf(inner('innerType'), path, seen);
    case 'union':
      return (def.options as z.ZodType[]).flatMap((option) => settingsOf(option, path, seen));
    case 'record':
      return settingsOf(inner('valueType'), `${path}.*`, seen);
    case 'array':
      return settingsOf(inner('element'), `${path}[]`, seen);
    case 'object':
      return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([key, value]) => [
        { path: `${path}.${key}`.slice(1), schema: value },
        ...settingsOf(value, `${path}.${key}`, new Set(seen)),
      ]);
    default:
      return [];
  }
}

const isDuration = (setting: Setting) => {
  const key = setting.path.split('.').pop()!;
  return key.endsWith('Ms') || NAMED_OTHERWISE.includes(key);
};

const durationSettings = [
  ...new Map(
    [...settingsOf(modelRouterConfigSchema), ...settingsOf(gatewayConfigSchema)]
      .filter(isDuration)
      .map((setting) => [setting.path, setting]),
  ).values(),
];

const file = (model: Record<string, unknown>, router: Record<string, unknown> = {}) => ({
  providers: { local: { type: 'openai', baseURL: 'http://127.0.0.1:1/v1', apiKey: 'k' } },
  models: { a: { type: 'demo', ...model }, b: { type: 'demo' } },
  routers: { main: { models: ['a', 'b'], ...router } },
});

const settings = (unit: (ms: number) => number | string) =>
  file(
    {
      timeoutMs: unit(5_000),
      resilience: { timeouts: { attemptMs: unit(30_000), idleMs: null } },
      concurrency: { max: 2, queueMs: unit(250) },
    },
    {
      cooldownMs: unit(0),
      window: { durationMs: unit(60_000) },
      sessionTtlMs: unit(1_800_000),
    },
  );

const state = (commandTimeoutMs: unknown) => ({
  ...file({}),
  state: { type: 'redis', url: 'redis://127.0.0.1:6379', commandTimeoutMs, ttlMs: '1h' },
});

const raw = (everyMs: unknown) => ({ ...file({}), poll: { everyMs } });

describe('duration settings', () => {
  it('finds the duration settings of the whole file, the gateway’s included', () => {
    const paths = durationSettings.map((setting) => setting.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'routers.*.cooldownMs',
        'routers.*.routes[].sessionTtlMs',
        'routers.*.window.durationMs',
        'failoverLists.maxCooldownMs',
        'models.*.resilience.timeouts.attemptMs',
        'models.*.resilience.retry.maxRetryAfterMs',
        'models.*.concurrency.queueMs',
        'providers.*.timeoutMs',
        'cache.ttl',
      ]),
    );
  });

  it.each(durationSettings.map((setting) => [setting.path, setting] as const))(
    '%s takes 2000 and 2s to the same ms',
    (_path, { schema }) => {
      const loose = schema as z.ZodType;
      expect(loose.parse(2000)).toBe(2000);
      expect(loose.parse('2s')).toBe(2000);
      expect(loose.parse('2000')).toBe(2000);
      expect(loose.parse('0.5m')).toBe(30_000);
      expect(loose.safeParse('soon').success).toBe(false);
      expect(loose.safeParse(1.5).success).toBe(false);
    },
  );

  it('a file with strings reads as the file with numbers', () => {
    const inWords = validateModelRouterConfig(
      settings((ms) => (ms % 60_000 === 0 && ms > 0 ? `${ms / 60_000}m` : `${ms}ms`)),
    );
    expect(inWords).toEqual(validateModelRouterConfig(settings((ms) => ms)));
    expect(inWords.models.a).toMatchObject({
      timeoutMs: 5_000,
      resilience: { timeouts: { attemptMs: 30_000, idleMs: null } },
    });
    expect(inWords.routers.main).toMatchObject({ cooldownMs: 0, sessionTtlMs: 1_800_000 });
  });

  it('reads the durations of the state store, leaving its other settings to its check', () => {
    expect(validateModelRouterConfig(state('750ms')).state).toMatchObject({
      commandTimeoutMs: 750,
      ttlMs: 3_600_000,
    });
    expect(problemsOf(state('soon'))).toEqual([expect.stringContaining('state.commandTimeoutMs')]);
  });

  it('an app’s own section reads its durations with the same part', () => {
    const schema = modelRouterConfigSchema.safeExtend({
      poll: z.strictObject({ everyMs: configSchemaParts.duration() }),
    });
    expect(validateModelRouterConfig(raw('2s'), undefined, schema).poll.everyMs).toBe(2_000);
    expect(() => validateModelRouterConfig(raw('2 s'), undefined, schema)).not.toThrow();
    expect(() => validateModelRouterConfig(raw('soon'), undefined, schema)).toThrow(
      /poll\.everyMs: must be a duration/,
    );
  });

  it('a bad duration names the field and the accepted forms', () => {
    const forms =
      "a duration such as '250ms', '20s', '5m' or '1h', or a whole number of milliseconds";
    expect(
      problemsOf(
        file(
          { resilience: { timeouts: { attemptMs: '30 seconds' }, retry: { baseDelayMs: 'soon' } } },
          { cooldownMs: -1, probeTimeoutMs: '0s' },
        ),
      ),
    ).toEqual([
      `models.a.resilience.timeouts.attemptMs: must be ${forms} above 0`,
      `models.a.resilience.retry.baseDelayMs: must be ${forms} (0 or more)`,
      `routers.main.cooldownMs: must be ${forms} (0 or more)`,
      `routers.main.probeTimeoutMs: must be ${forms} above 0`,
    ]);
  });

  it('zero is a duration where the core takes it: retry delays, cooldowns', () => {
    const retry = { baseDelayMs: 0, maxDelayMs: '0s', maxRetryAfterMs: 0 };
    const config = validateModelRouterConfig(
      file({ resilience: { retry } }, { cooldownMs: '0ms' }),
    );
    expect(config.models.a).toMatchObject({
      resilience: { retry: { baseDelayMs: 0, maxDelayMs: 0 } },
    });
    expect(config.routers.main).toMatchObject({ cooldownMs: 0 });
  });
});
