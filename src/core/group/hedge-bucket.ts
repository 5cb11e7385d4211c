import type { RouteStateBinding } from '../inspection/inspection.js';
import { countersOf, windowStart, type CounterStore } from '../state/counter-store.js';
import { isPromiseLike } from '../state/maybe-async.js';
import { systemClock, type Clock } from '../clock.js';

/** Extra calls that may fire back to back after a calm stretch (the bucket's size). */
export const HEDGE_BURST = 10;
/** The shared counts of calls and extra calls are kept per window of this length. */
export const HEDGE_WINDOW_MS = 10_000;
/** How often a replica sends its counts (and takes in the other replicas'). */
export const HEDGE_SYNC_MS = 1_000;

/** One window's counts as this replica knows them. */
interface Tally {
  /** This replica's calls and extra calls handed to the store in the window. */
  sentCalls: number;
  sentExtras: number;
  /** The other replicas' calls and extra calls in the window, as far as the bucket took them in. */
  peerCalls: number;
  peerExtras: number;
}

interface Shared {
  counters: CounterStore;
  calls: string;
  extras: string;
  clock: Clock;
}

/**
 * The token bucket that caps a group's extra (hedged) calls at `maxExtra` of its calls: each call
 * earns `maxExtra` of a token, up to HEDGE_BURST in reserve, and each extra call spends one.
 *
 * Bound to a store (`share`), the bucket is the group's across replicas: every replica counts
 * its calls and extra calls in the store's windowed counters (sent in the background, at most
 * once per HEDGE_SYNC_MS), and credits its bucket with the other replicas' calls and debits
 * it with their extra calls as the counters bring them (the store refreshes them in the
 * background). Nothing on a call's path waits on the store. Replicas decide on what they have
 * heard, so together they may overspend by what the others fired since last heard: per other
 * replica, at most HEDGE_BURST and `maxExtra` of the calls it served meanwhile. When the store
 * does not share, its counters answer from this replica's counts alone, and the bucket is this
 * replica's again.
 */
export class HedgeBucket {
  private tokens = 0;
  private shared: Shared | undefined;
  /** Counts not yet sent, and the window they belong to. */
  private unsentCalls = 0;
  private unsentExtras = 0;
  private unsentWindow = 0;
  /** The current window and the one before (older ones are dropped). */
  private readonly tallies = new Map<number, Tally>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly maxExtra: number) {}

  /** Shares the bucket through `store`'s windowed counters under `<scope>:hedge-*`. */
  share(binding: Pick<RouteStateBinding, 'store' | 'scope' | 'clock'>): void {
    if (this.shared !== undefined) this.send();
    this.tallies.clear();
    this.shared = {
      counters: countersOf(binding.store),
      calls: `${binding.scope}:hedge-calls`,
      extras: `${binding.scope}:hedge-extras`,
      clock: binding.clock ?? systemClock,
    };
  }

  /**
   * A call starts: it earns its share of an extra call. `at`, read on `clock`, is when it started,
   * if the caller has read the time already.
   */
  earn(at?: number, clock?: Clock): void {
    this.tokens = Math.min(HEDGE_BURST, this.tokens + this.maxExtra);
    if (this.shared !== undefined) {
      this.count(1, 0, at !== undefined && clock === this.shared.clock ? at : undefined);
    }
  }

  /** Takes one extra call from the bucket, if it has one. */
  take(): boolean {
    if (this.shared !== undefined) this.takeInPeers();
    // ten tenths add up to 0.9999999999999999: a token earned in float is a token
    if (this.tokens < 1 - 1e-9) return false;
    this.tokens -= 1;
    if (this.shared !== undefined) this.count(0, 1);
    return true;
  }

  /** Tokens now (inspection, tests). */
  available(): number {
    if (this.shared !== undefined) this.takeInPeers();
    return this.tokens;
  }

  private count(calls: number, extras: number, now = this.shared!.clock()): void {
    // on every call: no object for windowStart()
    const window = Math.floor(now / HEDGE_WINDOW_MS) * HEDGE_WINDOW_MS;
    if (window !== this.unsentWindow) this.send();
    this.unsentWindow = window;
    this.unsentCalls += calls;
    this.unsentExtras += extras;
    this.timer ??= unrefed(setTimeout(() => this.sync(), HEDGE_SYNC_MS));
  }

  private sync(): void {
    this.send();
    this.takeInPeers();
  }

  /** Hands the unsent counts to the store (without waiting for it). */
  private send(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const sentCalls = this.unsentCalls;
    const sentExtras = this.unsentExtras;
    if (sentCalls === 0 && sentExtras === 0) return;
    this.unsentCalls = 0;
    this.unsentExtras = 0;
    const { counters, calls, extras } = this.shared!;
    const window = { windowMs: HEDGE_WINDOW_MS, now: this.unsentWindow };
    const tally = this.tally(this.unsentWindow);
    if (sentCalls > 0) {
      tally.sentCalls += sentCalls;
      add(counters, calls, sentCalls, window, () => (tally.sentCalls -= sentCalls));
    }
    if (sentExtras > 0) {
      tally.sentExtras += sentExtras;
      add(counters, extras, sentExtras, window, () => (tally.sentExtras -= sentExtras));
    }
  }

  /**
   * Credits the other replicas' new calls and debits their new extra calls: what the store's
   * counters hold for the current and the previous window, less what this replica sent.
   */
  private takeInPeers(): void {
    try {
      this.readPeers();
    } catch {
      // a store that fails to read: the bucket goes on with what it heard so far
    }
  }

  private readPeers(): void {
    const { counters, calls, extras, clock } = this.shared!;
    const current = windowStart({ windowMs: HEDGE_WINDOW_MS, now: clock() });
    for (const start of this.tallies.keys()) {
      if (start < current - HEDGE_WINDOW_MS) this.tallies.delete(start);
    }
    let earned = 0;
    for (const start of [current - HEDGE_WINDOW_MS, current]) {
      const tally = this.tally(start);
      const window = { windowMs: HEDGE_WINDOW_MS, now: start };
      const peerCalls = Math.max(0, counters.getWindow(calls, window) - tally.sentCalls);
      const peerExtras = Math.max(0, counters.getWindow(extras, window) - tally.sentExtras);
      earned += this.maxExtra * (peerCalls - tally.peerCalls) - (peerExtras - tally.peerExtras);
      tally.peerCalls = peerCalls;
      tally.peerExtras = peerExtras;
    }
    if (earned !== 0) this.tokens = Math.min(HEDGE_BURST, this.tokens + earned);
  }

  private tally(start: number): Tally {
    let tally = this.tallies.get(start);
    if (!tally) {
      tally = { sentCalls: 0, sentExtras: 0, peerCalls: 0, peerExtras: 0 };
      this.tallies.set(start, tally);
    }
    return tally;
  }
}

/** An add the store refused or failed is not in its counters: `undo` takes it out of ours. */
function add(
  counters: CounterStore,
  key: string,
  delta: number,
  window: { windowMs: number; now: number },
  undo: () => void,
): void {
  try {
    const result = counters.addToWindow(key, delta, window);
    if (isPromiseLike(result)) result.then((done) => done.ok || undo(), undo);
    else if (!result.ok) undo();
  } catch {
    undo();
  }
}

/** A background timer must not keep the process alive. */
function unrefed<T>(handle: T): T {
  (handle as { unref?: () => void }).unref?.();
  return handle;
}
