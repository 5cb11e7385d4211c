import { systemClock, type Clock } from '../clock.js';
import { InvalidConfigurationException } from '../errors/exceptions.js';
import { systemTimers, type Timers } from '../resilience/timers.js';
import { LatencyRounds } from './latency-rounds.js';
import { SlotQueue } from './slot-queue.js';

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
/** An overload shrinks the limit by at most this factor per round. */
const BACKOFF = 0.75;
/** ... and to this share of the calls that were in flight when the provider refused one. */
const IN_FLIGHT_SHARE = 0.9;
/** Rounds at a limit before growing back to a level the provider refused, at first ... */
const FIRST_PATIENCE = 2;
/** ... doubling each time it refuses that level again, up to this. */
const MAX_PATIENCE = 32;

/**
 * The in-flight limit of one model, shared by every group that serves it. Fixed (`max`) or
 * adaptive (AIMD, as TCP and Netflix's concurrency-limits do):
 *
 * - it grows by one per round (`limit` successes) in which the limit was reached, so a model
 *   that is not busy does not grow a limit it never tested;
 * - a 429 / overload answer shrinks it to 90 % of the calls in flight when the provider
 *   refused (what it did take), by at most a quarter, once per round: a refusal of a call that
 *   started before the last decrease says nothing new and is ignored;
 * - growing back to a level the provider refused is a probe: it waits 2 rounds, then twice as
 *   many each time that level is refused again (up to 32), so a hard provider limit costs a 429
 *   now and then rather than one every other round; a round at that level without a refusal
 *   makes the next level up the probe, and halves the wait;
 * - it does not grow while a call refused with a 429 waits to retry in its slot;
 * - whole rounds far slower than the model's baseline shrink it too ({@link LatencyRounds}).
 *
 * Calls over the limit may wait in a short FIFO queue (`queueMs`, `queueSize`): a freed slot
 * goes to the longest waiter.
 */
export class AimdLimit {
  readonly adaptive: boolean;
  readonly max: number;
  readonly queueMs: number;
  readonly queueSize: number;
  private current: number;
  private running = 0;
  /** Slots taken so far: a call's ticket is the count when it took its slot. */
  private taken = 0;
  /** `taken` at the last decrease: calls with a ticket up to it started before. */
  private decreasedAt = 0;
  /** Successes at the limit in this round. */
  private credit = 0;
  /** The lowest limit the provider refused (Infinity: none known). */
  private refusedAt = Infinity;
  private patience = FIRST_PATIENCE;
  private roundsWaited = 0;
  private readonly latency = new LatencyRounds();
  /** Until when a call refused with a 429 waits to retry while holding its slot (clock ms). */
  private restingUntil = 0;
  private readonly clock: Clock;
  private readonly queue: SlotQueue | undefined;

  constructor(
    options: ConcurrencyOptions,
    field = 'concurrency',
    clock: Clock = systemClock,
    /** What the queue's timer is set on (the global timers by default). */
    timers: Timers = systemTimers,
  ) {
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
    this.clock = clock;
    if (this.queueMs > 0 && this.queueSize > 0) {
      this.queue = new SlotQueue(this.queueMs, this.queueSize, clock, timers);
    }
  }

  get limit(): number {
    return this.current;
  }

  get inFlight(): number {
    return this.running;
  }

  /** Calls waiting in the queue. */
  get waiting(): number {
    return this.queue?.length ?? 0;
  }

  /** The ticket of the slot taken last (pass it to `release`). */
  get lastTicket(): number {
    return this.taken;
  }

  hasRoom(): boolean {
    return this.running < this.current;
  }

  /** Takes a slot if there is one (its ticket is then `lastTicket`). */
  tryAcquire(): boolean {
    if (this.running >= this.current) return false;
    this.running += 1;
    this.taken += 1;
    return true;
  }

