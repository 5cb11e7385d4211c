import { systemTimers, type Timers } from '../resilience/timers.js';
import { systemClock, type Clock } from '../clock.js';
import { endOf, startOf } from '../strategies/attempt-times.js';
import { emitTo } from '../observability/routing-event.js';
import { partialUsage } from '../cost/partial-usage.js';
import type { AttemptAbort, HedgePolicy } from './hedge-policy.js';
import type { Attempt, ModelRouterCall } from './model-router-call.js';
import type { DueEntry, HedgeDelays } from './hedge-delays.js';

/** How a hedged opening ended. */
export type HedgedOutcome<T> =
  /** `attempt` produced first; `link.unlink()` unlinks its signal from the caller's once it is done. */
  | { kind: 'won'; attempt: Attempt; value: T; link: Unlinkable }
  /** Every attempt started failed with an error to fail over from (each already recorded). */
  | { kind: 'failed' }
  /** An attempt failed with an error that ends the call (recorded): the caller's answer. */
  | { kind: 'stop'; error: unknown };

type Unlinkable = Pick<AttemptAbort, 'unlink'>;

/** Starts `attempt` of `call` on `signal` (undefined: the caller's own). */
export type Open<T> = (
  attempt: Attempt,
  signal: AbortSignal | undefined,
  call: ModelRouterCall,
) => Promise<T>;
type Check<T> = (value: T, attempt: Attempt) => T;
const unchecked = <T>(value: T): T => value;

type Settled<T> =
  { runner: Runner<T>; ok: true; value: T } | { runner: Runner<T>; ok: false; error: unknown };

/** One attempt of a hedged opening; `done()` settles when it does. */
class Runner<T> {
  private settled?: Settled<T>;
  private waiting?: Promise<Settled<T>>;
  private wake?: (settled: Settled<T>) => void;

  constructor(
    readonly attempt: Attempt,
    readonly link: AttemptAbort,
    readonly startedAt: number,
    readonly hedge: boolean,
  ) {}

  /** The first outcome holds: the caller's abort (see `wakeOnCallerAbort`) or what it produced. */
  settle(settled: Settled<T>): void {
    if (this.settled) return;
    this.settled = settled;
    this.wake?.(settled);
  }

  done(): Promise<Settled<T>> {
    if (this.settled) return Promise.resolve(this.settled);
    this.waiting ??= new Promise((resolve) => (this.wake = resolve));
    return this.waiting;
  }
}

const NOTHING_PRODUCED = Object.freeze({ characters: 0, deltas: 0 });
const FAILED = Object.freeze({ kind: 'failed' as const });
/** What an attempt that ran on the caller's own signal has to unlink: nothing. */
const NO_LINK: Unlinkable = Object.freeze({ unlink: () => undefined });
/**
 * The opening of a call (a stream's first event, or a whole answer) with a hedge: `first` starts
 * at once; if it has not produced after the policy's delay, and the policy's bucket has an
 * extra call, the strategy's next pick starts beside it. The first to produce wins and the other
 * is aborted (its connection released) and settled as cancelled, charged for the prompt it read.
 * A failure is recorded as in any call; while the other attempt runs the call waits for it.
 *
 * Most calls never hedge, so a call that produces before the delay takes a short path: it awaits
 * its answer with one object queued for the delay (see Opening), and nothing tracks several
 * attempts. ModelRouter's `chat` runs the same steps itself (startHedged, then the Opening's
 * `answered` or `failed`), to spare its calls this function's own async step.
 */
