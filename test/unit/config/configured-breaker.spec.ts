import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import {
  configuredBreaker,
  CONFIGURED_BREAKER_DEFAULTS,
} from '../../../src/config/configured-breaker.js';
import { InvalidModelRouterConfigException } from '../../../src/config/invalid-model-router-config.exception.js';
import { parseModelRouterConfig } from '../../../src/config/load-model-router-config.js';
import { cooldownFor, resolveCircuitPolicy } from '../../../src/core/circuit/circuit-policy.js';

const base = {
  models: { m: { type: 'demo' } },
  routers: { r: { models: ['m'] } },
};

/** Issue 12, point 6: the per-request failover lists had a breaker the YAML could not change. */
describe('the breaker of configured groups and failover lists', () => {
  it('defaults to 10 s doubling up to 30 s, one probe', () => {
    const policy = resolveCircuitPolicy(configuredBreaker());
    expect([0, 1, 2, 3, 4].map((reopened) => cooldownFor(policy, reopened))).toEqual([
      10_000, 20_000, 30_000, 30_000, 30_000,
    ]);
    expect(policy.halfOpenProbes).toBe(1);
  });

  it('keeps the classes’ cap for a group that sets its own cooldown', () => {
    expect(configuredBreaker({ cooldownMs: 30_000 })).toEqual({
      halfOpenProbes: 1,
      cooldownMultiplier: 2,
      cooldownMs: 30_000,
    });
  });

  it('reads failoverLists from the YAML with the breaker settings of a group', () => {
    const config = parseModelRouterConfig({
      ...base,
      failoverLists: { cooldownMs: 5000, maxCooldownMs: 20_000, halfOpenProbes: 2 },
    });
    expect(configuredBreaker(config.failoverLists)).toEqual({
      ...CONFIGURED_BREAKER_DEFAULTS,
      cooldownMs: 5000,
      maxCooldownMs: 20_000,
      halfOpenProbes: 2,
    });
  });

  it('refuses what is not a breaker setting in failoverLists, naming it', () => {
    const problems = (() => {
      try {
        parseModelRouterConfig({ ...base, failoverLists: { models: ['m'], cooldownMs: -1 } });
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidModelRouterConfigException);
        return (error as InvalidModelRouterConfigException).problems;
      }
      return [];
    })();
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^failoverLists\.models: unknown setting/),
        expect.stringMatching(/^failoverLists\.cooldownMs: /),
      ]),
    );
  });
});
