import { systemTimers, type Timers } from '../resilience/timers.js';
import { emitTo } from '../observability/routing-event.js';
import { partialUsage } from '../cost/partial-usage.js';
import type { AttemptAbort, HedgePolicy } from './hedge-policy.js';
import type { Attempt, ModelRouterCall } from './model-router-call.js';

/** How a hedged opening ended. */
export type HedgedOutcome<T> =
  /** `attempt` produced first; `link.unlink()` unlinks its signal from the caller's once it is done. */
  | { kind: 'won'; attempt: Attempt; value: T; link: Unlinkable }
  /** Every attempt started failed with an error to fail over from (each already recorded). */
  | { kind: 'failed' }
  /** An attempt failed with an error that ends the call (recorded): the caller's answer. */
  | { kind: 'stop'; error: unknown };

type Unlinkable = Pick<AttemptAbort, 'unlink'>;

type Open<T> = (attempt: Attempt, signal: AbortSignal | undefined) => Promise<T>;
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

  settle(settled: Settled<T>): void {
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
/** Looked up at each call, so fake timers installed after a group was built still drive it. */
const now = () => Date.now();
/**
 * The opening of a call (a stream's first event, or a whole answer) with a hedge: `first` starts
 * at once; if it has not produced after the policy's delay, and the policy's bucket has an
 * extra call, the strategy's next pick starts beside it. The first to produce wins and the other
 * is aborted (its connection released) and settled as cancelled, charged for the prompt it read.
 * A failure is recorded as in any call; while the other attempt runs the call waits for it.
 *
 * Most calls never hedge, so a call that produces before the delay takes a short path: its
 * answer and the delay's timer settle one promise, and nothing tracks several attempts.
 */
export function hedgedOpen<T>(
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
  clock: () => number = now,
): Promise<HedgedOutcome<T>> {
  const delayMs = policy.delayMs();
  if (delayMs === undefined) return openAlone(call, first, policy, open, check, clock);
  const link = policy.abortFor(call.options.signal);
  const startedAt = clock();
  return new Promise((resolve) => {
    // made only once the delay has passed: until then this call is one attempt and a timer entry
    let runner: Runner<T> | undefined;
    const delays = policy.delaysOn(timers, clock);
    const due = delays.add(startedAt + delayMs, () => {
      runner = new Runner<T>(first, link, startedAt, false);
      resolve(raceWithHedge(call, runner, delayMs, policy, open, discard, check, clock));
    });
    const failed = (error: unknown) => {
      if (runner) return runner.settle({ runner, ok: false, error });
      delays.remove(due);
      link.unlink();
      resolve(failedAlone(call, first, error));
    };
    open(first, link.controller.signal).then((produced) => {
      let value: T;
      try {
        value = check(produced, first);
      } catch (error) {
        return failed(error);
      }
      if (runner) return runner.settle({ runner, ok: true, value });
      delays.remove(due);
      // the winner's own time: what answers take when they come (see raceWithHedge)
      policy.observe(clock() - startedAt);
      resolve({ kind: 'won', attempt: first, value, link });
    }, failed);
  });
}

/** Nothing learnt yet: no hedge can start, so the attempt needs no signal of its own. */
async function openAlone<T>(
  call: ModelRouterCall,
  first: Attempt,
  policy: HedgePolicy,
  open: Open<T>,
  check: Check<T>,
  clock: () => number,
): Promise<HedgedOutcome<T>> {
  const startedAt = clock();
  let value: T;
  try {
    value = check(await open(first, call.options.signal), first);
  } catch (error) {
    return failedAlone(call, first, error);
  }
  policy.observe(clock() - startedAt);
  return { kind: 'won', attempt: first, value, link: NO_LINK };
}

function startRunner<T>(
  attempt: Attempt,
  policy: HedgePolicy,
  callerSignal: AbortSignal | undefined,
  open: Open<T>,
  check: Check<T>,
  clock: () => number,
): Runner<T> {
  const runner = new Runner<T>(attempt, policy.abortFor(callerSignal), clock(), true);
  open(attempt, runner.link.controller.signal).then(
    (produced) => {
      let value: T;
      try {
        value = check(produced, attempt);
      } catch (error) {
        return runner.settle({ runner, ok: false, error });
      }
      runner.settle({ runner, ok: true, value });
    },
    (error: unknown) => runner.settle({ runner, ok: false, error }),
  );
  return runner;
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
  policy: HedgePolicy,
  open: Open<T>,
  discard: (value: T) => void,
  check: Check<T>,
  clock: () => number,
): Promise<HedgedOutcome<T>> {
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
      running.push(startRunner(extra, policy, callerSignal, open, check, clock));
    }
  }
  for (;;) {
    const next = await Promise.race(running.map((runner) => runner.done()));
    running.splice(running.indexOf(next.runner), 1);
    if (next.ok) {
      // the winner's own time: what answers take when they come. The loser's time is unknown
      // (it was cut), and counting how long it ran would move a percentile delay up by the
      // hedge's own latency on every hedge, until it hedged nothing
      policy.observe(clock() - next.runner.startedAt);
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

function lostTheRace(): DOMException {
  return new DOMException('Another model of the hedged request answered first', 'AbortError');
}
