import type { Redis } from 'ioredis';
import {
  windowEnd,
  windowStart,
  type CounterStore,
  type CounterWindow,
  type WindowedAdd,
} from '../core/state/counter-store.js';
import { ADD_TO_WINDOW } from './route-state-scripts.js';

interface WindowView {
  key: string;
  start: number;
  end: number;
  windowMs: number;
  /** The last total Redis reported for this window. */
  remote: number;
  /** Adds sent and not answered yet (counted at once, so this replica never overshoots). */
  pending: number;
  /** Adds made while Redis was away: this replica decided alone. */
  local: number;
  readAt: number;
}

export interface RedisCountersDeps {
  prefix: string;
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
 */
export class RedisCounters implements CounterStore {
  private readonly windows = new Map<string, WindowView>();
  private readonly gauges = new Map<string, { value: number; expiresAt: number }>();
  private readonly gaugeKey: string;

  constructor(private readonly deps: RedisCountersDeps) {
    this.gaugeKey = `${deps.prefix}gauges`;
  }

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
    return ADD_TO_WINDOW.run(
      command,
      [this.redisKey(key, view.start)],
      [delta, limit ?? '', ttl],
    ).then(
      (reply) => {
        const [ok, stored] = reply as [number, string];
        view.pending -= delta;
        const remote = Number(stored);
        if (Number.isFinite(remote)) view.remote = remote;
        return { ok: Number(ok) === 1, total: view.remote + view.pending + view.local };
      },
      (error: unknown) => {
        view.pending -= delta;
        this.deps.failed(error);
        return this.addLocally(view, delta, limit);
      },
    );
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
    command.hset(this.gaugeKey, key, `${value}:${expiresAt}`).catch(this.deps.failed);
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
    const now = this.deps.clock();
    for (const [id, view] of this.windows) {
      // over for a whole window length and not read lately: nobody adds to it any more
      if (view.end + view.windowMs < now && now - view.readAt >= WATCH_MS) this.windows.delete(id);
    }
    const watched = [...this.windows].filter(([, view]) => now - view.readAt < WATCH_MS);
    const [totals, gauges] = await Promise.all([
      watched.length > 0
        ? command.mget(...watched.map(([, view]) => this.redisKey(view.key, view.start)))
        : Promise.resolve([] as (string | null)[]),
      command.hgetall(this.gaugeKey),
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
    if (expired.length > 0) await command.hdel(this.gaugeKey, ...expired);
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
    return { ok: true, total: total + delta };
  }

  private redisKey(key: string, start: number): string {
    return `${this.deps.prefix}window:${key}:${start}`;
  }
}
