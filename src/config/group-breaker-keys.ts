import type { GroupConfig } from './model-router-config.js';

/**
 * The group settings that configure its circuit breaker: validation accepts them on routers and
 * routes, and the builder passes exactly these to FailoverStrategy. One list, so a new breaker
 * setting cannot be accepted but ignored, or passed on but rejected.
 */
export const GROUP_BREAKER_KEYS = [
  'cooldownMs',
  'failureThreshold',
  'failureRateThreshold',
  'slowCallRateThreshold',
  'slowCallMs',
  'window',
  'halfOpenProbes',
  'cooldownMultiplier',
  'maxCooldownMs',
  'jitter',
  'probeTimeoutMs',
  'whenAllOpen',
] as const satisfies readonly (keyof GroupConfig & string)[];
