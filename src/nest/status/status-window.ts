import type { Clock } from '../../core/clock.js';
import type { ErrorKind } from '../../core/errors/error-kind.js';
import type { ErrorSummary } from '../../core/errors/error-summary.js';
import { safeErrorSummary } from '../../core/observability/scrub-credentials.js';

/** How long the figures look back by default: five minutes. */
export const DEFAULT_STATUS_WINDOW_MS = 5 * 60_000;
/** Samples kept per model (the oldest go first): bounds memory and the cost of a percentile. */
const SAMPLES_PER_MODEL = 1000;
/** Distinct router/route/model keys kept (ad-hoc models could otherwise grow it without end). */
const MAX_KEYS = 500;
const RECENT_FAILOVERS = 50;
const DECISIONS_PER_ROUTER = 2000;
/** An error message shown on the page is cut here. */
export const STATUS_MESSAGE_CHARS = 300;

/** Kinds that are the caller's doing (or no failure at all): they never count against a model. */
const CALLER_KINDS: ReadonlySet<ErrorKind> = new Set([
  'invalid-request',
  'aborted',
  'context-length',
  'content-policy',
]);

interface Sample {
  at: number;
  latencyMs: number;
  ok: boolean;
  tokens: number;
  firstTokenMs: number | undefined;
}

export interface WindowFigures {
  requests: number;
  errors: number;
  latencyMs: { p50: number | null; p95: number | null };
  firstTokenMs: { p50: number | null; p95: number | null };
  /** Requests and tokens in the last minute. */
  rpm: number;
  tpm: number;
  lastError?: { type: string; message: string; at: string };
}

export interface RecentFailover {
  /** ISO time. */
  at: string;
  router: string;
  route?: string;
  from: string;
  to: string;
  /** The failed attempt's error (class: message), scrubbed and bounded. */
  reason: string;
}

/** A short, credential-free error for the page. */
export function boundedError(error: ErrorSummary): { type: string; message: string } {
  const safe = safeErrorSummary(error);
  const message =
    safe.message.length > STATUS_MESSAGE_CHARS
      ? `${safe.message.slice(0, STATUS_MESSAGE_CHARS - 1)}…`
      : safe.message;
  return { type: safe.name.slice(0, 100), message };
}

export function errorCountsAgainstModel(kind: ErrorKind): boolean {
  return !CALLER_KINDS.has(kind);
}

/**
 * What this replica saw over a recent window: per router, route and model the attempts, errors,
 * latency and time to first token; the recent failovers; the routes the decision chose. Bounded
 * in memory (samples per model, keys, failovers, decisions) and time-injected, so a test moves
 * the window by hand.
 */
export class StatusWindow {
  readonly windowMs: number;
  private readonly samples = new Map<string, Sample[]>();
  private readonly lastErrors = new Map<string, { type: string; message: string; at: number }>();
  private readonly failovers: RecentFailover[] = [];
  private readonly decisions = new Map<string, { at: number; route: string }[]>();

  constructor(
    readonly clock: Clock,
    windowMs = DEFAULT_STATUS_WINDOW_MS,
  ) {
    this.windowMs = windowMs;
  }

  /** One attempt of a model (or a call served by one model alone), ended now. */
  recordAttempt(
    key: ModelKey,
    attempt: { latencyMs: number; ok: boolean; tokens?: number; firstTokenMs?: number },
  ): void {
    const id = keyOf(key);
    let list = this.samples.get(id);
    if (!list) {
      if (this.samples.size >= MAX_KEYS) this.evictOldestKey();
      list = [];
      this.samples.set(id, list);
    }
    // one shape for every sample
    list.push({
      at: this.clock(),
      latencyMs: Math.max(0, attempt.latencyMs),
      ok: attempt.ok,
      tokens: attempt.tokens ?? 0,
      firstTokenMs: attempt.firstTokenMs,
    });
    // trimmed in bulk (amortised O(1) a call); reads look at the newest SAMPLES_PER_MODEL
    if (list.length >= 2 * SAMPLES_PER_MODEL) list.splice(0, list.length - SAMPLES_PER_MODEL);
  }

  recordError(key: ModelKey, error: ErrorSummary): void {
    const id = keyOf(key);
    if (!this.samples.has(id) && !this.lastErrors.has(id) && this.lastErrors.size >= MAX_KEYS) {
      return;
    }
    this.lastErrors.set(id, { ...boundedError(error), at: this.clock() });
  }

