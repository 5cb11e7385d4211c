import type { Clock } from '../clock.js';
import { InvalidConfigurationException } from '../errors/exceptions.js';
import type { RouteStateStore } from '../state/route-state-store.js';
import type { ScoredAnswer } from './answer-scoring.js';
import { WindowedHistogram, type OwnRouteStateOptions } from './windowed-histogram.js';

/** Probabilities are counted in this many equal buckets: the threshold's resolution. */
const BUCKETS = 200;
/** Below this many decisions in the window the router decides as if no share were set. */
const DEFAULT_MIN_SAMPLES = 50;
export const DEFAULT_SHARE_WINDOW_MS = 10 * 60_000;

export interface TargetShareOptions extends OwnRouteStateOptions {
  /** How long a decision counts toward the share (the window slides by halves); default 10 min. */
  windowMs?: number;
  /** Decisions needed before the threshold moves; default 50. */
  minSamples?: number;
}

/** What a status page or metrics show of one target. */
export interface TargetShareStatus {
  route: string;
  target: number;
  /** The share of decisions in the window that went to the route; undefined before any. */
  achieved?: number;
  /** The route's probability from which it is chosen now (undefined: not calibrated yet). */
  threshold?: number;
  /** Decisions in the window. */
  samples: number;
}

/** Checks a `targetShare` map: route names (when known) and fractions in (0, 1), summing below 1. */
export function validateTargetShare(
  targets: unknown,
  routes?: readonly string[],
  where = 'targetShare',
): Record<string, number> {
  if (typeof targets !== 'object' || targets === null || Array.isArray(targets)) {
    throw new InvalidConfigurationException(
      `${where} must be a map of route name → share, e.g. { complex: 0.3 }.`,
    );
  }
  const entries = Object.entries(targets as Record<string, unknown>);
  if (entries.length === 0) throw new InvalidConfigurationException(`${where} names no route.`);
  let sum = 0;
  for (const [route, share] of entries) {
    if (routes && !routes.includes(route)) {
      throw new InvalidConfigurationException(
        `${where}.${route}: no such route; routes: ${routes.join(', ')}.`,
      );
    }
    if (typeof share !== 'number' || !(share > 0 && share < 1)) {
      throw new InvalidConfigurationException(
        `${where}.${route} must be a share between 0 and 1 (e.g. 0.3); got ${String(share)}.`,
      );
    }
    sum += share;
  }
  if (sum >= 1) {
    throw new InvalidConfigurationException(
      `${where}: the shares add up to ${sum}; keep them below 1.`,
    );
  }
  return Object.fromEntries(entries) as Record<string, number>;
}

/**
 * A calibrated share of traffic for routes of a decision router (RouteLLM's threshold, moved
 * online): the probabilities the decision model gave each target route over a sliding window
 * are counted in a histogram, and a call goes to the route when its probability is at or above
 * the window's (1 - share) quantile, so over the window the route gets its share whatever the
 * model's calibration. A call at the quantile's own bucket is admitted for the fraction still
 * missing (an error-diffusion credit, deterministic). The counts live in the state store's
 * windowed counters, so replicas sharing Redis calibrate on every replica's decisions.
 */
export class TargetShare {
  readonly targets: Readonly<Record<string, number>>;
  private readonly minSamples: number;
  private readonly counts: WindowedHistogram;
  private readonly credit = new Map<string, number>();

  constructor(targets: Record<string, number>, options: TargetShareOptions = {}) {
    this.targets = Object.freeze(validateTargetShare(targets));
    const windowMs = options.windowMs ?? DEFAULT_SHARE_WINDOW_MS;
    if (!Number.isInteger(windowMs) || windowMs < 1_000) {
      throw new InvalidConfigurationException(
        `targetShare windowMs must be a whole number of milliseconds ≥ 1000; got ${String(options.windowMs)}.`,
      );
    }
    this.minSamples = options.minSamples ?? DEFAULT_MIN_SAMPLES;
    this.counts = new WindowedHistogram('share', {
      windowMs,
      buckets: BUCKETS,
      ...(options.store !== undefined ? { store: options.store } : {}),
      ...(options.scope !== undefined ? { scope: options.scope } : {}),
      ...(options.clock !== undefined ? { clock: options.clock } : {}),
    });
  }