export async function hedgedOpen<T>(
  call: ModelRouterCall,
  first: Attempt,
  policy: HedgePolicy,
  open: Open<T>,
  /** Frees what a loser produced after it lost (closes a stream). */
  discard: (value: T) => void,
  /**
   * Checks what `open` produced (throws to fail the attempt): run here rather than in `open`,
   * so an answer takes no extra async step on its way to the caller.
   */
  check: Check<T> = unchecked,
  /** Used by the group's delay list, made at its first call. */
  timers: Timers = systemTimers,
  /** The system clock by default, which the group's strategy and limits read too (attempt-times). */
  clock: Clock = systemClock,
): Promise<HedgedOutcome<T>> {
  const hedging = new Hedging(policy, open, discard, check, timers, clock);
  const opening = startHedged(call, first, hedging);
  if (!opening) return openAlone(call, first, hedging);
  let value: T;
  try {
    value = await opening.settled;
  } catch (error) {
    return opening.failed(error);
  }
  return opening.answered(value);
}

/**
 * What every hedged opening of a group (and kind of call) shares: its policy, how an attempt is
 * opened, checked and, when it lost, freed, and the clock and timers of its delay list. Made
 * once per group where the functions are the group's own (ModelRouter's `chat`), so an Opening
 * holds only its call's own state and this one reference.
 */
export class Hedging<T> {
  private delayList: HedgeDelays | undefined;

  constructor(
    readonly policy: HedgePolicy,
    readonly open: Open<T>,
    /** Frees what a loser produced after it lost (closes a stream). */
    readonly discard: (value: T) => void,
    /** Checks what `open` produced (throws to fail the attempt). */
    readonly check: Check<T> = unchecked,
    readonly timers: Timers = systemTimers,
    /** The system clock by default, which the group's strategy and limits read too. */
    readonly clock: Clock = systemClock,
  ) {}

  /** The group's pending hedge delays (the policy's, made at its first call). */
  delays(): HedgeDelays {
    return (this.delayList ??= this.policy.delaysOn(this.timers, this.clock));
  }
}

/**
 * Starts `first` with its hedge delay queued: what it produces goes to the Opening's `answered`
 * (or its error to `failed`). Undefined when the policy has no delay yet (nothing learnt): the
 * caller opens alone (openAlone).
 */
export function startHedged<T>(
  call: ModelRouterCall,
  first: Attempt,
  hedging: Hedging<T>,
): Opening<T> | undefined {
  const { policy, clock } = hedging;
  // the start the strategy read when it admitted the attempt, when it did so on this clock
  const startedAt = startOf(first.context, clock);
  const delayMs = policy.delayMs(startedAt, clock);
  if (delayMs === undefined) return undefined;
  const link = policy.abortFor(call.options.signal);
  const produced = hedging.open(first, link.controller.signal, call);
  const opening = hedging
    .delays()
    .insert(
      new Opening(startedAt + delayMs, call, first, link, startedAt, delayMs, produced, hedging),
    );
  // what the caller awaits: the first attempt's outcome, or the hedge starting (`fire` wakes it,
  // so a call never waits for a first attempt that lost). `capture` hands over the resolvers.
  opening.settled = new Promise<T>(capture);
  opening.wake = capturedResolve!;
  const reject = capturedReject!;
  produced.then(capturedResolve as (value: T) => void, reject);
  // the caller's abort settles it through the link's own listener: `open` races nothing more
  link.onCallerAbort(reject);
  return opening;
}

/** The resolvers of the promise `capture` was last the executor of (read at once). */
let capturedResolve: ((value: never) => void) | undefined;
let capturedReject: ((error: unknown) => void) | undefined;
/** A promise executor that makes no closure per call: it leaves the resolvers above. */
function capture(resolve: (value: never) => void, reject: (error: unknown) => void): void {
  capturedResolve = resolve;
  capturedReject = reject;
}

/**
 * The hedge delay of an attempt producing alone, queued in the group's delay list as it is (a
 * call allocates this one object for its hedge: no timer, no closure). When it is due, the hedge
 * starts, and `race` is the call's outcome from then on.
 */
export class Opening<T> implements DueEntry {
  queued = false;
  prev: DueEntry | undefined = undefined;
  next: DueEntry | undefined = undefined;
  private race: Promise<HedgedOutcome<T>> | undefined = undefined;
  /**
   * Settles with what the first attempt produced, or with nothing once the hedge started: then
   * `answered` gives the race's outcome, whatever it is given.
   */
  settled!: Promise<T>;
  wake!: (value: never) => void;