  recordFailover(failover: Omit<RecentFailover, 'at'>): void {
    this.failovers.push({ at: new Date(this.clock()).toISOString(), ...failover });
    if (this.failovers.length > RECENT_FAILOVERS) this.failovers.shift();
  }

  recordDecision(router: string, route: string): void {
    let list = this.decisions.get(router);
    if (!list) {
      if (this.decisions.size >= MAX_KEYS) return;
      list = [];
      this.decisions.set(router, list);
    }
    list.push({ at: this.clock(), route });
    if (list.length >= 2 * DECISIONS_PER_ROUTER) list.splice(0, list.length - DECISIONS_PER_ROUTER);
  }

  /** The figures of one model over the window (zeros when it served nothing). */
  figures(key: ModelKey): WindowFigures {
    const now = this.clock();
    const since = now - this.windowMs;
    const recent = (this.samples.get(keyOf(key)) ?? [])
      .slice(-SAMPLES_PER_MODEL)
      .filter((sample) => sample.at > since);
    const lastMinute = recent.filter((sample) => sample.at > now - 60_000);
    const lastError = this.lastErrors.get(keyOf(key));
    return {
      requests: recent.length,
      errors: recent.filter((sample) => !sample.ok).length,
      latencyMs: percentiles(recent.map((sample) => sample.latencyMs)),
      firstTokenMs: percentiles(
        recent.flatMap((sample) =>
          sample.firstTokenMs === undefined ? [] : [sample.firstTokenMs],
        ),
      ),
      rpm: lastMinute.length,
      tpm: lastMinute.reduce((sum, sample) => sum + sample.tokens, 0),
      ...(lastError && lastError.at > since
        ? {
            lastError: {
              type: lastError.type,
              message: lastError.message,
              at: new Date(lastError.at).toISOString(),
            },
          }
        : {}),
    };
  }

  /** Keys this replica recorded for a router (models that no inspection lists, e.g. ad-hoc). */
  keysOf(router: string): ModelKey[] {
    return [...this.samples.keys()].map(parseKey).filter((key) => key.router === router);
  }

  recentFailovers(): RecentFailover[] {
    const since = new Date(this.clock() - this.windowMs).toISOString();
    return this.failovers.filter((failover) => failover.at > since).toReversed();
  }

  /** How the decision split the router's recent calls: calls per route and each one's share. */
  decisionSplit(router: string): { route: string; calls: number; share: number }[] {
    const since = this.clock() - this.windowMs;
    const recent = (this.decisions.get(router) ?? [])
      .slice(-DECISIONS_PER_ROUTER)
      .filter((decision) => decision.at > since);
    const counts = new Map<string, number>();
    for (const { route } of recent) counts.set(route, (counts.get(route) ?? 0) + 1);
    return [...counts]
      .toSorted((a, b) => b[1] - a[1])
      .map(([route, calls]) => ({ route, calls, share: round(calls / recent.length, 4) }));
  }

  private evictOldestKey(): void {
    let oldest: string | undefined;
    let oldestAt = Infinity;
    for (const [id, list] of this.samples) {
      const at = list.at(-1)?.at ?? -Infinity;
      if (at < oldestAt) {
        oldestAt = at;
        oldest = id;
      }
    }
    if (oldest !== undefined) {
      this.samples.delete(oldest);
      this.lastErrors.delete(oldest);
    }
  }
}

/** A model as the window knows it: `route` is empty for a group that is the router itself. */
export interface ModelKey {
  router: string;
  route?: string;
  model: string;
}

// names are joined with NUL, which no configured name holds (cheaper than JSON on every call)
function keyOf({ router, route, model }: ModelKey): string {
  return `${router}\u0000${route ?? ''}\u0000${model}`;
}

function parseKey(id: string): ModelKey {
  const [router = '', route = '', model = ''] = id.split('\u0000');
  return { router, ...(route !== '' ? { route } : {}), model };
}

/** Nearest-rank percentiles, rounded to 0.1 ms; null without samples. */
function percentiles(values: number[]): { p50: number | null; p95: number | null } {
  if (values.length === 0) return { p50: null, p95: null };
  const sorted = values.toSorted((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
  return { p50: round(at(0.5), 1), p95: round(at(0.95), 1) };
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