  /** Takes the module's store, scope and clock, unless built with its own. */
  bindRouteState(binding: { store: RouteStateStore; scope: string; clock?: Clock }): void {
    this.counts.bind(binding.store, `${binding.scope}:share`, binding.clock);
  }

  /**
   * The route for a scored answer: the first target route whose probability reaches its
   * threshold; else, when a target route won without reaching it, the best other route; else
   * the answer's own route. Records the decision in the window. Answers without
   * probabilities pass unchanged.
   */
  choose(scored: ScoredAnswer): ScoredAnswer {
    const { probabilities } = scored;
    if (!probabilities) return scored;
    const now = this.counts.now();
    let chosen: string | undefined;
    for (const [route, share] of Object.entries(this.targets)) {
      const p = probabilities[route];
      if (p === undefined) continue;
      const bucket = this.counts.bucketOf(p);
      const admitted = this.admits(route, share, bucket, now);
      this.counts.count(`${route}:p${bucket}`, now);
      if (chosen === undefined && admitted === true) chosen = route;
      if (admitted === undefined && chosen === undefined && scored.route === route) chosen = route;
    }
    if (chosen === undefined) chosen = this.bestOther(scored);
    for (const route of Object.keys(this.targets))
      if (route === chosen) this.counts.count(`${route}:chosen`, now);
    this.counts.count('decisions', now);
    return chosen === scored.route ? scored : { ...scored, route: chosen };
  }

  /** The share each target route got over the window, and its threshold now. */
  report(): TargetShareStatus[] {
    const now = this.counts.now();
    const samples = this.counts.total('decisions', now);
    return Object.entries(this.targets).map(([route, target]) => {
      const threshold = this.threshold(route, target, now);
      return {
        route,
        target,
        samples,
        ...(samples > 0 ? { achieved: this.counts.total(`${route}:chosen`, now) / samples } : {}),
        ...(threshold !== undefined ? { threshold: threshold.bucket / BUCKETS } : {}),
      };
    });
  }

  /** true: to the route; false: not; undefined: too few decisions yet to tell. */
  private admits(route: string, share: number, bucket: number, now: number): boolean | undefined {
    const threshold = this.threshold(route, share, now);
    if (threshold === undefined) return undefined;
    if (bucket !== threshold.bucket) return bucket > threshold.bucket;
    // at the quantile's bucket: admit the part of it the share still needs
    const credit = (this.credit.get(route) ?? 0) + threshold.fraction;
    const admitted = credit >= 1;
    this.credit.set(route, admitted ? credit - 1 : credit);
    return admitted;
  }

  /** The bucket holding the window's (1 - share) quantile, and how much of it to admit. */
  private threshold(
    route: string,
    share: number,
    now: number,
  ): { bucket: number; fraction: number } | undefined {
    const { counts, total } = this.counts.histogram(`${route}:`, now);
    if (total < this.minSamples) return undefined;
    const wanted = share * total;
    let above = 0;
    for (let bucket = BUCKETS - 1; bucket >= 0; bucket--) {
      const count = counts[bucket]!;
      if (above + count >= wanted) {
        return { bucket, fraction: count === 0 ? 0 : (wanted - above) / count };
      }
      above += count;
    }
    return { bucket: 0, fraction: 1 };
  }

  /** The most probable route that is not a target (the answer's own route when none is). */
  private bestOther(scored: ScoredAnswer): string {
    let best: string | undefined;
    for (const [route, p] of Object.entries(scored.probabilities ?? {})) {
      if (route in this.targets) continue;
      if (best === undefined || p > scored.probabilities![best]!) best = route;
    }
    return best ?? scored.route;
  }
}