  /**
   * Waits in the queue for a slot, which is taken for the caller when handed over: resolves with
   * its ticket, or 0 (no slot) when there is no queue, it is full, `queueMs` passed or `signal`
   * aborted.
   */
  waitForSlot(signal?: AbortSignal): Promise<number> {
    if (this.tryAcquire()) return Promise.resolve(this.taken);
    return this.queue?.wait(signal) ?? Promise.resolve(0);
  }

  /**
   * Frees a slot and learns from how the call went; `ticket` (from `lastTicket` or `waitForSlot`)
   * tells a call that started before the last decrease, whose refusal is not news.
   */
  release(outcome: LimitOutcome, latencyMs?: number, ticket?: number): void {
    const wasRunning = this.running;
    this.running = Math.max(0, this.running - 1);
    if (this.adaptive && outcome !== 'other') {
      if (outcome === 'overload') {
        if (ticket === undefined || ticket > this.decreasedAt) this.refused(wasRunning);
      } else {
        this.succeeded(wasRunning, latencyMs);
      }
    }
    this.handOver();
  }

  /**
   * An overload seen inside a call that goes on (a 429 its model retries after `retryInMs`). The
   * call is not known, so it counts only once a round of calls has started since the last
   * decrease. Until it retries, the limit does not grow: the call holds a slot the provider does
   * not see, and would come back to a provider a grown limit had filled.
   */
  overloaded(retryInMs = 0): void {
    if (!this.adaptive) return;
    if (this.taken - this.decreasedAt >= this.current) this.refused(this.running);
    if (retryInMs > 0) this.restingUntil = Math.max(this.restingUntil, this.clock() + retryInMs);
  }

  private succeeded(wasRunning: number, latencyMs: number | undefined): void {
    if (latencyMs !== undefined && this.latency.slowerThanBaseline(latencyMs, this.current)) {
      this.decrease(wasRunning);
      return;
    }
    // a limit never reached was never tested: growing it would promise what nobody tried
    if (wasRunning < this.current) return;
    this.credit += 1;
    if (this.credit < this.current) return;
    this.credit = 0;
    if (this.restingUntil > 0) {
      if (this.clock() < this.restingUntil) return; // a round that tested less than the limit
      this.restingUntil = 0;
    }
    if (this.current >= this.refusedAt) {
      // a whole round at a level once refused: the provider may take more now, or the refusal
      // was a moment's (a slow answer still counted here): the next level up is the probe now,
      // and probes come sooner
      this.refusedAt = this.current + 1;
      this.patience = Math.max(FIRST_PATIENCE, this.patience / 2);
    }
    if (this.current + 1 >= this.refusedAt) {
      this.roundsWaited += 1;
      if (this.roundsWaited < this.patience) return;
    }
    this.roundsWaited = 0;
    this.current = Math.min(this.max, this.current + 1);
  }

  /** `inFlight`: our calls in flight when the provider refused one, that one included. */
  private refused(inFlight: number): void {
    if (this.current >= this.refusedAt) {
      // a probe of a level refused before, refused again: wait longer before the next one
      this.patience = Math.min(MAX_PATIENCE, this.patience * 2);
    }
    this.refusedAt = Math.min(this.refusedAt, this.current);
    this.decrease(inFlight);
  }

  private decrease(inFlight: number): void {
    const floor = Math.floor(this.current * BACKOFF);
    const share = Math.floor(inFlight * IN_FLIGHT_SHARE);
    this.current = Math.max(1, Math.min(this.current, Math.max(floor, share)));
    this.decreasedAt = this.taken;
    this.credit = 0;
    this.roundsWaited = 0;
  }

  /** Gives the slots there is room for to the calls waiting longest. */
  private handOver(): void {
    const queue = this.queue;
    if (queue === undefined) return;
    while (queue.length > 0 && this.running < this.current) {
      this.running += 1;
      this.taken += 1;
      queue.handOver(this.taken);
    }
  }
}
