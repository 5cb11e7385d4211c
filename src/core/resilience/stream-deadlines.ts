import { InvalidConfigurationException } from '../errors/exceptions.js';
import {
  ADAPTIVE_FIRST_TOKEN_INITIAL_MS,
  AdaptiveDeadline,
  FIRST_TOKEN_DEADLINE_DEFAULTS,
  IDLE_DEADLINE_DEFAULTS,
  type AdaptiveDeadlineOptions,
} from './adaptive-deadline.js';
import { LatencySketch } from './latency-sketch.js';
import { MAX_TIMER_MS } from './retry-policy.js';
import { QuantileCadence } from './quantile-cadence.js';
import type { SketchBinding } from './shared-latency-sketch.js';
import type { ResolvedTimeouts, TimeoutOptions } from './timeout-options.js';

export interface AdaptiveTimeoutOptions {
  firstToken?: AdaptiveDeadlineOptions;
  idle?: AdaptiveDeadlineOptions;
  /** A plain answer's bound (see answer-deadline.ts); its ceiling is `timeouts.attemptMs`. */
  answer?: AdaptiveDeadlineOptions;
}

/** The two waits of a stream, read when armed and fed what the model shows. */
export interface StreamDeadlines {
  firstTokenMs(): number | undefined;
  idleMs(): number | undefined;
  observeFirstToken(ms: number): void;
  observeGap(ms: number): void;
  /**
   * A non-streamed answer's time: until the first-token wait has learnt, a model whose usual
   * answer takes longer than the cold wait gets a longer one (see adaptiveStreamDeadlines).
   */
  observeAnswer?(ms: number): void;
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
  const paced =
    firstDeadline && !givenFirst
      ? pacedColdWait(adaptive.firstToken ?? {}, timeouts.attemptMs)
      : undefined;
  const fixedFirst = typeof first === 'number' ? first : undefined;
  const fixedIdle = typeof idle === 'number' ? idle : undefined;
  return {
    firstTokenMs: firstDeadline
      ? paced
        ? () => paced.wait(firstDeadline)
        : () => firstDeadline.currentMs()
      : () => fixedFirst,
    idleMs: idleDeadline ? () => idleDeadline.currentMs() : () => fixedIdle,
    observeFirstToken: (ms) => firstDeadline?.observe(ms),
    observeGap: (ms) => idleDeadline?.observe(ms),
    ...(paced ? { observeAnswer: (ms: number) => paced.observe(ms) } : {}),
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

/** Non-streamed answers a model must have given before they raise its cold first-token wait. */
export const PACED_COLD_WAIT_ANSWERS = 3;

/**
 * The cold first-token wait of a model that has shown, on non-streamed calls, that it takes
 * long: the multiplier × the median of its last 16–32 answer times, up to the first-token
 * ceiling and `attemptMs`, when that is above the cold wait (12 s). A whole answer comes no
 * sooner than its first token, so a reasoning model that answered in 30 s waits 60–90 s for its
 * first token instead of being cut at 12 s every time, which left it nothing to learn from. The
 * median, not a high percentile: a fast model's occasional long answer leaves its 12 s alone.
 * Once the stream's own first tokens are learnt (minSamples), they alone decide.
 */
function pacedColdWait(given: AdaptiveDeadlineOptions, attemptMs: number | undefined) {
  // read after AdaptiveDeadline validated the same options
  const { multiplier, ceilingMs, minSamples } = { ...FIRST_TOKEN_DEADLINE_DEFAULTS, ...given };
  const cap = Math.min(ceilingMs, attemptMs ?? Number.POSITIVE_INFINITY);
  const answers = new LatencySketch({ generationSize: 16 });
  let waitMs: number | undefined;
  const cadence = new QuantileCadence();
  return {
    // a plain call only records (the median is worked out when a stream next asks)
    observe(ms: number): void {
      answers.record(ms);
      cadence.recorded();
    },
    wait(deadline: AdaptiveDeadline): number | undefined {
      const current = deadline.currentMs();
      if (current === undefined || deadline.samples() >= minSamples) return current;
      if (cadence.due()) {
        const enough = answers.count() >= PACED_COLD_WAIT_ANSWERS;
        waitMs = enough
          ? Math.round(Math.min(cap, multiplier * answers.quantile(0.5)!))
          : undefined;
        cadence.read(enough);
      }
      return waitMs === undefined ? current : Math.max(current, waitMs);
    },
  };
}
