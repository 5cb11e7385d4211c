import { InvalidConfigurationException } from '../errors/exceptions.js';
import type { WindowPolicy } from './sliding-window.js';

/**
 * How the breaker of each model behaves. Every field is optional and the defaults are exactly the
 * seed's failover: one failure → out for `cooldownMs`, then back for all traffic. The recommended
 * breaker for production traffic adds `{ halfOpenProbes: 1, cooldownMultiplier: 2 }`.
 */
export interface CircuitBreakerOptions {
  /** How long a model stays out after its circuit opens. Default 60 000 ms. */
  cooldownMs?: number;
  /**
   * Consecutive failures that open the circuit. Default 1 (the seed: a single failure), unless
   * only `failureRateThreshold` is given, which then is the only rule.
   */
  failureThreshold?: number;
  /** Opens the circuit when failures / calls in the sliding window reach this share (0–1]. */
  failureRateThreshold?: number;
  /**
   * Opens the circuit when the calls slower than `slowCallMs` reach this share (0–1] of the
   * window: a model that answers, but too slowly to be worth waiting for.
   */
  slowCallRateThreshold?: number;
  /** A call slower than this is slow; for a stream, its time to first token. Default 10 000. */
  slowCallMs?: number;
  /**
   * The sliding window of both rates: the last `calls` calls, or else the last `durationMs`
   * (default 60 000, in 10 buckets); counted once it holds `minimumRequests` calls (default 10).
   */
  window?: { durationMs?: number; calls?: number; minimumRequests?: number };
  /**
   * Requests let through at once when the cooldown ends (half-open), until one succeeds and
   * closes the circuit. Default: unlimited, as in the seed (the model is simply back); set 1 to
   * probe a recovering model with one request while the others keep going elsewhere.
   */
  halfOpenProbes?: number;
  /**
   * Each failure while half-open multiplies the next cooldown by this, until a success resets it.
   * Default 1, as in the seed (every failure: `cooldownMs` again); 2 doubles it each time.
   */
  cooldownMultiplier?: number;
  /** Cap of the escalating cooldown. Default: 10 minutes, or `cooldownMs` when that is longer. */
  maxCooldownMs?: number;
  /** Randomises each cooldown by ± this share (0–1), so replicas do not probe in step. Default 0. */
  jitter?: number;
  /** A probe that has not reported after this long frees its slot (a crashed replica). Default 5 minutes. */
  probeTimeoutMs?: number;
  /** Source of randomness for `jitter` (tests inject one). */
  random?: () => number;
}

export interface CircuitPolicy {
  readonly cooldownMs: number;
  readonly failureThreshold: number;
  /** The sliding window of the failure-rate and slow-call-rate rules, when either is set. */
  readonly failureRate?: WindowPolicy;
  readonly halfOpenProbes: number;
  readonly cooldownMultiplier: number;
  readonly maxCooldownMs: number;
  readonly jitter: number;
  readonly probeTimeoutMs: number;
  readonly random: () => number;
}

const TEN_MINUTES = 10 * 60_000;

export function resolveCircuitPolicy(options: CircuitBreakerOptions): CircuitPolicy {
  const cooldownMs = number(options.cooldownMs, 'cooldownMs', 60_000, { min: 0 });
  const failureRate = resolveWindow(options);
  const failureThreshold = integer(
    options.failureThreshold,
    'failureThreshold',
    failureRate ? Number.POSITIVE_INFINITY : 1,
  );
  const maxCooldownMs = number(
    options.maxCooldownMs,
    'maxCooldownMs',
    Math.max(cooldownMs, TEN_MINUTES),
    { min: 0 },
  );
  if (maxCooldownMs < cooldownMs) {
    throw new InvalidConfigurationException(
      `maxCooldownMs (${maxCooldownMs}) must not be shorter than cooldownMs (${cooldownMs}).`,
    );
  }
  const random = options.random ?? Math.random;
  if (typeof random !== 'function') {
    throw new InvalidConfigurationException(
      'random must be a function returning a number in [0, 1).',
    );
  }
  return Object.freeze({
    cooldownMs,
    failureThreshold,
    ...(failureRate ? { failureRate } : {}),
    halfOpenProbes:
      options.halfOpenProbes === Number.POSITIVE_INFINITY
        ? Number.POSITIVE_INFINITY
        : integer(options.halfOpenProbes, 'halfOpenProbes', Number.POSITIVE_INFINITY),
    cooldownMultiplier: number(options.cooldownMultiplier, 'cooldownMultiplier', 1, { min: 1 }),
    maxCooldownMs,
    jitter: number(options.jitter, 'jitter', 0, { min: 0, max: 1 }),
    probeTimeoutMs: number(options.probeTimeoutMs, 'probeTimeoutMs', 5 * 60_000, {
      min: 0,
      exclusiveMin: true,
    }),
    random,
  });
}

