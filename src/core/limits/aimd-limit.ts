import { InvalidConfigurationException } from '../errors/exceptions.js';

/** `concurrency` of a model: a cap on its calls in flight, fixed or adaptive. */
export interface ConcurrencyOptions {
  /** The most calls in flight; with `adaptive`, the ceiling the limit grows to. */
  max?: number;
  /** AIMD: the limit grows by one per `limit` successes and shrinks on 429s and slow answers. */
  adaptive?: boolean;
  /** Calls over the limit with no other model to go to wait up to this long (ms). Default 0. */
  queueMs?: number;
  /** At most this many calls wait. Default 16. */
  queueSize?: number;
}

/** How an attempt ended, as the limit counts it. */
export type LimitOutcome = 'success' | 'overload' | 'other';

const DEFAULT_ADAPTIVE_MAX = 1_000;
/** Where an adaptive limit starts: few enough that a small provider is not flooded at start. */
const INITIAL = 4;
/** An overload multiplies the limit by this (the multiplicative decrease). */
const BACKOFF = 0.75;
/** A success slower than this multiple of the model's usual latency counts as overload. */
const LATENCY_TOLERANCE = 2;

/**
 * The in-flight limit of one model, shared by every group that serves it. Fixed (`max`) or
 * adaptive (AIMD, as TCP and Netflix's concurrency-limits do): +1 per window of successes,
 * × 0.75 on a 429 / overload answer or on an answer much slower than the model's baseline, at
 * most once per window, so the calls already in flight when it shrank do not shrink it again.
 */
export class AimdLimit {
  readonly adaptive: boolean;
  readonly max: number;
  readonly queueMs: number;
  readonly queueSize: number;
  private current: number;
  private running = 0;
  private credit = 0;
  /** Successes to see before another decrease may happen. */
  private calm = 0;
  private baselineMs: number | undefined;
  private readonly waiters: (() => void)[] = [];

  constructor(options: ConcurrencyOptions, field = 'concurrency') {
    if (typeof options !== 'object' || options === null) {
      throw new InvalidConfigurationException(`${field} must be an object { max?, adaptive? }`);
    }
    const whole = (value: unknown, name: string, min: number) => {
      if (value !== undefined && (!Number.isInteger(value) || (value as number) < min)) {
        throw new InvalidConfigurationException(
          `${field}.${name} must be a whole number >= ${min} (got ${String(value)})`,
        );
      }
    };
    whole(options.max, 'max', 1);
    whole(options.queueMs, 'queueMs', 0);
    whole(options.queueSize, 'queueSize', 0);
    if (options.adaptive !== undefined && typeof options.adaptive !== 'boolean') {
      throw new InvalidConfigurationException(`${field}.adaptive must be true or false`);
    }
    if (options.max === undefined && options.adaptive !== true) {
      throw new InvalidConfigurationException(`${field} needs max, or adaptive: true`);
    }
    this.adaptive = options.adaptive === true;
    this.max = options.max ?? DEFAULT_ADAPTIVE_MAX;
    this.current = this.adaptive ? Math.min(INITIAL, this.max) : this.max;
    this.queueMs = options.queueMs ?? 0;
    this.queueSize = options.queueSize ?? 16;
  }

  get limit(): number {
    return Math.floor(this.current);
  }

  get inFlight(): number {
    return this.running;
  }

  hasRoom(): boolean {
    return this.running < this.limit;
  }

  /** Takes a slot if there is one. */
  tryAcquire(): boolean {
    if (!this.hasRoom()) return false;
    this.running += 1;
    return true;
  }

  /** Frees a slot and learns from how the call went. */
  release(outcome: LimitOutcome, latencyMs?: number): void {
    this.running = Math.max(0, this.running - 1);
    if (this.adaptive) this.learn(outcome, latencyMs);
    this.waiters.shift()?.();
  }

  /** An overload seen inside a call that goes on (a 429 its model retries). */
  overloaded(): void {
    if (this.adaptive) this.learn('overload', undefined);
  }

  /** Waits for a slot to free (not taken: the caller asks again); false after `ms`. */
  waitForRoom(ms: number, signal?: AbortSignal): Promise<boolean> {
    if (this.waiters.length >= this.queueSize || ms <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const index = this.waiters.indexOf(wake);
        if (index >= 0) this.waiters.splice(index, 1);
        resolve(ok);
      };
      const wake = () => done(true);
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), ms);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(wake);
    });
  }

  private learn(outcome: LimitOutcome, latencyMs: number | undefined): void {
    if (outcome === 'other') return;
    const slow =
      outcome === 'success' &&
      latencyMs !== undefined &&
      this.baselineMs !== undefined &&
      latencyMs > this.baselineMs * LATENCY_TOLERANCE;
    if (outcome === 'success' && latencyMs !== undefined) {
      // a slow-moving average: the model's usual latency, which a burst does not move much
      this.baselineMs =
        this.baselineMs === undefined ? latencyMs : this.baselineMs * 0.95 + latencyMs * 0.05;
    }
    if (outcome === 'overload' || slow) {
      if (this.calm > 0) return;
      this.current = Math.max(1, this.current * BACKOFF);
      this.calm = this.limit;
      this.credit = 0;
      return;
    }
    if (this.calm > 0) this.calm -= 1;
    this.credit += 1;
    if (this.credit >= this.limit) {
      this.credit = 0;
      this.current = Math.min(this.max, this.current + 1);
    }
  }
}
