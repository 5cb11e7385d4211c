import { abortReason } from '../chat/abort.js';
import { InvalidConfigurationException } from '../errors/exceptions.js';
import type { RouteStateBinding } from '../inspection/inspection.js';
import { SharedLatencySketch } from '../resilience/shared-latency-sketch.js';
import { MAX_TIMER_MS } from '../resilience/retry-policy.js';
import { QuantileCadence } from '../resilience/quantile-cadence.js';
import { HedgeBucket } from './hedge-bucket.js';
import { HedgeDelays } from './hedge-delays.js';
import { hasAbortListener } from './abort-listeners.js';
import type { Timers } from '../resilience/timers.js';
import type { Clock } from '../clock.js';

/**
 * `hedge` of a ModelRouter: when the model called first has not produced (its first token for a
 * stream, its answer otherwise) after `after`, the same request starts on the next model the
 * strategy picks, and the first to produce wins. `after` is a duration in ms or a percentile of
 * what the group's calls have shown (`p95`); `maxExtra` caps the extra calls at that share of
 * the group's calls (a token bucket).
 */
export interface HedgeOptions {
  after: number | 'p90' | 'p95' | 'p99';
  /** Extra calls, as a share (0–1] of the group's calls. Default 0.1. */
  maxExtra?: number;
}

const PERCENTILES = { p90: 0.9, p95: 0.95, p99: 0.99 } as const;
/** A percentile delay waits for this many calls before the group hedges at all. */
const MIN_SAMPLES = 20;
/** Unaborted controllers kept for reuse (about the group's concurrency). */
const POOL = 64;

/**
 * An attempt's abort: a controller that aborts with the caller's signal, and that the hedge can
 * abort alone. `unlink` once the attempt is over detaches it from the caller's signal and, when
 * it was never aborted, returns it to its policy's pool: the object, its controller and its
 * listener are reused, so a call allocates none of them.
 */
export class AttemptAbort {
  controller = new AbortController();
  private parent: AbortSignal | undefined;
  private linked = false;
  /** The caller's signal when it had aborted before the attempt was linked. */
  private abortedFirst: AbortSignal | undefined;
  /** What waits for the attempt, told when the caller aborts (see `onCallerAbort`). */
  private wake: ((reason: unknown) => void) | undefined;
  /** Made once per pooled object: the listener on the caller's signal. */
  private readonly onAbort = () => {
    const reason = abortReason(this.parent!);
    this.controller.abort(reason);
    this.wake?.(reason);
  };

  constructor(private readonly pool: AttemptAbort[]) {}

  /** Links to `parent` (the caller's signal, if any) for one attempt. */
  link(parent: AbortSignal | undefined): this {
    this.linked = true;
    if (!parent) return this;
    if (parent.aborted) {
      this.controller.abort(parent.reason);
      this.abortedFirst = parent;
      return this;
    }
    this.parent = parent;
    parent.addEventListener('abort', this.onAbort, { once: true });
    return this;
  }

  /**
   * Tells `wake` the caller's abort reason when the caller aborts (at once if it already had),
   * so what waits for the attempt stops waiting even if the model ignores its signal: the
   * link's one listener does it, rather than a second race on the caller's signal.
   */
  onCallerAbort(wake: (reason: unknown) => void): void {
    if (this.abortedFirst !== undefined) {
      wake(abortReason(this.abortedFirst));
      return;
    }
    if (this.parent !== undefined) this.wake = wake;
  }

  unlink(): void {
    if (!this.linked) return;
    this.linked = false;
    this.wake = undefined;
    this.abortedFirst = undefined;
    if (this.parent) {
      this.parent.removeEventListener('abort', this.onAbort);
      this.parent = undefined;
    }
    const { pool, controller } = this;
    if (controller.signal.aborted || pool.length >= POOL) return;
    // a model that left a listener behind keeps its controller: the next call must not hear it
    if (hasAbortListener(controller.signal)) return;
    pool.push(this);
  }
}

