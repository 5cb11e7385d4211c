import type { Redis } from 'ioredis';
import {
  windowEnd,
  windowStart,
  type CounterStore,
  type CounterWindow,
  type WindowedAdd,
} from '../core/state/counter-store.js';
import type { RedisKeySpace } from './redis-key-space.js';
import { ADD_TO_WINDOW, WRITE_BACK_WINDOW } from './window-scripts.js';
import { namingKeys } from './lua-script.js';

interface WindowView {
  key: string;
  start: number;
  end: number;
  windowMs: number;
  /** The last total Redis reported for this window. */
  remote: number;
  /** Adds sent and not answered yet (counted at once, so this replica never overshoots). */
  pending: number;
  /** Adds made while Redis was away (or whose reply was lost): not known to be in Redis. */
  local: number;
  /** This replica's contribution: every add it counted, in Redis or alone. */
  mine: number;
  /** Redis may hold another contribution of this replica than `mine`: adds counted alone. */
  dirty: boolean;
  readAt: number;
}

export interface RedisCountersDeps {
  keys: RedisKeySpace;
  /** This replica's id: the field of its contributions in Redis. */
  replica: string;
  command: () => Redis | undefined;
  isShared: () => boolean;
  clock: () => number;
  /** A command failed: the store switches to local-only and resyncs. */
  failed: (error: unknown) => void;
}

/** Windows read within this long are re-read on refresh (other replicas' spend and requests). */
const WATCH_MS = 60_000;

/**
 * The Redis store's windowed counters and gauges. A windowed add is one atomic Lua call (add
 * unless over the limit) and is awaited: it is the one place where an answer needs Redis, since
 * holding an rpm limit exactly across replicas cannot be decided locally. Reads come from a
 * local view: this replica's own adds at once, other replicas' when a reply or the store's
 * periodic refresh brings the window's total. Gauges (latency averages) are last-writer-wins
 * in one hash, written without waiting and re-read on refresh.
 *
 * No add is lost to an outage. Redis keeps, next to each window's total, every replica's
 * contribution to it (see window-scripts.ts), and each replica keeps its own (`mine`). What a
 * replica counted alone while Redis was away is written back by the resync that ends the outage
 * — as its whole contribution, not as the outage's delta: Redis sets that replica's field to it
 * and moves the total by the difference. So a retry after a lost reply, an add whose reply timed
 * out although Redis applied it, and a write-back that lands twice all count once; and a Redis
 * that restarted empty gets every replica's full contribution back, which sums to the true
 * total, since each replica writes only its own field (a replica that exited meanwhile takes its
 * share with it). Adds counted locally during the resync itself go out as ordinary adds once the
 * store shares again.
 */
