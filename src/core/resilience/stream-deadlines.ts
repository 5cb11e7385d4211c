import { InvalidConfigurationException } from '../errors/exceptions.js';
import {
  ADAPTIVE_FIRST_TOKEN_INITIAL_MS,
  AdaptiveDeadline,
  FIRST_TOKEN_DEADLINE_DEFAULTS,
  IDLE_DEADLINE_DEFAULTS,
  type AdaptiveDeadlineOptions,
} from './adaptive-deadline.js';
import { MAX_TIMER_MS } from './retry-policy.js';
import type { SketchBinding } from './shared-latency-sketch.js';
import type { ResolvedTimeouts, TimeoutOptions } from './timeout-options.js';

export interface AdaptiveTimeoutOptions {
  firstToken?: AdaptiveDeadlineOptions;
  idle?: AdaptiveDeadlineOptions;
}

/** The two waits of a stream, read when armed and fed what the model shows. */
export interface StreamDeadlines {
  firstTokenMs(): number | undefined;
  idleMs(): number | undefined;
  observeFirstToken(ms: number): void;
  observeGap(ms: number): void;
  /** Whether each wait learns (inspection, docs). */
  readonly adaptive: { readonly firstToken: boolean; readonly idle: boolean };
  /**
   * Learns from every replica sharing the store: `key` names the model, and each wait's sketch
   * lives under `<key>:first-token` and `<key>:idle`. No-op for fixed waits.
   */
  share(binding: SketchBinding): void;
}

interface DeadlineSettings {
  firstTokenTimeout?: 'adaptive' | number;
  idleTimeout?: 'adaptive' | number;
  adaptive?: AdaptiveTimeoutOptions;
  timeouts?: TimeoutOptions;
}

/**
 * The stream waits of one model: each one `adaptive` (the default) or a fixed number of ms. An
 * adaptive wait holds the configured `timeouts` value until it has seen enough of the model
 * (for the first token, 12 s unless `timeouts.firstTokenMs` was given), then its learnt value.
 */
export function adaptiveStreamDeadlines(
  settings: DeadlineSettings,
  timeouts: ResolvedTimeouts,
): StreamDeadlines {
  // `null` in timeouts turns a wait off: nothing to learn then
  const first =
    settings.timeouts?.firstTokenMs === null
      ? null
      : modeOf(settings.firstTokenTimeout, 'firstTokenTimeout');
  const idle =
    settings.timeouts?.idleMs === null ? null : modeOf(settings.idleTimeout, 'idleTimeout');
  const adaptive = settings.adaptive ?? {};
  if (typeof adaptive !== 'object' || adaptive === null) {
    throw new InvalidConfigurationException(
      `Resilience option 'adaptive' must be an object { firstToken?, idle? }`,
    );
  }
  const givenFirst = settings.timeouts?.firstTokenMs !== undefined;
  const firstDeadline =
    first === 'adaptive'
      ? new AdaptiveDeadline(
          givenFirst
            ? timeouts.firstTokenMs
            : Math.min(ADAPTIVE_FIRST_TOKEN_INITIAL_MS, timeouts.attemptMs ?? Infinity),
          adaptive.firstToken ?? {},
          FIRST_TOKEN_DEADLINE_DEFAULTS,
          'adaptive.firstToken',
        )
      : undefined;
  const idleDeadline =
    idle === 'adaptive'
      ? new AdaptiveDeadline(
          timeouts.idleMs,
          adaptive.idle ?? {},
          IDLE_DEADLINE_DEFAULTS,
          'adaptive.idle',
        )
      : undefined;
  const fixedFirst = typeof first === 'number' ? first : undefined;
  const fixedIdle = typeof idle === 'number' ? idle : undefined;
  return {
    firstTokenMs: firstDeadline ? () => firstDeadline.currentMs() : () => fixedFirst,
    idleMs: idleDeadline ? () => idleDeadline.currentMs() : () => fixedIdle,
    observeFirstToken: (ms) => firstDeadline?.observe(ms),
    observeGap: (ms) => idleDeadline?.observe(ms),
    adaptive: { firstToken: firstDeadline !== undefined, idle: idleDeadline !== undefined },
    share: (binding) => {
      firstDeadline?.share({ ...binding, key: `${binding.key}:first-token` });
      idleDeadline?.share({ ...binding, key: `${binding.key}:idle` });
    },
  };
}

function modeOf(value: unknown, field: string): 'adaptive' | number {
  if (value === undefined || value === 'adaptive') return 'adaptive';
  if (typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= MAX_TIMER_MS) {
    return value;
  }
  throw new InvalidConfigurationException(
    `Resilience option '${field}' must be 'adaptive' or a number of milliseconds above 0 and at most ${MAX_TIMER_MS} (got ${String(value)})`,
  );
}