/**
 * The state of one group's hedging: the latency it learns and the token bucket that caps extra
 * calls. Both are the process's own until `share` binds a store; then every replica learns from
 * the group's answer times and spends from the group's bucket (see HedgeBucket).
 */
export class HedgePolicy {
  private readonly percentile: number | undefined;
  private readonly fixedMs: number | undefined;
  private readonly sketch = new SharedLatencySketch({ generationSize: 512, enough: MIN_SAMPLES });
  private readonly bucket: HedgeBucket;
  private readonly pool: AttemptAbort[] = [];
  private delays: HedgeDelays | undefined;
  private learntMs: number | undefined;
  /** A percentile delay is read again every few answers (as the learnt deadlines are). */
  private readonly cadence = new QuantileCadence();

  constructor(options: HedgeOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new InvalidConfigurationException(
        "hedge must be an object { after: <ms> | 'p90' | 'p95' | 'p99', maxExtra? }",
      );
    }
    const { after } = options;
    if (typeof after === 'string' && after in PERCENTILES) {
      this.percentile = PERCENTILES[after as keyof typeof PERCENTILES];
    } else if (
      typeof after === 'number' &&
      Number.isFinite(after) &&
      after > 0 &&
      after <= MAX_TIMER_MS
    ) {
      this.fixedMs = after;
    } else {
      throw new InvalidConfigurationException(
        `hedge.after must be a number of ms above 0, or p90, p95 or p99 (got ${String(after)})`,
      );
    }
    const maxExtra = options.maxExtra ?? 0.1;
    if (typeof maxExtra !== 'number' || !(maxExtra > 0 && maxExtra <= 1)) {
      throw new InvalidConfigurationException(
        `hedge.maxExtra must be a share in (0, 1] of the group's calls (got ${String(maxExtra)})`,
      );
    }
    this.bucket = new HedgeBucket(maxExtra);
    this.sketch.onChange = () => this.cadence.changed();
  }

  /**
   * Shares the group's answer times and its bucket through `store`, under `scope` (the group's
   * key scope), so replicas hedge on the group's latency and within the group's budget.
   */
  share(binding: Pick<RouteStateBinding, 'store' | 'scope' | 'clock'>): void {
    this.bucket.share(binding);
    if (this.percentile !== undefined) {
      this.sketch.share({ ...binding, key: `${binding.scope}:hedge-latency` });
    }
  }

  /**
   * A call starts (at `at`, read on `clock`, when the caller knows): it earns its share of an
   * extra call. Returns the delay to hedge after.
   */
  delayMs(at?: number, clock?: Clock): number | undefined {
    this.bucket.earn(at, clock);
    if (this.fixedMs !== undefined) return this.fixedMs;
    this.sketch.poll(at, clock);
    if (!this.cadence.due()) return this.learntMs;
    const learnt = this.sketch.count() >= MIN_SAMPLES;
    this.learntMs = learnt ? this.sketch.quantile(this.percentile!) : undefined;
    this.cadence.read(learnt);
    return this.learntMs;
  }

  /** Takes one extra call from the bucket, if it has one. */
  take(): boolean {
    return this.bucket.take();
  }

  /**
   * A signal for one attempt that aborts with the caller's, and that the hedge can abort alone.
   * Controllers of attempts that ended unaborted, with no listener left, are reused: an
   * AbortController per call would cost more than the rest of the routing (Node's EventTarget).
   */
  abortFor(parent: AbortSignal | undefined): AttemptAbort {
    return (this.pool.pop() ?? new AttemptAbort(this.pool)).link(parent);
  }

  /** The group's pending hedge delays, on one timer; made at its first call, on its timers. */
  delaysOn(timers: Timers, clock: () => number): HedgeDelays {
    return (this.delays ??= new HedgeDelays(timers, clock));
  }

  /** How long an attempt took to produce (what a percentile delay learns from). */
  observe(ms: number): void {
    this.sketch.record(ms);
    this.cadence.recorded();
  }
}
