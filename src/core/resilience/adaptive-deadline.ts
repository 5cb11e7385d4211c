import { InvalidConfigurationException } from '../errors/exceptions.js';
import { SharedLatencySketch, type SketchBinding } from './shared-latency-sketch.js';
import { MAX_TIMER_MS } from './retry-policy.js';
import { QuantileCadence } from './quantile-cadence.js';

/** How a learnt deadline is derived from what a model has shown. */
export interface AdaptiveDeadlineOptions {
  /** The share of waits the percentile covers (0–1). Default 0.99. */
  percentile?: number;
  /** The deadline is this multiple of the percentile. Default 3. */
  multiplier?: number;
  /** Never shorter than this, in ms (network jitter on a fast model). */
  floorMs?: number;
  /** Never longer than this, in ms. */
  ceilingMs?: number;
  /** Samples needed before the learnt deadline replaces the configured one. Default 20. */
  minSamples?: number;
}

type Resolved = Required<AdaptiveDeadlineOptions>;

/**
 * First token: a fast model (p99 well under a second) gets the 5 s floor, so a silent one is
 * failed over in 5 s instead of 20; a reasoning model that shows 30 s before its first token
 * gets 90 s, up to the 120 s ceiling. Until 20 first tokens were seen the configured value
 * holds (12 s when none was configured: under the 15 s a caller waits before giving up).
 */
export const FIRST_TOKEN_DEADLINE_DEFAULTS: Readonly<Resolved> = Object.freeze({
  percentile: 0.99,
  multiplier: 3,
  floorMs: 5_000,
  ceilingMs: 120_000,
  minSamples: 20,
});

/** The first-token wait of an adaptive model before it has learnt (no `firstTokenMs` given). */
export const ADAPTIVE_FIRST_TOKEN_INITIAL_MS = 12_000;

/**
 * Between chunks: a pause mid-answer (a long tool call being written) is normal, and cutting a
 * stream after output began loses more than a slow first token, so the floor is high (10 s) and
 * the ceiling is the fixed default (30 s): learning only ever shortens the idle wait, for models
 * whose gaps are steady.
 */
export const IDLE_DEADLINE_DEFAULTS: Readonly<Resolved> = Object.freeze({
  percentile: 0.99,
  multiplier: 4,
  floorMs: 10_000,
  ceilingMs: 30_000,
  minSamples: 50,
});

/**
 * One learnt deadline (time to first token, or gap between chunks) of one model. It records
 * what the model showed, never a timeout: a hung attempt says nothing about how long an answer
 * takes, and counting the deadline itself as a sample would push it up to the ceiling. Once
 * shared (`share`), it learns from every replica's samples (see SharedLatencySketch).
 */
export class AdaptiveDeadline {
  private readonly sketch: SharedLatencySketch;
  private readonly options: Resolved;
  private cached: number | undefined;
  private readonly cadence = new QuantileCadence();

  constructor(
    /** What holds until enough samples: the configured value (undefined: unbounded). */
    private readonly initialMs: number | undefined,
    options: AdaptiveDeadlineOptions,
    defaults: Readonly<Resolved>,
    field: string,
  ) {
    this.options = resolveAdaptiveOptions(options, defaults, field);
    this.sketch = new SharedLatencySketch({ enough: this.options.minSamples });
    this.sketch.onChange = () => this.cadence.changed();
  }

  /** Learns from every replica sharing `binding.store` (the key names the model and the wait). */
  share(binding: SketchBinding): void {
    this.sketch.share(binding);
  }

  /** The deadline to arm now, in ms (read again every few samples: see QuantileCadence). */
  currentMs(): number | undefined {
    this.sketch.poll();
    if (!this.cadence.due()) return this.cached;
    const { minSamples, percentile, multiplier, floorMs, ceilingMs } = this.options;
    const learnt = this.sketch.count() >= minSamples;
    if (!learnt) {
      this.cached = this.initialMs;
    } else {
      const ms = multiplier * this.sketch.quantile(percentile)!;
      this.cached = Math.round(Math.min(ceilingMs, Math.max(floorMs, ms)));
    }
    this.cadence.read(learnt);
    return this.cached;
  }

  observe(ms: number): void {
    this.sketch.record(ms);
    this.cadence.recorded();
  }

  /** Samples remembered (for inspection): the group's when shared. */
  samples(): number {
    return this.sketch.count();
  }

  /** Whether the deadline is learnt from the group's samples now (inspection, tests). */
  isShared(): boolean {
    return this.sketch.isShared();
  }
}

/** Checks `given` over `defaults`, naming `field` in the error of a value out of range. */
export function resolveAdaptiveOptions(
  given: AdaptiveDeadlineOptions,
  defaults: Readonly<Resolved>,
  field: string,
): Resolved {
  if (typeof given !== 'object' || given === null) {
    throw new InvalidConfigurationException(`${field} must be an object of adaptive options`);
  }
  const out = { ...defaults };
  const check = (key: keyof Resolved, ok: (value: number) => boolean, range: string) => {
    const value = given[key];
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isFinite(value) || !ok(value)) {
      throw new InvalidConfigurationException(
        `${field}.${key} must be ${range} (got ${String(value)})`,
      );
    }
    out[key] = value;
  };
  check('percentile', (v) => v > 0 && v <= 1, 'a number in (0, 1]');
  check('multiplier', (v) => v >= 1, 'a number >= 1');
  check('floorMs', (v) => v > 0 && v <= MAX_TIMER_MS, `ms above 0 and at most ${MAX_TIMER_MS}`);
  check('ceilingMs', (v) => v > 0 && v <= MAX_TIMER_MS, `ms above 0 and at most ${MAX_TIMER_MS}`);
  check('minSamples', (v) => Number.isInteger(v) && v >= 1, 'a whole number >= 1');
  if (out.ceilingMs < out.floorMs) {
    throw new InvalidConfigurationException(
      `${field}.ceilingMs (${out.ceilingMs}) must not be below floorMs (${out.floorMs})`,
    );
  }
  return out;
}