  constructor(
    readonly at: number,
    private readonly call: ModelRouterCall,
    private readonly first: Attempt,
    private readonly link: AttemptAbort,
    private readonly startedAt: number,
    private readonly delayMs: number,
    /** What the first attempt produces. */
    private readonly produced: Promise<T>,
    /** The group's: policy, open, check, discard, clock, delay list. */
    private readonly hedging: Hedging<T>,
  ) {}

  /** The first attempt produced `value`: the call's outcome (the race's, if the hedge started). */
  answered(value: T): HedgedOutcome<T> | Promise<HedgedOutcome<T>> {
    if (this.race) return this.race;
    const { first, hedging } = this;
    hedging.delays().remove(this);
    let checked: T;
    try {
      checked = hedging.check(value, first);
    } catch (error) {
      this.link.unlink();
      return failedAlone(this.call, first, error);
    }
    // the winner's own time: what answers take when they come (see raceWithHedge)
    hedging.policy.observe(producedAt(this.call, first, hedging.clock) - this.startedAt);
    return { kind: 'won', attempt: first, value: checked, link: this.link };
  }

  /** The first attempt failed: recorded, and the call fails over or stops on it. */
  failed(error: unknown): Promise<HedgedOutcome<T>> {
    // the delay passed first: the race has this failure too, and decides the call
    if (this.race) return this.race;
    this.hedging.delays().remove(this);
    this.link.unlink();
    return failedAlone(this.call, this.first, error);
  }

  fire(): void {
    const runner = new Runner<T>(this.first, this.link, this.startedAt, false);
    wakeOnCallerAbort(runner);
    settleWith(runner, this.produced, this.hedging.check);
    this.race = raceWithHedge(this.call, runner, this.delayMs, this.hedging);
    this.wake(undefined as never);
  }
}

/** Nothing learnt yet: no hedge can start, so the attempt needs no signal of its own. */
export async function openAlone<T>(
  call: ModelRouterCall,
  first: Attempt,
  hedging: Hedging<T>,
): Promise<HedgedOutcome<T>> {
  const { clock } = hedging;
  const startedAt = startOf(first.context, clock);
  let value: T;
  try {
    value = hedging.check(await hedging.open(first, call.options.signal, call), first);
  } catch (error) {
    return failedAlone(call, first, error);
  }
  hedging.policy.observe(producedAt(call, first, clock) - startedAt);
  return { kind: 'won', attempt: first, value, link: NO_LINK };
}

function startRunner<T>(
  call: ModelRouterCall,
  attempt: Attempt,
  hedging: Hedging<T>,
  callerSignal: AbortSignal | undefined,
): Runner<T> {
  const runner = new Runner<T>(
    attempt,
    hedging.policy.abortFor(callerSignal),
    startOf(attempt.context, hedging.clock),
    true,
  );
  wakeOnCallerAbort(runner);
  settleWith(runner, hedging.open(attempt, runner.link.controller.signal, call), hedging.check);
  return runner;
}

/** The caller's abort settles `runner` at once, whether or not its model heeds its signal. */
function wakeOnCallerAbort<T>(runner: Runner<T>): void {
  runner.link.onCallerAbort((error) => runner.settle({ runner, ok: false, error }));
}

/** Settles `runner` with what its attempt produced, checked. */
function settleWith<T>(runner: Runner<T>, produced: Promise<T>, check: Check<T>): void {
  produced.then(
    (value) => {
      let checked: T;
      try {
        checked = check(value, runner.attempt);
      } catch (error) {
        return runner.settle({ runner, ok: false, error });
      }
      runner.settle({ runner, ok: true, value: checked });
    },
    (error: unknown) => runner.settle({ runner, ok: false, error }),
  );
}