export class RedisCounters implements CounterStore {
  private readonly windows = new Map<string, WindowView>();
  private readonly gauges = new Map<string, { value: number; expiresAt: number }>();
  /** Numbers this replica's writes, so Redis can tell a stale one from a newer one. */
  private seq = 0;
  /** Adds on their way to Redis: a write-back waits for them (its snapshot must include them). */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly deps: RedisCountersDeps) {}

  addToWindow(
    key: string,
    delta: number,
    window: CounterWindow,
  ): WindowedAdd | Promise<WindowedAdd> {
    const view = this.view(key, window);
    const limit = window.limit;
    const total = view.remote + view.pending + view.local;
    const command = this.deps.command();
    if (!this.deps.isShared() || command === undefined) return this.addLocally(view, delta, limit);
    // this replica's own view already says no: no need to ask Redis
    if (limit !== undefined && delta > 0 && total + delta > limit) return { ok: false, total };
    view.pending += delta;
    const ttl = Math.max(1, windowEnd(window) - window.now + window.windowMs);
    return this.send(command, view, delta, limit, ttl).then(
      (reply) => {
        const [ok, stored] = reply as [number, string];
        view.pending -= delta;
        this.noteTotal(view, stored);
        if (Number(ok) === 1) view.mine += delta;
        return { ok: Number(ok) === 1, total: view.remote + view.pending + view.local };
      },
      (error: unknown) => {
        view.pending -= delta;
        this.deps.failed(error);
        // Redis may have applied it (a lost reply): the write-back's whole contribution settles it
        return this.addLocally(view, delta, limit);
      },
    );
  }

  /**
   * Writes back, during a resync (the store not shared, so every add goes local meanwhile),
   * this replica's whole contribution to every window it added to. Most are already in Redis
   * and change nothing; but windows counted in alone, adds whose reply was lost, and whatever a
   * Redis that restarted (empty, or from a persistence file a little behind) no longer holds
   * come out right, whichever of these happened. Throws when a write fails; the next resync
   * writes them all again.
   */
  async writeBack(command: Redis): Promise<void> {
    // adds already sent reach Redis first (one connection, in order): their answers must be in
    // the contribution written, or it would undo them
    while (this.inFlight.size > 0) await Promise.allSettled(this.inFlight);
    const now = this.deps.clock();
    const due: WindowView[] = [];
    for (const view of this.windows.values()) {
      if (view.mine === 0 && !view.dirty) continue;
      // expired in Redis by now: nothing to write into
      if (view.end + view.windowMs <= now) view.dirty = false;
      else due.push(view);
    }
    await Promise.all(
      due.map(async (view) => {
        const { mine, local } = view;
        const ttl = view.end + view.windowMs - now;
        const reply = (await WRITE_BACK_WINDOW.run(command, this.redisKeys(view), [
          this.deps.replica,
          ++this.seq,
          mine,
          ttl,
        ])) as [number, string];
        view.local = residue(view.local - local);
        view.dirty = view.local !== 0;
        this.noteTotal(view, reply[1]);
      }),
    );
  }

  /**
   * Sends, once the store shares again, what was counted locally after the resync's write-back
   * took its snapshot, as ordinary adds (no limit: the calls were let through already).
   */
  flushLocal(): void {
    const command = this.deps.command();
    if (!this.deps.isShared() || command === undefined) return;
    const now = this.deps.clock();
    for (const view of this.windows.values()) {
      const delta = view.local;
      if (delta === 0 || view.end + view.windowMs <= now) continue;
      view.local = 0;
      view.pending += delta;
      void this.send(command, view, delta, undefined, view.end + view.windowMs - now).then(
        (reply) => {
          view.pending -= delta;
          view.dirty = view.local !== 0;
          this.noteTotal(view, (reply as [number, string])[1]);
        },
        (error: unknown) => {
          view.pending -= delta;
          view.local += delta;
          view.dirty = true;
          this.deps.failed(error);
        },
      );
    }
  }

  /** A window read here is watched from now on, so other replicas' adds reach it on refresh. */
  getWindow(key: string, window: CounterWindow): number {
    const view = this.view(key, window);
    view.readAt = this.deps.clock();
    return view.remote + view.pending + view.local;
  }

  setGauge(key: string, value: number, ttlMs: number): void {
    const expiresAt = this.deps.clock() + ttlMs;
    this.gauges.set(key, { value, expiresAt });
    const command = this.deps.command();
    if (!this.deps.isShared() || command === undefined) return;
    command.hset(this.deps.keys.gauges, key, `${value}:${expiresAt}`).catch(this.deps.failed);
  }

  getGauge(key: string): number | undefined {
    const gauge = this.gauges.get(key);
    if (!gauge) return undefined;
    if (gauge.expiresAt <= this.deps.clock()) {
      this.gauges.delete(key);
      return undefined;
    }
    return gauge.value;
  }

  /** Re-reads watched windows and every gauge; called by the store's refresh timer. */
  async refresh(): Promise<void> {
    const command = this.deps.command();
    if (!this.deps.isShared() || command === undefined) return;
    this.flushLocal();
    const now = this.deps.clock();
    for (const [id, view] of this.windows) {
      // over for a whole window length and not read lately: nobody adds to it any more
      if (view.end + view.windowMs < now && now - view.readAt >= WATCH_MS) this.windows.delete(id);
    }
    const watched = [...this.windows].filter(([, view]) => now - view.readAt < WATCH_MS);
    // one GET per window, not MGET: on a cluster the windows live in different slots
    const [totals, gauges] = await Promise.all([
      Promise.all(
        watched.map(([, view]) => {
          const key = this.redisKeys(view)[0];
          return command
            .get(key)
            .catch((error: unknown) => Promise.reject(namingKeys(error, [key])));
        }),
      ),
      command.hgetall(this.deps.keys.gauges),
    ]);
    watched.forEach(([, view], index) => {
      const total = Number(totals[index] ?? 0);
      // replies come in order on one connection: the total holds every add answered so far
      if (Number.isFinite(total)) view.remote = total;
    });
    const expired: string[] = [];
    for (const [key, text] of Object.entries(gauges)) {
      const [value, expiresAt] = text.split(':').map(Number);
      if (!(expiresAt! > now)) expired.push(key);
      else if (Number.isFinite(value))
        this.gauges.set(key, { value: value!, expiresAt: expiresAt! });
    }
    if (expired.length > 0) await command.hdel(this.deps.keys.gauges, ...expired);
  }

  private view(key: string, window: CounterWindow): WindowView {
    const start = windowStart(window);
    const id = `${key}@${start}`;
    let view = this.windows.get(id);
    if (!view) {
      view = {
        key,
        start,
        end: windowEnd(window),
        windowMs: window.windowMs,
        remote: 0,
        pending: 0,
        local: 0,
        mine: 0,
        dirty: false,
        readAt: this.deps.clock(),
      };
      this.windows.set(id, view);
    }
    return view;
  }

  private addLocally(view: WindowView, delta: number, limit: number | undefined): WindowedAdd {
    const total = view.remote + view.pending + view.local;
    if (limit !== undefined && delta > 0 && total + delta > limit) return { ok: false, total };
    view.local += delta;
    view.mine += delta;
    view.dirty = true;
    return { ok: true, total: total + delta };
  }

  /** One add, numbered, tracked until answered. */
  private send(
    command: Redis,
    view: WindowView,
    delta: number,
    limit: number | undefined,
    ttl: number,
  ): Promise<unknown> {
    const args = [delta, limit ?? '', ttl, this.deps.replica, ++this.seq];
    const sent = ADD_TO_WINDOW.run(command, this.redisKeys(view), args);
    this.inFlight.add(sent);
    const done = () => this.inFlight.delete(sent);
    sent.then(done, done);
    return sent;
  }

  private noteTotal(view: WindowView, stored: string): void {
    const remote = Number(stored);
    if (Number.isFinite(remote)) view.remote = remote;
  }

  /** The window's total and its contributions: one entity, one Cluster slot. */
  private redisKeys(view: Pick<WindowView, 'key' | 'start'>): [total: string, by: string] {
    return this.deps.keys.window(view.key, view.start);
  }
}

/** Float sums of opposite adds can leave a residue like 1e-13; treat it as zero. */
function residue(value: number): number {
  return Math.abs(value) < 1e-9 ? 0 : value;
}