function resolveWindow(options: CircuitBreakerOptions): WindowPolicy | undefined {
  const rate = options.failureRateThreshold;
  const slowRate = options.slowCallRateThreshold;
  if (rate === undefined && slowRate === undefined) {
    if (options.window !== undefined || options.slowCallMs !== undefined) {
      throw new InvalidConfigurationException(
        'window and slowCallMs only apply with failureRateThreshold or slowCallRateThreshold; set one (e.g. failureRateThreshold: 0.5) or remove them.',
      );
    }
    return undefined;
  }
  const share = { min: 0, exclusiveMin: true, max: 1 };
  const window = options.window ?? {};
  if (typeof window !== 'object' || window === null) {
    throw new InvalidConfigurationException(
      'window must be an object { durationMs?, calls?, minimumRequests? }.',
    );
  }
  if (window.calls !== undefined && window.durationMs !== undefined) {
    throw new InvalidConfigurationException(
      'window takes calls (a count window) or durationMs (a time window), not both.',
    );
  }
  return Object.freeze({
    ...(rate !== undefined ? { threshold: number(rate, 'failureRateThreshold', 1, share) } : {}),
    ...(slowRate !== undefined
      ? { slowRateThreshold: number(slowRate, 'slowCallRateThreshold', 1, share) }
      : {}),
    slowCallMs: number(options.slowCallMs, 'slowCallMs', 10_000, { min: 0, exclusiveMin: true }),
    type: window.calls !== undefined ? ('count' as const) : ('time' as const),
    durationMs: number(window.durationMs, 'window.durationMs', 60_000, {
      min: 0,
      exclusiveMin: true,
    }),
    calls: integer(window.calls, 'window.calls', 100),
    minimumRequests: integer(window.minimumRequests, 'window.minimumRequests', 10),
  });
}

/** The cooldown after the circuit opened `reopenCount` times in a row without recovering. */
export function cooldownFor(policy: CircuitPolicy, reopenCount: number): number {
  const escalated = policy.cooldownMs * policy.cooldownMultiplier ** reopenCount;
  const capped = Math.min(policy.maxCooldownMs, escalated);
  if (policy.jitter === 0) return capped;
  const factor = 1 + policy.jitter * (2 * policy.random() - 1);
  return Math.max(0, Math.min(policy.maxCooldownMs, Math.round(capped * factor)));
}

/**
 * The cooldown of a circuit that opens now: as `cooldownFor`, but never shorter than the wait the
 * failure asked for (a 429's `Retry-After`), up to `maxCooldownMs`, so the model is not probed
 * while its provider still refuses.
 */
export function cooldownAfter(
  policy: CircuitPolicy,
  reopenCount: number,
  retryAfterMs: number | undefined,
): number {
  const cooldown = cooldownFor(policy, reopenCount);
  if (retryAfterMs === undefined) return cooldown;
  return Math.max(cooldown, Math.min(policy.maxCooldownMs, retryAfterMs));
}

function number(
  value: unknown,
  field: string,
  fallback: number,
  bounds: { min?: number; max?: number; exclusiveMin?: boolean } = {},
): number {
  if (value === undefined) return fallback;
  const { min = -Infinity, max = Infinity, exclusiveMin = false } = bounds;
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (exclusiveMin ? value > min : value >= min) &&
    value <= max;
  if (!ok) {
    const range =
      max === Infinity
        ? `a finite number ${exclusiveMin ? '>' : '>='} ${min}`
        : `a number in ${exclusiveMin ? '(' : '['}${min}, ${max}]`;
    throw new InvalidConfigurationException(`${field} must be ${range}; got ${String(value)}.`);
  }
  return value as number;
}

function integer(value: unknown, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new InvalidConfigurationException(
      `${field} must be a whole number >= 1; got ${String(value)}.`,
    );
  }
  return value;
}