/** The only attempt failed: recorded, and the call fails over or stops on it. */
async function failedAlone<T>(
  call: ModelRouterCall,
  attempt: Attempt,
  error: unknown,
): Promise<HedgedOutcome<T>> {
  // the caller left while the model was answering: the prompt was read, and is paid for
  if (call.options.signal?.aborted) {
    attempt.context.usage = partialUsage(call.request, NOTHING_PRODUCED);
  }
  const { disposition } = await call.failed(attempt, error);
  return disposition.failover ? FAILED : { kind: 'stop', error };
}

/** The delay passed with `first` still running: hedge, and race the attempts. */
async function raceWithHedge<T>(
  call: ModelRouterCall,
  first: Runner<T>,
  delayMs: number,
  hedging: Hedging<T>,
): Promise<HedgedOutcome<T>> {
  const { policy, discard, clock } = hedging;
  const callerSignal = call.options.signal;
  const running: Runner<T>[] = [first];
  const abandon = async (reason: unknown) => {
    for (const loser of running.splice(0)) {
      loser.link.controller.abort(reason);
      loser.link.unlink();
      void loser.done().then((late) => {
        if (late.ok) discard(late.value);
      });
      loser.attempt.context.usage = partialUsage(call.request, NOTHING_PRODUCED);
      await call.cancelled(loser.attempt, reason);
    }
  };
  let hedged = false;
  if (!callerSignal?.aborted && policy.take()) {
    const extra = await call.next();
    if (extra) {
      hedged = true;
      emitTo(call.options.observer, {
        type: 'hedge-fired',
        ...(call.route !== undefined ? { route: call.route } : {}),
        model: first.attempt.model.name,
        to: extra.model.name,
        afterMs: delayMs,
      });
      running.push(startRunner(call, extra, hedging, callerSignal));
    }
  }
  for (;;) {
    const next = await Promise.race(running.map((runner) => runner.done()));
    running.splice(running.indexOf(next.runner), 1);
    if (next.ok) {
      // the winner's own time: what answers take when they come. The loser's time is unknown
      // (it was cut), and counting how long it ran would move a percentile delay up by the
      // hedge's own latency on every hedge, until it hedged nothing
      policy.observe(producedAt(call, next.runner.attempt, clock) - next.runner.startedAt);
      const losers = running.map((runner) => runner.attempt.model.name);
      // a DOMException costs a stack capture: made only when there is a loser to tell
      if (losers.length > 0) await abandon(lostTheRace());
      if (hedged && losers.length > 0) {
        emitTo(call.options.observer, {
          type: 'hedge-won',
          ...(call.route !== undefined ? { route: call.route } : {}),
          winner: next.runner.attempt.model.name,
          loser: losers[0]!,
          hedge: next.runner.hedge,
        });
      }
      return {
        kind: 'won',
        attempt: next.runner.attempt,
        value: next.value,
        link: next.runner.link,
      };
    }
    next.runner.link.unlink();
    // the caller left while the model was answering: the prompt was read, and is paid for
    if (callerSignal?.aborted) {
      next.runner.attempt.context.usage = partialUsage(call.request, NOTHING_PRODUCED);
    }
    const { disposition } = await call.failed(next.runner.attempt, next.error);
    if (!disposition.failover) {
      await abandon(next.error);
      return { kind: 'stop', error: next.error };
    }
    if (running.length === 0) return FAILED;
  }
}

/**
 * When an attempt produced: its first event (a stream), or its end (a whole answer), read once
 * and kept on the attempt for the strategy and the limits that time it too.
 */
function producedAt(call: ModelRouterCall, attempt: Attempt, clock: Clock): number {
  // a stream's first event is not always its first token (what the breaker's slow-call rule
  // times): read apart
  return call.streaming ? clock() : endOf(attempt.context, clock);
}

function lostTheRace(): DOMException {
  return new DOMException('Another model of the hedged request answered first', 'AbortError');
}
