import type { FailoverStrategyOptions } from '../core/strategies/failover-strategy.js';
import { GROUP_BREAKER_KEYS } from './group-breaker-keys.js';
import type { GroupConfig } from './model-router-config.js';

/**
 * The breaker of every group built from configuration (and of the gateway's per-request failover
 * lists) when it sets nothing: one probe per cooldown, a single attempt (see PROBE_ATTRIBUTE),
 * 10 s doubling to at most 30 s. A provider that is still down is probed once per cooldown;
 * one that recovers gets its traffic back at most 30 s later, whatever the outage lasted (with
 * the classes' own 10-minute cap a 61 s outage kept a model out for 3 minutes).
 */
export const CONFIGURED_BREAKER_DEFAULTS = Object.freeze({
  halfOpenProbes: 1,
  cooldownMultiplier: 2,
  cooldownMs: 10_000,
  maxCooldownMs: 30_000,
});

export type ConfiguredBreaker = Pick<FailoverStrategyOptions, (typeof GROUP_BREAKER_KEYS)[number]>;

/**
 * The breaker settings of a configured group over the defaults. A group that sets its own
 * `cooldownMs` keeps the classes' cap (`maxCooldownMs`: 10 minutes, or its cooldown when longer)
 * unless it sets one too: the 30 s cap belongs to the default cooldown.
 */
export function configuredBreaker(group: Partial<GroupConfig> = {}): ConfiguredBreaker {
  const own: Record<string, unknown> = {};
  for (const key of GROUP_BREAKER_KEYS) {
    if (group[key] !== undefined) own[key] = structuredClone(group[key]);
  }
  const { maxCooldownMs, ...rest } = CONFIGURED_BREAKER_DEFAULTS;
  const ownCooldown = group.cooldownMs !== undefined;
  return { ...rest, ...(ownCooldown ? {} : { maxCooldownMs }), ...own } as ConfiguredBreaker;
}
